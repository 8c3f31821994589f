// Webhooks: the subscription routes (/v2/webhook/subscription*, x-client-id/x-client-secret
// auth, synchronous verification handshake) and the delivery engine (delay, HMAC signature,
// retries with doubling backoff, 410 cancels, every attempt recorded).
import { createHmac, randomUUID } from "node:crypto";
import { z } from "zod";
import type { EmulatorClock, TimerHandle } from "./clock";
import type { EmulatorConfig } from "./config";
import type { EmulatorContext, RequestMeta } from "./context";
import { isoWithOffset } from "./date-params";
import { empty, json, problem, validationError, type ValidationIssue } from "./errors";
import type { Client, EmulatorState, WebhookSubscription } from "./store";
import { logger } from "@/lib/log";

export const WEBHOOK_EVENT_TYPES = ["create", "update", "delete"] as const;
export const WEBHOOK_DATA_TYPES = [
  "tag",
  "enhanced_tag",
  "workout",
  "session",
  "sleep",
  "daily_sleep",
  "daily_readiness",
  "daily_activity",
  "daily_spo2",
  "sleep_time",
  "rest_mode_period",
  "ring_configuration",
  "daily_stress",
  "daily_cardiovascular_age",
  "daily_resilience",
  "vo2_max",
  "meal",
] as const;
export const MAX_RETRIES = 10;
export const CALLBACK_TIMEOUT_MS = 10_000;

export type WebhookEvent = {
  event_type: (typeof WEBHOOK_EVENT_TYPES)[number];
  data_type: string;
  object_id: string | null;
  event_time: string;
  user_id: string;
};

/** x-oura-signature: upper-case hex HMAC-SHA256(key = client_secret, message = timestamp + raw body). */
export function signWebhook(clientSecret: string, timestamp: string, rawBody: string): string {
  return createHmac("sha256", clientSecret)
    .update(timestamp + rawBody)
    .digest("hex")
    .toUpperCase();
}

function toModel(sub: WebhookSubscription) {
  return {
    id: sub.id,
    callback_url: sub.callbackUrl,
    event_type: sub.eventType,
    data_type: sub.dataType,
    expiration_time: isoWithOffset(sub.expiresAt),
  };
}

// ---- delivery engine ---------------------------------------------------------------------

export class WebhookEngine {
  private readonly timers = new Set<TimerHandle>();
  private readonly inflight = new Set<AbortController>();
  /** Delivery attempts under way (settled() waits for them). */
  private readonly attempts = new Set<Promise<void>>();
  private closed = false;
  /** Bumped by cancelAll(): attempts of an older generation neither record nor retry. */
  private generation = 0;
  private readonly now: () => number;

  constructor(
    private readonly config: EmulatorConfig,
    private readonly state: EmulatorState,
    private readonly clock: EmulatorClock,
  ) {
    this.now = clock.now;
  }

  /** Schedules notifications for data changes; matching subscriptions are chosen when the delay has passed. */
  notify(events: WebhookEvent[]): void {
    if (events.length === 0 || this.closed) return;
    this.later(this.config.webhookDelayMs, () => {
      for (const event of events) this.dispatch(event);
    });
  }

  /** Deliveries scheduled or in flight. */
  get pending(): number {
    return this.timers.size + this.inflight.size;
  }

  /** Resolves when no delivery attempt is under way (scheduled ones may remain). */
  async settled(): Promise<void> {
    while (this.attempts.size > 0) await Promise.allSettled([...this.attempts]);
  }

  /** Cancels every scheduled or running delivery (reset, close). */
  cancelAll(): void {
    this.generation++;
    for (const t of this.timers) this.clock.clearTimeout(t);
    this.timers.clear();
    for (const c of this.inflight) c.abort();
    this.inflight.clear();
  }

  close(): void {
    this.closed = true;
    this.cancelAll();
  }

  private later(ms: number, fn: () => void): void {
    const t = this.clock.setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    this.timers.add(t);
  }

  private track(p: Promise<void>): void {
    this.attempts.add(p);
    void p.finally(() => this.attempts.delete(p));
  }

  private dispatch(event: WebhookEvent): void {
    const now = this.now();
    for (const sub of this.state.subscriptions.values()) {
      if (sub.eventType !== event.event_type || sub.dataType !== event.data_type || sub.expiresAt <= now) continue;
      if (!this.state.hasLiveGrant(event.user_id, sub.clientId)) continue;
      this.track(this.attempt(sub.id, JSON.stringify(event), event, 1));
    }
  }

  private async attempt(subscriptionId: string, body: string, event: WebhookEvent, attempt: number): Promise<void> {
    if (this.closed) return;
    const sub = this.state.subscriptions.get(subscriptionId);
    const client = sub ? this.state.clients.get(sub.clientId) : undefined;
    if (!sub || !client || sub.expiresAt <= this.now()) return; // deleted or expired meanwhile: stop
    const generation = this.generation;
    const started = this.now();
    const timestamp = String(Math.floor(started / 1000));
    const controller = new AbortController();
    this.inflight.add(controller);
    const timeout = setTimeout(() => controller.abort(), CALLBACK_TIMEOUT_MS);
    let status: number | null = null;
    let error: string | null = null;
    try {
      const res = await fetch(sub.callbackUrl, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "user-agent": "ring-emulator-webhooks/1",
          "x-oura-timestamp": timestamp,
          "x-oura-signature": signWebhook(client.clientSecret, timestamp, body),
        },
        body,
        redirect: "manual",
        signal: controller.signal,
      });
      status = res.status;
      await res.arrayBuffer().catch(() => undefined);
    } catch (e) {
      const cause = e instanceof Error && e.cause instanceof Error ? `: ${e.cause.message}` : "";
      error = controller.signal.aborted ? `timeout after ${CALLBACK_TIMEOUT_MS} ms` : `${e instanceof Error ? e.message : String(e)}${cause}`;
    } finally {
      clearTimeout(timeout);
      this.inflight.delete(controller);
    }
    if (this.closed || generation !== this.generation) return; // reset or closed meanwhile
    const ok = status !== null && status >= 200 && status < 300;
    const retryable = !ok && status !== 410 && attempt <= MAX_RETRIES;
    const retryDelay = this.config.webhookRetryMs * 2 ** (attempt - 1);
    this.state.logDelivery({
      id: randomUUID(),
      subscription_id: sub.id,
      callback_url: sub.callbackUrl,
      event_type: event.event_type,
      data_type: event.data_type,
      object_id: event.object_id,
      user_id: event.user_id,
      attempt,
      status,
      error,
      ok,
      time: new Date(started).toISOString(),
      duration_ms: this.now() - started,
      next_retry_at: retryable ? new Date(this.now() + retryDelay).toISOString() : null,
    });
    if (status === 410) {
      this.state.subscriptions.delete(sub.id);
      logger.info({ subscriptionId: sub.id }, "webhook subscription cancelled by 410");
      return;
    }
    if (retryable) this.later(retryDelay, () => this.track(this.attempt(subscriptionId, body, event, attempt + 1)));
  }

  /** The verification handshake: GET callback?verification_token=…&challenge=… → 200 {"challenge": …}. */
  async verify(callbackUrl: string, verificationToken: string): Promise<{ ok: true } | { ok: false; reason: string }> {
    const challenge = randomUUID().replaceAll("-", "");
    const url = new URL(callbackUrl);
    url.searchParams.set("verification_token", verificationToken);
    url.searchParams.set("challenge", challenge);
    const controller = new AbortController();
    this.inflight.add(controller);
    const timeout = setTimeout(() => controller.abort(), CALLBACK_TIMEOUT_MS);
    try {
      const res = await fetch(url, { method: "GET", redirect: "manual", signal: controller.signal, headers: { accept: "application/json" } });
      const text = await res.text();
      if (res.status !== 200) return { ok: false, reason: `the callback answered ${res.status}` };
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return { ok: false, reason: "the callback did not answer JSON" };
      }
      const value = (parsed as { challenge?: unknown } | null)?.challenge;
      if (value !== challenge) return { ok: false, reason: "the callback did not echo the challenge" };
      return { ok: true };
    } catch (e) {
      return {
        ok: false,
        reason: controller.signal.aborted ? "the callback timed out" : `the callback could not be reached (${e instanceof Error ? e.message : String(e)})`,
      };
    } finally {
      clearTimeout(timeout);
      this.inflight.delete(controller);
    }
  }
}

// ---- subscription routes -----------------------------------------------------------------

const callbackUrl = z.string().refine((v) => {
  try {
    const u = new URL(v);
    return u.protocol === "http:" || u.protocol === "https:";
  } catch {
    return false;
  }
}, "Input should be a valid http or https URL");

const createSchema = z.object({
  callback_url: callbackUrl,
  verification_token: z.string(),
  event_type: z.enum(WEBHOOK_EVENT_TYPES),
  data_type: z.enum(WEBHOOK_DATA_TYPES),
});

const updateSchema = z.object({
  verification_token: z.string(),
  callback_url: callbackUrl.nullish(),
  event_type: z.enum(WEBHOOK_EVENT_TYPES).nullish(),
  data_type: z.enum(WEBHOOK_DATA_TYPES).nullish(),
});

/** zod issues → FastAPI/Pydantic-style ValidationError entries. */
export function toValidationIssues(error: z.ZodError, root: "body" | "query"): ValidationIssue[] {
  return error.issues.map((issue) => {
    const loc = [root, ...issue.path.map((p) => (typeof p === "number" ? p : String(p)))];
    const input = (issue as { input?: unknown }).input;
    if (issue.code === "invalid_type" && input === undefined) return { loc, msg: "Field required", type: "missing" };
    if (issue.code === "invalid_value") return { loc, msg: issue.message, type: "enum", input };
    if (issue.code === "invalid_type") return { loc, msg: issue.message, type: `${issue.expected}_type`, input };
    return { loc, msg: issue.message, type: "value_error", input };
  });
}

async function readJsonBody(req: Request): Promise<{ ok: true; value: unknown } | { ok: false; response: Response }> {
  const text = await req.text();
  if (text.trim() === "") return { ok: false, response: validationError([{ loc: ["body"], msg: "Field required", type: "missing" }]) };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    return {
      ok: false,
      response: validationError([{ loc: ["body"], msg: `JSON decode error: ${e instanceof Error ? e.message : "invalid JSON"}`, type: "json_invalid" }]),
    };
  }
}

function authenticate(ctx: EmulatorContext, req: Request): Client | null {
  const id = req.headers.get("x-client-id");
  const secret = req.headers.get("x-client-secret");
  if (!id || !secret) return null;
  return ctx.state.authenticateClient(id, secret) ?? null;
}

const NOT_FOUND = "Webhook with specified id does not exist.";

export async function handleWebhookRoute(ctx: EmulatorContext, req: Request, url: URL, meta: RequestMeta): Promise<Response> {
  meta.kind = "webhook_subscription";
  const parts = url.pathname.split("/").filter(Boolean); // v2, webhook, subscription, [renew], [id]
  const tail = parts.slice(3);
  let route: "collection" | "item" | "renew" | null = null;
  let id: string | undefined;
  if (parts[2] !== "subscription") route = null;
  else if (tail.length === 0) route = "collection";
  else if (tail.length === 1) [route, id] = ["item", tail[0]];
  else if (tail.length === 2 && tail[0] === "renew") [route, id] = ["renew", tail[1]];
  if (!route) return json({ detail: "Not Found" }, 404);
  const allowed = route === "collection" ? ["GET", "POST"] : route === "item" ? ["GET", "PUT", "DELETE"] : ["PUT"];
  if (!allowed.includes(req.method)) return json({ detail: "Method Not Allowed" }, 405, { allow: allowed.join(", ") });

  const client = authenticate(ctx, req);
  if (!client) return problem(401, "Invalid or missing x-client-id / x-client-secret.");
  meta.clientId = client.clientId;
  const now = ctx.now();

  if (route === "collection" && req.method === "GET") {
    const subs = [...ctx.state.subscriptions.values()].filter((s) => s.clientId === client.clientId).sort((a, b) => a.createdAt - b.createdAt);
    return json(subs.map(toModel));
  }
  if (route === "collection") {
    const body = await readJsonBody(req);
    if (!body.ok) return body.response;
    const parsed = createSchema.safeParse(body.value);
    if (!parsed.success) return validationError(toValidationIssues(parsed.error, "body"));
    const input = parsed.data;
    const duplicate = [...ctx.state.subscriptions.values()].find(
      (s) => s.clientId === client.clientId && s.eventType === input.event_type && s.dataType === input.data_type,
    );
    if (duplicate)
      return problem(409, `A subscription for event_type "${input.event_type}" and data_type "${input.data_type}" already exists (${duplicate.id}).`);
    const verified = await ctx.webhooks.verify(input.callback_url, input.verification_token);
    if (!verified.ok) return problem(400, `Callback verification failed: ${verified.reason}.`);
    const sub: WebhookSubscription = {
      id: randomUUID(),
      clientId: client.clientId,
      callbackUrl: input.callback_url,
      verificationToken: input.verification_token,
      eventType: input.event_type,
      dataType: input.data_type,
      expiresAt: ctx.now() + ctx.config.subscriptionTtlS * 1000,
      createdAt: now,
    };
    ctx.state.subscriptions.set(sub.id, sub);
    return json(toModel(sub), 201);
  }

  const sub = id ? ctx.state.subscriptions.get(id) : undefined;
  if (!sub || sub.clientId !== client.clientId) return problem(403, NOT_FOUND);

  if (route === "renew") {
    sub.expiresAt = now + ctx.config.subscriptionTtlS * 1000;
    return json(toModel(sub));
  }
  if (req.method === "GET") return json(toModel(sub));
  if (req.method === "DELETE") {
    ctx.state.subscriptions.delete(sub.id);
    return empty(204);
  }
  // PUT: update
  const body = await readJsonBody(req);
  if (!body.ok) return body.response;
  const parsed = updateSchema.safeParse(body.value);
  if (!parsed.success) return validationError(toValidationIssues(parsed.error, "body"));
  const input = parsed.data;
  const eventType = input.event_type ?? sub.eventType;
  const dataType = input.data_type ?? sub.dataType;
  const clash = [...ctx.state.subscriptions.values()].find(
    (s) => s.id !== sub.id && s.clientId === client.clientId && s.eventType === eventType && s.dataType === dataType,
  );
  if (clash) return problem(409, `A subscription for event_type "${eventType}" and data_type "${dataType}" already exists (${clash.id}).`);
  const newUrl = input.callback_url ?? sub.callbackUrl;
  if (newUrl !== sub.callbackUrl) {
    const verified = await ctx.webhooks.verify(newUrl, input.verification_token);
    if (!verified.ok) return problem(400, `Callback verification failed: ${verified.reason}.`);
  }
  // Re-read: the subscription may have been deleted while the handshake ran.
  if (!ctx.state.subscriptions.has(sub.id)) return problem(403, NOT_FOUND);
  sub.callbackUrl = newUrl;
  sub.eventType = eventType;
  sub.dataType = dataType;
  sub.verificationToken = input.verification_token;
  return json(toModel(sub));
}
