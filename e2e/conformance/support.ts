// Shared fixtures of the conformance suite: one emulator per test file (small settings),
// helpers that obtain tokens through the real OAuth flow (oauth4webapi), a raw HTTP client
// for the data routes, OpenAPI assertions and a local webhook receiver.
import { ManualClock, clock as suiteClock } from "@/lib/clock";
import { suiteEmulatorConfig, suiteToday } from "@/lib/test/suite-env.mjs";
import { createHash, createHmac, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import * as oauth from "oauth4webapi";
import { uniqueEmail as kitEmail } from "@/lib/test/emulator-kit";
import { afterAll, beforeAll, expect } from "vitest";
import { validateResponse, validateSchema } from "@/lib/emulator/openapi";
import { startEmulator } from "@/lib/emulator/server";

export type EmulatorOverrides = NonNullable<Parameters<typeof startEmulator>[0]>;
type Emulator = Awaited<ReturnType<typeof startEmulator>>;

/** The emulator's "today" in every conformance run: the suite's (lib/test/suite-env.mjs), fixed by default. */
export const TODAY = suiteToday();

export const ALL_SCOPES = ["email", "personal", "daily", "heartrate", "workout", "tag", "session", "spo2Daily"] as const;
/** Scopes the emulator grants beyond the interface spec's eight: the menstrual cycle's phases (cycle-facts.md). */
export const EXTRA_SCOPES = ["reproductive_cycle"] as const;

/** Spec §2.1 / §4.1: the seven daily collections and their schema names. */
export const DAILY = {
  daily_activity: { doc: "PublicDailyActivity", multi: "MultiDocumentResponse_PublicDailyActivity_" },
  daily_cardiovascular_age: {
    doc: "PublicDailyCardiovascularAge",
    multi: "MultiDocumentResponse_PublicDailyCardiovascularAge_",
  },
  daily_readiness: { doc: "PublicDailyReadiness", multi: "MultiDocumentResponse_PublicDailyReadiness_" },
  daily_resilience: { doc: "DailyResilienceModel", multi: "MultiDocumentResponse_DailyResilienceModel_" },
  daily_sleep: { doc: "PublicDailySleep", multi: "MultiDocumentResponse_PublicDailySleep_" },
  daily_spo2: { doc: "PublicDailySpO2", multi: "MultiDocumentResponse_PublicDailySpO2_" },
  daily_stress: { doc: "PublicDailyStress", multi: "MultiDocumentResponse_PublicDailyStress_" },
} as const;
export type DailyCollection = keyof typeof DAILY;
export const DAILY_COLLECTIONS = Object.keys(DAILY) as DailyCollection[];
/** Spec §4.2: single-document routes exist for these six (daily_stress is list-only in the spec). */
export const SINGLE_DOC_COLLECTIONS = DAILY_COLLECTIONS.filter((c) => c !== "daily_stress");

export const TEST_DEFAULTS: EmulatorOverrides = {
  port: 0,
  host: "127.0.0.1",
  pageSize: 7,
  webhookDelayMs: 50,
  webhookRetryMs: 50,
  historyDays: 60,
  today: TODAY,
  // the suite's clock and seed
  ...suiteEmulatorConfig(),
  tokenTtlS: 3600,
  codeTtlS: 600,
  rateLimit: 1_000_000,
  appRateLimit: 1_000_000,
  rateWindowS: 300,
  subscriptionTtlS: 7_776_000,
};

// ---------------------------------------------------------------------------------------
// small utilities

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function waitUntil<T>(
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs: number,
  what: string,
  intervalMs = 20,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(intervalMs);
  }
}

/** A new e-mail, the same on every run (lib/test/emulator-kit.ts): the emulator derives a person's data from it. */
export function uniqueEmail(tag = "user"): string {
  return kitEmail(tag);
}

export function scopeSet(scope: string | null | undefined): string[] {
  return (scope ?? "").split(" ").filter(Boolean).sort();
}

export function pkceChallengeOf(verifier: string): string {
  return createHash("sha256").update(verifier).digest("base64url");
}

export function signatureOf(secret: string, timestamp: string, rawBody: string): string {
  return createHmac("sha256", secret)
    .update(timestamp + rawBody)
    .digest("hex")
    .toUpperCase();
}

// ---------------------------------------------------------------------------------------
// OpenAPI assertions (validator in lib/emulator/openapi.ts)

function outcome(result: unknown): { ok: boolean; errors: unknown } {
  if (result === undefined || result === true) return { ok: true, errors: null };
  if (result === false) return { ok: false, errors: "invalid" };
  if (Array.isArray(result)) return { ok: result.length === 0, errors: result };
  if (typeof result === "object" && result !== null) {
    const r = result as { valid?: unknown; ok?: unknown; errors?: unknown };
    if (typeof r.valid === "boolean") return { ok: r.valid, errors: r.errors };
    if (typeof r.ok === "boolean") return { ok: r.ok, errors: r.errors };
  }
  return { ok: false, errors: result };
}

/** Asserts that `body` is what the OpenAPI document allows for (path template, method, status). */
export function expectOpenApiResponse(pathTemplate: string, method: string, status: number, body: unknown): void {
  const { ok, errors } = outcome(validateResponse(pathTemplate, method, status, body));
  expect(ok, `OpenAPI ${method.toUpperCase()} ${pathTemplate} ${status}: ${JSON.stringify(errors)}`).toBe(true);
}

/** Asserts that `value` validates against components.schemas[schemaName]. */
export function expectSchema(schemaName: string, value: unknown): void {
  const { ok, errors } = outcome(validateSchema(schemaName, value));
  expect(ok, `OpenAPI schema ${schemaName}: ${JSON.stringify(errors)}`).toBe(true);
}

// ---------------------------------------------------------------------------------------
// HTTP

export interface ApiResult<T = unknown> {
  status: number;
  headers: Headers;
  text: string;
  body: T;
}

export async function readResult<T>(res: Response): Promise<ApiResult<T>> {
  const text = await res.text();
  let body: unknown = undefined;
  if (text && (res.headers.get("content-type") ?? "").includes("json")) body = JSON.parse(text);
  return { status: res.status, headers: res.headers, text, body: body as T };
}

export interface TestClient {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
  approved: boolean;
  /** The portal the client was registered in (emulator default: legacy). */
  portal?: "legacy" | "developer";
}

export interface Connection {
  client: TestClient;
  email: string;
  accessToken: string;
  refreshToken: string | undefined;
  expiresIn: number | undefined;
  grantedScope: string[];
  tokens: oauth.TokenEndpointResponse;
}

export interface ConnectOptions {
  email?: string;
  /** requested scope; undefined = the parameter is left out */
  scope?: string;
  /** granted scope sent in the consent form; default = everything requested (all 8 if blank) */
  grant?: string;
  clientAuth?: "basic" | "post";
  pkce?: boolean;
  /** which registered redirect URI to send; null = leave redirect_uri out */
  redirectUri?: string | null;
  authorizePath?: "/oauth/authorize" | "/authorize";
}

export const DEMO_CLIENT: TestClient = {
  client_id: "ringside-demo",
  client_secret: "ringside-demo-secret",
  redirect_uris: ["http://localhost:3000/api/auth/callback/ring"],
  approved: false,
};

export class Ring {
  emu: Emulator | undefined;
  clock: ManualClock | undefined;

  /** The emulator's current time (epoch ms). */
  now(): number {
    return this.clock ? this.clock.now() : Date.now();
  }

  /**
   * Moves a manual clock forward by `ms`: every webhook delivery and retry due in that span
   * runs, and the promise resolves once none is under way.
   */
  async advance(ms: number): Promise<void> {
    if (!this.clock || !this.emu) throw new Error("advance() needs an emulator started with a manual clock");
    const emulator = this.emu.emulator;
    await this.clock.advance(ms, () => emulator.settled());
  }

  get url(): string {
    if (!this.emu) throw new Error("emulator not started");
    return this.emu.url.replace(/\/$/, "");
  }

  get config(): Emulator["config"] {
    if (!this.emu) throw new Error("emulator not started");
    return this.emu.config;
  }

  get as(): oauth.AuthorizationServer {
    return {
      issuer: this.url,
      authorization_endpoint: `${this.url}/oauth/authorize`,
      token_endpoint: `${this.url}/oauth/token`,
    };
  }

  readonly insecure = { [oauth.allowInsecureRequests]: true } as const;

  // ---- control API -------------------------------------------------------------------

  async control<T = unknown>(method: string, path: string, body?: unknown): Promise<ApiResult<T>> {
    const res = await fetch(`${this.url}${path}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return readResult<T>(res);
  }

  async registerClient(opts: { approved?: boolean; redirect_uris?: string[]; portal?: "legacy" | "developer" } = {}): Promise<TestClient> {
    const id = `conf-${randomBytes(4).toString("hex")}`;
    const client: TestClient = {
      client_id: id,
      client_secret: randomBytes(16).toString("hex"),
      redirect_uris: opts.redirect_uris ?? [`http://localhost:3999/callback/${id}`],
      approved: opts.approved ?? true,
      ...(opts.portal ? { portal: opts.portal } : {}),
    };
    const r = await this.control("POST", "/_emulator/clients", client);
    expect(r.status, `register client: ${r.text}`).toBeLessThan(300);
    return client;
  }

  async createUser(
    opts: { email?: string; history_days?: number; subscription?: "active" | "expired"; tz_offset_minutes?: number; wear?: "generated" | "always" } = {},
  ): Promise<{ user_id: string; email: string }> {
    const email = opts.email ?? uniqueEmail();
    const r = await this.control<{ user_id: string; email: string }>("POST", "/_emulator/users", {
      ...opts,
      email,
    });
    expect(r.status, `create user: ${r.text}`).toBeLessThan(300);
    expect(r.body.email).toBe(email);
    expect(typeof r.body.user_id).toBe("string");
    return r.body;
  }

  async setSubscription(userId: string, subscription: "active" | "expired"): Promise<void> {
    const r = await this.control("PATCH", `/_emulator/users/${encodeURIComponent(userId)}`, { subscription });
    expect(r.status, `patch user: ${r.text}`).toBeLessThan(300);
  }

  async storedDocuments(userId: string, collection: string): Promise<Array<Record<string, unknown>>> {
    const r = await this.control<unknown>("GET", `/_emulator/users/${encodeURIComponent(userId)}/documents/${collection}`);
    expect(r.status, `stored documents: ${r.text}`).toBe(200);
    const body = r.body as unknown;
    if (Array.isArray(body)) return body as Array<Record<string, unknown>>;
    const data = (body as { data?: unknown; documents?: unknown }).data ?? (body as { documents?: unknown }).documents;
    expect(Array.isArray(data), `stored documents shape: ${r.text.slice(0, 200)}`).toBe(true);
    return data as Array<Record<string, unknown>>;
  }

  async sync(userId: string, day?: string): Promise<ApiResult> {
    const r = await this.control("POST", `/_emulator/users/${encodeURIComponent(userId)}/sync`, day ? { day } : {});
    expect(r.status, `sync: ${r.text}`).toBeLessThan(300);
    return r;
  }

  async fault(f: { status: number; count: number; path_prefix?: string; retry_after?: number; tier?: string }): Promise<void> {
    const r = await this.control("POST", "/_emulator/faults", f);
    expect(r.status, `fault: ${r.text}`).toBeLessThan(300);
  }

  // ---- OAuth -------------------------------------------------------------------------

  authorizeUrl(params: Record<string, string | undefined>, path = "/oauth/authorize"): string {
    const u = new URL(`${this.url}${path}`);
    for (const [k, v] of Object.entries(params)) if (v !== undefined) u.searchParams.set(k, v);
    return u.toString();
  }

  /** GET the authorize URL without following redirects. */
  async getAuthorize(params: Record<string, string | undefined>, path = "/oauth/authorize"): Promise<ApiResult> {
    return readResult(await fetch(this.authorizeUrl(params, path), { redirect: "manual" }));
  }

  /** The consent form submission: POST to the same URL (query string unchanged). */
  async postConsent(url: string, form: { user: string; granted_scope?: string; decision: "allow" | "deny" }): Promise<ApiResult> {
    const body = new URLSearchParams();
    body.set("user", form.user);
    if (form.granted_scope !== undefined) body.set("granted_scope", form.granted_scope);
    body.set("decision", form.decision);
    return readResult(
      await fetch(url, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body,
      }),
    );
  }

  /**
   * Authorize + consent: returns the 302 Location of the consent answer (the GET page must be
   * a 200 HTML consent page).
   */
  async authorizeAndConsent(
    params: Record<string, string | undefined>,
    form: { user: string; granted_scope?: string; decision: "allow" | "deny" },
    path = "/oauth/authorize",
  ): Promise<URL> {
    const url = this.authorizeUrl(params, path);
    const page = await readResult(await fetch(url, { redirect: "manual" }));
    expect(page.status, `consent page: ${page.text.slice(0, 300)}`).toBe(200);
    expect(page.headers.get("content-type") ?? "").toContain("text/html");
    const answer = await this.postConsent(url, form);
    expect(answer.status, `consent answer: ${answer.text.slice(0, 300)}`).toBe(302);
    const location = answer.headers.get("location");
    expect(location).toBeTruthy();
    return new URL(location as string, this.url);
  }

  clientAuth(client: TestClient, kind: "basic" | "post"): oauth.ClientAuth {
    return kind === "basic" ? oauth.ClientSecretBasic(client.client_secret) : oauth.ClientSecretPost(client.client_secret);
  }

  /** Runs the server-side flow end to end with oauth4webapi (PKCE S256 + state by default). */
  async connect(client: TestClient, opts: ConnectOptions = {}): Promise<Connection> {
    const email = opts.email ?? uniqueEmail();
    const pkce = opts.pkce ?? true;
    const verifier = oauth.generateRandomCodeVerifier();
    const challenge = await oauth.calculatePKCECodeChallenge(verifier);
    const state = oauth.generateRandomState();
    const redirectUri = opts.redirectUri === undefined ? client.redirect_uris[0] : opts.redirectUri;
    const requested = opts.scope;
    const grant = opts.grant ?? (requested && requested.trim() ? requested : ALL_SCOPES.join(" "));
    const location = await this.authorizeAndConsent(
      {
        response_type: "code",
        client_id: client.client_id,
        redirect_uri: redirectUri ?? undefined,
        scope: requested,
        state,
        code_challenge: pkce ? challenge : undefined,
        code_challenge_method: pkce ? "S256" : undefined,
      },
      { user: email, granted_scope: grant, decision: "allow" },
      opts.authorizePath,
    );
    const oclient: oauth.Client = { client_id: client.client_id };
    const params = oauth.validateAuthResponse(this.as, oclient, location, state);
    const grantedScope = scopeSet(params.get("scope"));
    const auth = this.clientAuth(client, opts.clientAuth ?? "basic");
    let response: Response;
    if (redirectUri === null) {
      // oauth4webapi always sends redirect_uri; the spec wants it omitted here (§5.2 step 3).
      const form = new URLSearchParams({ grant_type: "authorization_code", code: params.get("code") ?? "" });
      if (pkce) form.set("code_verifier", verifier);
      response = await this.rawToken(form, client, opts.clientAuth ?? "basic");
    } else {
      response = await oauth.authorizationCodeGrantRequest(this.as, oclient, auth, params, redirectUri ?? "", pkce ? verifier : oauth.nopkce, this.insecure);
    }
    const tokens = await oauth.processAuthorizationCodeResponse(this.as, oclient, response);
    return {
      client,
      email,
      accessToken: tokens.access_token,
      refreshToken: tokens.refresh_token,
      expiresIn: tokens.expires_in,
      grantedScope,
      tokens,
    };
  }

  /**
   * The server-side flow at the newer identity provider (a developer-portal client): authorize
   * at /oauth/v2/ext/oauth-authorize with `extapi:` names, consent, code exchange (Basic, PKCE).
   * Returns the access token and the granted names.
   */
  async connectDeveloper(client: TestClient, opts: { email?: string; scope: string }): Promise<{ accessToken: string; grantedScope: string[]; email: string }> {
    const email = opts.email ?? uniqueEmail("dev");
    const verifier = oauth.generateRandomCodeVerifier();
    const location = await this.authorizeAndConsent(
      {
        response_type: "code",
        client_id: client.client_id,
        redirect_uri: client.redirect_uris[0],
        scope: opts.scope,
        state: "st",
        code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
        code_challenge_method: "S256",
      },
      { user: email, granted_scope: opts.scope, decision: "allow" },
      "/oauth/v2/ext/oauth-authorize",
    );
    expect(location.searchParams.get("iss")).toBe(`${this.url}/oauth/v2/ext/oauth-anonymous`);
    const code = location.searchParams.get("code");
    expect(code, location.toString()).toBeTruthy();
    const res = await fetch(`${this.url}/oauth/v2/ext/oauth-token`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        authorization: `Basic ${Buffer.from(`${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret)}`).toString("base64")}`,
      },
      body: new URLSearchParams({ grant_type: "authorization_code", code: code!, redirect_uri: client.redirect_uris[0]!, code_verifier: verifier }),
    });
    const body = (await res.json()) as { access_token: string; scope: string };
    expect(res.status, JSON.stringify(body)).toBe(200);
    return { accessToken: body.access_token, grantedScope: scopeSet(body.scope), email };
  }

  /** Refresh with oauth4webapi; throws oauth.ResponseBodyError on an OAuth error answer. */
  async refresh(client: TestClient, refreshToken: string, kind: "basic" | "post" = "basic") {
    const oclient: oauth.Client = { client_id: client.client_id };
    const res = await oauth.refreshTokenGrantRequest(this.as, oclient, this.clientAuth(client, kind), refreshToken, this.insecure);
    return oauth.processRefreshTokenResponse(this.as, oclient, res);
  }

  /** A hand-made POST /oauth/token (for the error rows the library would never send). */
  async rawToken(
    form: URLSearchParams | Record<string, string>,
    client?: Pick<TestClient, "client_id" | "client_secret">,
    kind: "basic" | "post" | "none" = "post",
  ): Promise<Response> {
    const body = new URLSearchParams(form);
    const headers: Record<string, string> = {
      "content-type": "application/x-www-form-urlencoded;charset=UTF-8",
      accept: "application/json",
    };
    if (client && kind === "basic") {
      headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret)}`).toString("base64")}`;
    } else if (client && kind === "post") {
      body.set("client_id", client.client_id);
      body.set("client_secret", client.client_secret);
    }
    return fetch(`${this.url}/oauth/token`, { method: "POST", headers, body });
  }

  async rawTokenResult(
    form: URLSearchParams | Record<string, string>,
    client?: Pick<TestClient, "client_id" | "client_secret">,
    kind: "basic" | "post" | "none" = "post",
  ): Promise<ApiResult<{ error?: string; error_description?: string } & Record<string, unknown>>> {
    return readResult(await this.rawToken(form, client, kind));
  }

  /** Authorize + consent and return the code (and what was used to get it). */
  async getCode(
    client: TestClient,
    opts: { email?: string; scope?: string; challenge?: string | null; redirectUri?: string | null } = {},
  ): Promise<{ code: string; verifier: string; redirectUri: string | null; email: string }> {
    const verifier = oauth.generateRandomCodeVerifier();
    const challenge = opts.challenge === undefined ? await oauth.calculatePKCECodeChallenge(verifier) : opts.challenge;
    const redirectUri = opts.redirectUri === undefined ? (client.redirect_uris[0] ?? null) : opts.redirectUri;
    const email = opts.email ?? uniqueEmail();
    const location = await this.authorizeAndConsent(
      {
        response_type: "code",
        client_id: client.client_id,
        redirect_uri: redirectUri ?? undefined,
        scope: opts.scope ?? "daily",
        state: "s",
        code_challenge: challenge ?? undefined,
        code_challenge_method: challenge ? "S256" : undefined,
      },
      { user: email, granted_scope: opts.scope ?? "daily", decision: "allow" },
    );
    const code = location.searchParams.get("code");
    expect(code, `no code in ${location.toString()}`).toBeTruthy();
    return { code: code as string, verifier, redirectUri, email };
  }

  /** Client-side flow (response_type=token): returns the fragment parameters. */
  async implicit(
    client: TestClient,
    opts: { email?: string; scope?: string; grant?: string; state?: string; decision?: "allow" | "deny" } = {},
  ): Promise<{ location: URL; fragment: URLSearchParams }> {
    const location = await this.authorizeAndConsent(
      {
        response_type: "token",
        client_id: client.client_id,
        redirect_uri: client.redirect_uris[0],
        scope: opts.scope,
        state: opts.state,
      },
      {
        user: opts.email ?? uniqueEmail(),
        granted_scope: opts.grant ?? opts.scope ?? ALL_SCOPES.join(" "),
        decision: opts.decision ?? "allow",
      },
    );
    return { location, fragment: new URLSearchParams(location.hash.replace(/^#/, "")) };
  }

  // ---- data API ----------------------------------------------------------------------

  async api<T = unknown>(
    path: string,
    opts: { token?: string | null; query?: Record<string, string | undefined>; authorization?: string } = {},
  ): Promise<ApiResult<T>> {
    const u = new URL(`${this.url}${path}`);
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) u.searchParams.set(k, v);
    const headers: Record<string, string> = {};
    if (opts.authorization !== undefined) headers.authorization = opts.authorization;
    else if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    return readResult<T>(await fetch(u, { headers }));
  }

  /** Follows next_token to the end; returns every page. */
  async listAll(
    path: string,
    token: string,
    query: Record<string, string | undefined> = {},
    opts: { repeatFilters?: boolean; maxPages?: number } = {},
  ): Promise<Array<{ data: Array<Record<string, unknown>>; next_token: string | null }>> {
    const pages: Array<{ data: Array<Record<string, unknown>>; next_token: string | null }> = [];
    let next: string | null = null;
    for (let i = 0; i < (opts.maxPages ?? 500); i++) {
      const q: Record<string, string | undefined> =
        next === null ? query : opts.repeatFilters === false ? { next_token: next } : { ...query, next_token: next };
      const r = await this.api<{ data: Array<Record<string, unknown>>; next_token: string | null }>(path, {
        token,
        query: q,
      });
      expect(r.status, `${path} ${JSON.stringify(q)}: ${r.text.slice(0, 300)}`).toBe(200);
      pages.push(r.body);
      next = r.body.next_token ?? null;
      if (next === null) return pages;
    }
    throw new Error(`${path}: more than ${opts.maxPages ?? 500} pages`);
  }

  async personalInfo(token: string): Promise<Record<string, unknown> & { id: string }> {
    const r = await this.api<Record<string, unknown> & { id: string }>("/v2/usercollection/personal_info", { token });
    expect(r.status, r.text).toBe(200);
    return r.body;
  }

  // ---- webhook subscription API ------------------------------------------------------

  async webhook<T = unknown>(
    client: Pick<TestClient, "client_id" | "client_secret"> | null,
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<ApiResult<T>> {
    const h: Record<string, string> = { ...headers };
    if (client) {
      h["x-client-id"] = client.client_id;
      h["x-client-secret"] = client.client_secret;
    }
    if (body !== undefined) h["content-type"] = "application/json";
    const res = await fetch(`${this.url}${path}`, {
      method,
      headers: h,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return readResult<T>(res);
  }
}

/** Starts an emulator for the current file (small test settings + overrides); stops it after. */
/**
 * One emulator for the test file. With `{ clock: "manual" }` its time and webhook timers move
 * only through `ring.advance(ms)` (no sleeping, no timing flakes).
 */
export function useEmulator(overrides: EmulatorOverrides = {}, opts: { clock?: "real" | "manual" } = {}): Ring {
  const ring = new Ring();
  beforeAll(async () => {
    if (opts.clock === "manual") ring.clock = new ManualClock(suiteClock.now());
    ring.emu = await startEmulator({ ...TEST_DEFAULTS, ...overrides }, ring.clock ? { clock: ring.clock } : {});
  });
  afterAll(async () => {
    await ring.emu?.close();
  });
  return ring;
}

// ---------------------------------------------------------------------------------------
// webhook receiver

export interface ReceivedPost {
  at: number;
  path: string;
  headers: http.IncomingHttpHeaders;
  raw: string;
  body: Record<string, unknown>;
  answered: number;
}
export interface ReceivedGet {
  at: number;
  path: string;
  query: URLSearchParams;
  answered: number;
}

export type PostAnswer = number | "drop" | "hang";

/**
 * A tiny callback server on 127.0.0.1, port 0. It answers the verification GET with
 * {challenge} when the verification token matches (401 otherwise), and records every POST.
 */
export class WebhookReceiver {
  readonly posts: ReceivedPost[] = [];
  readonly gets: ReceivedGet[] = [];
  handshake: "echo" | "wrong-challenge" | "error" = "echo";
  /** Status for the n-th POST (0-based); default 200. */
  answer: (n: number, post: ReceivedPost) => PostAnswer = () => 200;

  private constructor(
    private readonly server: http.Server,
    readonly verificationToken: string,
  ) {}

  static async start(verificationToken = `vt-${randomBytes(6).toString("hex")}`): Promise<WebhookReceiver> {
    const ref: { self?: WebhookReceiver } = {};
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => ref.self?.handle(req, Buffer.concat(chunks).toString("utf8"), res));
    });
    const self = new WebhookReceiver(server, verificationToken);
    ref.self = self;
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return self;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** Callback URL on 127.0.0.1 (or localhost), with an optional path to tell subscriptions apart. */
  url(path = "/hook", host: "127.0.0.1" | "localhost" = "127.0.0.1"): string {
    return `http://${host}:${this.port}${path}`;
  }

  private handle(req: http.IncomingMessage, raw: string, res: http.ServerResponse): void {
    const u = new URL(req.url ?? "/", "http://127.0.0.1");
    if (req.method === "GET") {
      const ok = u.searchParams.get("verification_token") === this.verificationToken;
      const challenge = u.searchParams.get("challenge") ?? "";
      let status = 200;
      let body: string;
      if (!ok || this.handshake === "error") {
        status = 401;
        body = JSON.stringify({ detail: "bad verification token" });
      } else if (this.handshake === "wrong-challenge") {
        body = JSON.stringify({ challenge: `${challenge}-nope` });
      } else {
        body = JSON.stringify({ challenge });
      }
      this.gets.push({ at: Date.now(), path: u.pathname, query: u.searchParams, answered: status });
      res.writeHead(status, { "content-type": "application/json" }).end(body);
      return;
    }
    if (req.method === "POST") {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        body = {};
      }
      const post: ReceivedPost = { at: Date.now(), path: u.pathname, headers: req.headers, raw, body, answered: 0 };
      const n = this.posts.length;
      this.posts.push(post);
      const a = this.answer(n, post);
      if (a === "drop") {
        post.answered = -1;
        req.socket.destroy();
        return;
      }
      if (a === "hang") {
        post.answered = -2; // never answered; the socket closes with the server
        return;
      }
      post.answered = a;
      res.writeHead(a, { "content-type": "application/json" }).end("{}");
      return;
    }
    res.writeHead(405).end();
  }

  postsTo(path: string): ReceivedPost[] {
    return this.posts.filter((p) => p.path === path);
  }

  reset(): void {
    this.posts.length = 0;
    this.gets.length = 0;
    this.handshake = "echo";
    this.answer = () => 200;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
