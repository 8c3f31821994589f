// Webhooks' delivery engine (delay, HMAC signature, retries with doubling backoff, 410 cancels,
// every attempt recorded) and the verification handshake; the subscription routes that use them
// are webhook-routes.ts.
import { createHmac, randomUUID } from "node:crypto";
import type { EmulatorClock } from "./clock";
import type { EmulatorConfig } from "./config";
import type { EmulatorState } from "./store";
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

// ---- delivery engine ---------------------------------------------------------------------

export class WebhookEngine {
  private readonly timers = new Set<number>();
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
    for (const t of this.timers) this.clock.cancel(t);
    this.timers.clear();
    for (const c of this.inflight) c.abort();
    this.inflight.clear();
  }

  close(): void {
    this.closed = true;
    this.cancelAll();
  }

  private later(ms: number, fn: () => void): void {
    const t = this.clock.schedule(() => {
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
