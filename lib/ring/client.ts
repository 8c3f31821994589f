import "server-only";
import { asBackground } from "@/lib/cpu-ledger";
import { env } from "@/lib/env.mjs";
import { logger } from "@/lib/log";
import { getValidAccessToken, getValidAccessTokenUntil, refreshAfterUnauthorized } from "@/lib/ring/tokens";
import { RingApiError, RingRateLimitedError, type RateLimitTier } from "@/lib/ring/errors";
import {
  ringErrorBodySchema,
  ringListPageSchema,
  ringPersonalInfoSchema,
  ringWebhookSubscriptionListSchema,
  ringWebhookSubscriptionSchema,
  type RingPersonalInfo,
  type RingWebhookSubscription,
  type WebhookOperation,
} from "@/lib/ring/schemas";
import type { RingCollection, SeriesCollection } from "@/lib/resources";
import { backoffDelay, DEFAULT_BACKOFF, type BackoffPolicy } from "@/lib/limits/backoff";
import { clock as processClock, type Clock } from "@/lib/clock";
import { getRateGate, pauseUntil, type RateGate } from "@/lib/ring/rate-gate";

// The typed HTTP client of the ring service. One RingClient per person (account):
// bearer token from lib/ring/tokens.ts, AbortSignal.timeout on every request, and the
// service's error rules (spec §7, facts §7):
//   429 → pause the layer X-RateLimit-Tier names, exactly as long as the headers say;
//   401 → refresh the token once and retry once;
//   5xx / no answer → exponential backoff with jitter, bounded, then RingApiError;
//   other 4xx → RingApiError at once (the caller decides: 403 not shared, 400/422 a bug).
// Tokens and URLs with query strings never reach logs or error messages.

export type DataFamily = "usercollection" | "sandbox";

export type TokenSource = {
  getValidAccessToken(accountId: string): Promise<string>;
  /** the token and until when it is usable (epoch ms), where the source knows its expiry */
  getValidAccessTokenUntil?(accountId: string): Promise<{ token: string; until: number }>;
  refreshAfterUnauthorized(accountId: string, rejectedToken: string): Promise<string>;
};

export type RequestInfo = { endpoint: string; status: number; ms: number; attempt: number };

export type RingClientOptions = {
  accountId: string;
  baseUrl?: string;
  family?: DataFamily;
  timeoutMs?: number;
  fetch?: typeof fetch;
  tokens?: TokenSource;
  gate?: RateGate;
  backoff?: BackoffPolicy;
  clock?: Clock;
  /** called after every HTTP answer (or network failure, status 0): request counting */
  onRequest?: (info: RequestInfo) => void;
  signal?: AbortSignal;
};

export type ListQuery = { start_date?: string; end_date?: string; next_token?: string | null };
/** A time series' window: instants, both inclusive at the emulator (facts §2.4). */
export type SeriesQuery = { start_datetime?: string; end_datetime?: string; next_token?: string | null };
/** `text` is the body as received (for keeping each document's raw JSON). */
export type ListPage = { data: unknown[]; text: string | null; nextToken: string | null };

const defaultTokens: TokenSource = { getValidAccessToken, getValidAccessTokenUntil, refreshAfterUnauthorized };

function tierOf(value: string | null): RateLimitTier {
  return value?.toLowerCase().startsWith("app") ? "application" : "token";
}

function intHeader(h: Headers, name: string): number | null {
  const v = h.get(name);
  if (v === null || v.trim() === "") return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
}

async function readDetail(res: Response): Promise<string | null> {
  try {
    const text = await res.text();
    if (!text) return null;
    const parsed = ringErrorBodySchema.safeParse(JSON.parse(text));
    if (!parsed.success) return null;
    const d = parsed.data.detail ?? parsed.data.title ?? null;
    if (typeof d === "string") return d.slice(0, 300);
    if (Array.isArray(d)) return JSON.stringify(d).slice(0, 300);
    return null;
  } catch {
    return null;
  }
}

/**
 * A bearer client keeps the access token it was last given for a short while (one collection's
 * run asks for hundreds of pages, each of which would read and decrypt the account's row): at
 * most this long, and never past the point where the token source would refresh it (60 s before
 * its expiry). A token just refreshed is not held (its row, with its expiry, is read next time).
 */
export const TOKEN_REUSE_MS = 30_000;

type Held = { token: string; at: number; until: number };
type BearerAuth = { kind: "bearer"; accountId: string; tokens: TokenSource; held: Held | null };
type Auth = BearerAuth | { kind: "client"; clientId: string; clientSecret: string };

/** The access token for the next request: the one held while it is fresh, else the token source's. */
async function bearerToken(auth: BearerAuth, now: number): Promise<string> {
  const held = auth.held;
  if (held && now >= held.at && now < held.until) return held.token;
  const { token, until } = auth.tokens.getValidAccessTokenUntil
    ? await auth.tokens.getValidAccessTokenUntil(auth.accountId)
    : { token: await auth.tokens.getValidAccessToken(auth.accountId), until: Number.POSITIVE_INFINITY };
  auth.held = { token, at: now, until: Math.min(now + TOKEN_REUSE_MS, until) };
  return token;
}

type CoreOptions = {
  baseUrl: string;
  timeoutMs: number;
  fetch: typeof fetch;
  gate: RateGate;
  backoff: BackoffPolicy;
  clock: Clock;
  onRequest?: (info: RequestInfo) => void;
  signal?: AbortSignal;
};

type CallOptions = {
  method?: "GET" | "POST" | "PUT" | "DELETE";
  path: string;
  /** path shown in logs and errors (no ids that could be secrets, never a query string) */
  endpoint?: string;
  query?: Record<string, string | null | undefined>;
  body?: unknown;
  /** answer 404 with null instead of an error */
  allowNotFound?: boolean;
  /** a 400 is an answer the caller expects and handles (not a bug to log) */
  mayRefuse?: boolean;
};

type Answer = { json: unknown; text: string | null };

/** One request with the service's retry rules; resolves to the parsed JSON body (or null) and its text. */
async function call(core: CoreOptions, auth: Auth, opts: CallOptions): Promise<Answer> {
  const endpoint = opts.endpoint ?? opts.path;
  const url = new URL(core.baseUrl + opts.path);
  for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined && v !== null && v !== "") url.searchParams.set(k, v);
  const gateKey = auth.kind === "bearer" ? auth.accountId : null;

  let refreshed = false;
  let transientRetries = 0;
  let rateLimited = 0;
  let token: string | null = null;
  for (let attempt = 0; ; attempt++) {
    await core.gate.wait(gateKey, core.signal);
    const headers: Record<string, string> = { accept: "application/json" };
    if (auth.kind === "bearer") {
      token ??= await bearerToken(auth, core.clock.now());
      headers.authorization = `Bearer ${token}`;
    } else {
      headers["x-client-id"] = auth.clientId;
      headers["x-client-secret"] = auth.clientSecret;
    }
    if (opts.body !== undefined) headers["content-type"] = "application/json";
    const timeout = AbortSignal.timeout(core.timeoutMs);
    const signal = core.signal ? AbortSignal.any([timeout, core.signal]) : timeout;
    const started = core.clock.now();
    let res: Response;
    try {
      res = await core.fetch(url, {
        method: opts.method ?? "GET",
        headers,
        body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
        signal,
        cache: "no-store",
      });
    } catch (err) {
      core.onRequest?.({ endpoint, status: 0, ms: core.clock.now() - started, attempt });
      if (core.signal?.aborted) throw core.signal.reason ?? err;
      const error = new RingApiError({ status: 0, endpoint, detail: timeout.aborted ? "timed out" : "no answer", cause: err });
      if (transientRetries >= core.backoff.maxRetries) throw error;
      const delay = backoffDelay(transientRetries++, core.backoff);
      logger.warn({ endpoint, attempt, delayMs: delay }, "ring request failed without an answer; retrying");
      await core.clock.sleep(delay, core.signal);
      continue;
    }
    core.onRequest?.({ endpoint, status: res.status, ms: core.clock.now() - started, attempt });

    if (res.ok) {
      if (res.status === 204) return { json: null, text: null };
      const text = await res.text();
      if (!text) return { json: null, text: null };
      try {
        // the syncs' answers: background work of the process (lib/cpu-ledger.ts)
        return { json: asBackground(() => JSON.parse(text) as unknown), text };
      } catch (err) {
        throw new RingApiError({ status: res.status, endpoint, detail: "the body is not JSON", cause: err });
      }
    }

    if (res.status === 429) {
      const retryAfter = intHeader(res.headers, "retry-after");
      const resetAt = intHeader(res.headers, "x-ratelimit-reset");
      const tier = tierOf(res.headers.get("x-ratelimit-tier"));
      await res.body?.cancel().catch(() => undefined);
      const until = pauseUntil(core.clock.now(), retryAfter, resetAt);
      await core.gate.record(tier, gateKey, until);
      // A service that keeps answering 429 without a usable wait: hand it to the job.
      if (++rateLimited >= 10) throw new RingRateLimitedError(Math.max(until, core.clock.now() + 60_000), tier);
      logger.warn({ endpoint, tier, waitMs: until - core.clock.now() }, "ring rate limit reached; pausing");
      continue; // the gate waits (or throws RingRateLimitedError for a long pause)
    }

    if (res.status === 401 && auth.kind === "bearer" && !refreshed && token) {
      await res.body?.cancel().catch(() => undefined);
      refreshed = true;
      token = await auth.tokens.refreshAfterUnauthorized(auth.accountId, token);
      auth.held = null;
      continue;
    }

    if (res.status === 404 && opts.allowNotFound) {
      await res.body?.cancel().catch(() => undefined);
      return { json: null, text: null };
    }

    const detail = await readDetail(res);
    const error = new RingApiError({ status: res.status, endpoint, detail });
    if (res.status >= 500) {
      if (transientRetries >= core.backoff.maxRetries) throw error;
      const delay = backoffDelay(transientRetries++, core.backoff);
      logger.warn({ endpoint, status: res.status, attempt, delayMs: delay }, "ring service error; retrying");
      await core.clock.sleep(delay, core.signal);
      continue;
    }
    if ((res.status === 400 && !opts.query?.next_token && !opts.mayRefuse) || res.status === 422) {
      // Our request was wrong: a bug to fix, logged with the path (no token, no query values).
      // (A 400 for a next_token is the token having expired; the engine starts the page again.)
      logger.error({ endpoint, status: res.status, query: Object.keys(opts.query ?? {}), detail }, "ring service rejected a request");
    }
    throw error;
  }
}

/**
 * The runtime's own fetch: inside the Next.js server, global fetch is wrapped for its data cache
 * and tracing, which the ring client (always no-store) does not use and pays for on every page.
 */
function unpatchedFetch(): typeof fetch {
  const original = (globalThis.fetch as typeof fetch & { _nextOriginalFetch?: typeof fetch })._nextOriginalFetch;
  return (typeof original === "function" ? original : globalThis.fetch).bind(globalThis);
}

function coreFrom(opts: Omit<RingClientOptions, "accountId" | "tokens" | "family">): CoreOptions {
  return {
    baseUrl: (opts.baseUrl ?? env.RING_API_BASE_URL).replace(/\/+$/, ""),
    timeoutMs: opts.timeoutMs ?? env.RING_REQUEST_TIMEOUT_MS,
    fetch: opts.fetch ?? unpatchedFetch(),
    gate: opts.gate ?? getRateGate(),
    backoff: opts.backoff ?? DEFAULT_BACKOFF,
    clock: opts.clock ?? processClock,
    onRequest: opts.onRequest,
    signal: opts.signal,
  };
}

/** A person's view of the ring service's data routes. */
export class RingClient {
  readonly accountId: string;
  readonly family: DataFamily;
  private readonly core: CoreOptions;
  private readonly auth: Auth;

  constructor(opts: RingClientOptions) {
    this.accountId = opts.accountId;
    this.family = opts.family ?? env.RING_DATA_FAMILY;
    this.core = coreFrom(opts);
    this.auth = { kind: "bearer", accountId: opts.accountId, tokens: opts.tokens ?? defaultTokens, held: null };
  }

  private collectionPath(collection: RingCollection | SeriesCollection): string {
    return this.family === "sandbox" ? `/v2/sandbox/usercollection/${collection}` : `/v2/usercollection/${collection}`;
  }

  /** One page of a date-range collection. The filters are sent again with next_token. */
  async listPage(collection: RingCollection, query: ListQuery): Promise<ListPage> {
    const path = this.collectionPath(collection);
    const answer = await call(this.core, this.auth, {
      path,
      query: { start_date: query.start_date, end_date: query.end_date, next_token: query.next_token ?? undefined },
    });
    const page = ringListPageSchema.safeParse(answer.json);
    if (!page.success) throw new RingApiError({ status: 200, endpoint: path, detail: "the list wrapper is not valid" });
    return { data: page.data.data, text: answer.text, nextToken: page.data.next_token ?? null };
  }

  /** One page of a time series (heart rate, battery). The window is sent again with next_token. */
  async listSeriesPage(collection: SeriesCollection, query: SeriesQuery, opts: { mayRefuse?: boolean } = {}): Promise<ListPage> {
    const path = this.collectionPath(collection);
    const answer = await call(this.core, this.auth, {
      path,
      mayRefuse: opts.mayRefuse,
      query: { start_datetime: query.start_datetime, end_datetime: query.end_datetime, next_token: query.next_token ?? undefined },
    });
    const page = ringListPageSchema.safeParse(answer.json);
    if (!page.success) throw new RingApiError({ status: 200, endpoint: path, detail: "the time-series wrapper is not valid" });
    return { data: page.data.data, text: null, nextToken: page.data.next_token ?? null };
  }

  /** One document by id (a webhook's object_id); null when the service no longer has it. */
  async getDocument(collection: RingCollection, documentId: string): Promise<unknown | null> {
    const base = this.collectionPath(collection);
    const answer = await call(this.core, this.auth, {
      path: `${base}/${encodeURIComponent(documentId)}`,
      endpoint: `${base}/{document_id}`,
      allowNotFound: true,
    });
    return answer.json;
  }

  /** personal_info (no sandbox twin): validated, throws RingApiError on a bad body. */
  async personalInfo(): Promise<{ info: RingPersonalInfo; raw: unknown }> {
    const path = "/v2/usercollection/personal_info";
    const body = (await call(this.core, this.auth, { path })).json;
    const parsed = ringPersonalInfoSchema.safeParse(body);
    if (!parsed.success) throw new RingApiError({ status: 200, endpoint: path, detail: "personal_info is not valid" });
    return { info: parsed.data, raw: body };
  }
}

export type WebhookAdminOptions = Omit<RingClientOptions, "accountId" | "tokens" | "family"> & {
  clientId?: string;
  clientSecret?: string;
};

/** The app's webhook subscriptions (client credentials in x-client-id / x-client-secret). */
export class RingWebhookAdmin {
  private readonly core: CoreOptions;
  private readonly auth: Auth;

  constructor(opts: WebhookAdminOptions = {}) {
    this.core = coreFrom(opts);
    this.auth = { kind: "client", clientId: opts.clientId ?? env.RING_CLIENT_ID, clientSecret: opts.clientSecret ?? env.RING_CLIENT_SECRET ?? "" };
  }

  private parse(body: unknown, endpoint: string): RingWebhookSubscription {
    const parsed = ringWebhookSubscriptionSchema.safeParse(body);
    if (!parsed.success) throw new RingApiError({ status: 200, endpoint, detail: "the subscription is not valid" });
    return parsed.data;
  }

  async list(): Promise<RingWebhookSubscription[]> {
    const path = "/v2/webhook/subscription";
    const body = (await call(this.core, this.auth, { path })).json;
    const list = Array.isArray(body) ? body : ((body as { data?: unknown } | null)?.data ?? []);
    const parsed = ringWebhookSubscriptionListSchema.safeParse(list);
    if (!parsed.success) throw new RingApiError({ status: 200, endpoint: path, detail: "the subscription list is not valid" });
    return parsed.data;
  }

  async create(input: { callbackUrl: string; verificationToken: string; eventType: WebhookOperation; dataType: string }): Promise<RingWebhookSubscription> {
    const path = "/v2/webhook/subscription";
    const { json: body } = await call(this.core, this.auth, {
      method: "POST",
      path,
      body: { callback_url: input.callbackUrl, verification_token: input.verificationToken, event_type: input.eventType, data_type: input.dataType },
    });
    return this.parse(body, path);
  }

  async update(
    id: string,
    input: { callbackUrl: string; verificationToken: string; eventType: WebhookOperation; dataType: string },
  ): Promise<RingWebhookSubscription> {
    const endpoint = "/v2/webhook/subscription/{id}";
    const { json: body } = await call(this.core, this.auth, {
      method: "PUT",
      path: `/v2/webhook/subscription/${encodeURIComponent(id)}`,
      endpoint,
      body: { callback_url: input.callbackUrl, verification_token: input.verificationToken, event_type: input.eventType, data_type: input.dataType },
    });
    return this.parse(body, endpoint);
  }

  async renew(id: string): Promise<RingWebhookSubscription> {
    const endpoint = "/v2/webhook/subscription/renew/{id}";
    const { json: body } = await call(this.core, this.auth, { method: "PUT", path: `/v2/webhook/subscription/renew/${encodeURIComponent(id)}`, endpoint });
    return this.parse(body, endpoint);
  }

  async remove(id: string): Promise<void> {
    await call(this.core, this.auth, {
      method: "DELETE",
      path: `/v2/webhook/subscription/${encodeURIComponent(id)}`,
      endpoint: "/v2/webhook/subscription/{id}",
      allowNotFound: true,
    });
  }
}
