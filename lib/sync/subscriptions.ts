import "server-only";
import { clock } from "@/lib/clock";
import { z } from "zod";
import { env } from "@/lib/env.mjs";
import { logger } from "@/lib/log";
import { requireSecret } from "@/lib/secrets";
import { RingWebhookAdmin } from "@/lib/ring/client";
import { RingApiError } from "@/lib/ring/errors";
import type { RingWebhookSubscription, WebhookOperation } from "@/lib/ring/schemas";
import { WEBHOOK_DATA_TYPES } from "@/lib/resources";
import { getAppSetting, setAppSetting } from "@/lib/db/queries/app-settings";
import { listWebhookSubscriptions, markWebhookSubscription, saveWebhookSubscription, type WebhookSubscriptionStatus } from "@/lib/db/queries/subscriptions";

// Webhook subscriptions at the ring service (facts §6.1, §6.4). With PUBLIC_URL set, Ringside
// holds one subscription per (event type, data type) for every data type it stores, all
// pointing at PUBLIC_URL/api/webhooks/ring, and renews each before it expires. Without
// PUBLIC_URL it holds none and polls instead.

export const WEBHOOK_EVENT_TYPES: readonly WebhookOperation[] = ["create", "update", "delete"];
/** Renew when less than this is left (the service's lifetime is about 90 days). */
export const RENEW_BEFORE_MS = 7 * 86_400_000;
/** How often the subscriptions are checked. */
export const SUBSCRIPTION_CHECK_MS = 3_600_000;
const CHECKED_AT_KEY = "webhook_subscriptions_checked_at";

export function webhookCallbackUrl(publicUrl: string | undefined = env.PUBLIC_URL): string | null {
  return publicUrl ? `${publicUrl.replace(/\/+$/, "")}/api/webhooks/ring` : null;
}

export type SubscriptionSyncResult = {
  enabled: boolean;
  created: number;
  renewed: number;
  updated: number;
  unchanged: number;
  failed: number;
};

function expiresAt(s: { expiration_time: string }): number {
  const t = Date.parse(s.expiration_time);
  return Number.isNaN(t) ? 0 : t;
}

type SyncOptions = { admin?: RingWebhookAdmin; publicUrl?: string; now?: number };

let running: Promise<SubscriptionSyncResult> | null = null;

/**
 * Makes the service's subscriptions match what Ringside needs; records each in the database.
 * One run at a time in this process (a second caller waits for the running one).
 */
export async function syncWebhookSubscriptions(opts: SyncOptions = {}): Promise<SubscriptionSyncResult> {
  while (running) await running.catch(() => undefined);
  const run = syncOnce(opts);
  running = run;
  try {
    return await run;
  } finally {
    if (running === run) running = null;
  }
}

async function syncOnce(opts: SyncOptions): Promise<SubscriptionSyncResult> {
  const result: SubscriptionSyncResult = { enabled: false, created: 0, renewed: 0, updated: 0, unchanged: 0, failed: 0 };
  const callbackUrl = webhookCallbackUrl(opts.publicUrl ?? env.PUBLIC_URL);
  if (!callbackUrl) return result;
  result.enabled = true;
  const admin = opts.admin ?? new RingWebhookAdmin();
  const verificationToken = requireSecret("webhook-verification-token");
  const now = opts.now ?? clock.now();
  const existing = await admin.list();
  const save = (s: RingWebhookSubscription, status: WebhookSubscriptionStatus = "active") =>
    saveWebhookSubscription({
      id: s.id,
      callbackUrl: s.callback_url,
      eventType: s.event_type,
      dataType: s.data_type,
      expirationTime: s.expiration_time,
      status: expiresAt(s) > now ? status : "expired",
    });

  for (const dataType of WEBHOOK_DATA_TYPES) {
    for (const eventType of WEBHOOK_EVENT_TYPES) {
      const input = { callbackUrl, verificationToken, eventType, dataType };
      const match = existing.find((s) => s.data_type === dataType && s.event_type === eventType);
      try {
        if (!match) {
          try {
            await save(await admin.create(input));
            result.created++;
          } catch (err) {
            // 409: it exists after all (made elsewhere meanwhile): adopt it, pointing at us.
            if (!(err instanceof RingApiError && err.status === 409)) throw err;
            const found = (await admin.list()).find((s) => s.data_type === dataType && s.event_type === eventType);
            if (!found) throw err;
            await save(found.callback_url === callbackUrl ? found : await admin.update(found.id, input));
            result.unchanged++;
          }
        } else if (match.callback_url !== callbackUrl) {
          await save(await admin.update(match.id, input));
          result.updated++;
        } else if (expiresAt(match) - now < RENEW_BEFORE_MS) {
          try {
            await save(await admin.renew(match.id));
            result.renewed++;
          } catch (err) {
            // 403: the subscription is gone at the service; make a new one.
            if (!(err instanceof RingApiError && err.status === 403)) throw err;
            await save(await admin.create(input));
            result.created++;
          }
        } else {
          await save(match);
          result.unchanged++;
        }
      } catch (err) {
        result.failed++;
        const message = err instanceof Error ? err.message : String(err);
        const row = (await listWebhookSubscriptions()).find((r) => r.dataType === dataType && r.eventType === eventType);
        if (row) await markWebhookSubscription(row.id, "error", message);
        else
          await saveWebhookSubscription({
            id: `pending:${eventType}:${dataType}`,
            callbackUrl,
            eventType,
            dataType,
            expirationTime: new Date(0).toISOString(),
            status: "error",
            lastError: message,
          });
        logger.warn({ dataType, eventType, status: err instanceof RingApiError ? err.status : null }, "webhook subscription could not be set up");
      }
    }
  }
  await setAppSetting(CHECKED_AT_KEY, { at: now });
  logger.info({ ...result }, "webhook subscriptions checked");
  return result;
}

/** When the subscriptions were last checked (ms epoch), if ever. */
export async function subscriptionsCheckedAt(): Promise<number | null> {
  return (await getAppSetting(CHECKED_AT_KEY, z.object({ at: z.number() })))?.at ?? null;
}

export type WebhookOverview = {
  /** "off": no PUBLIC_URL, polling only */
  mode: "off" | "active" | "partial" | "pending";
  callbackUrl: string | null;
  active: number;
  expected: number;
  nextExpiry: string | null;
  errors: Array<{ dataType: string; eventType: string; error: string | null }>;
};

/** What the settings page shows about webhooks. */
export async function webhookOverview(now = clock.now()): Promise<WebhookOverview> {
  const callbackUrl = webhookCallbackUrl();
  const expected = WEBHOOK_DATA_TYPES.length * WEBHOOK_EVENT_TYPES.length;
  if (!callbackUrl) return { mode: "off", callbackUrl: null, active: 0, expected, nextExpiry: null, errors: [] };
  const rows = await listWebhookSubscriptions();
  const live = rows.filter((r) => r.status === "active" && Date.parse(r.expirationTime) > now && r.callbackUrl === callbackUrl);
  const errors = rows.filter((r) => r.status !== "active").map((r) => ({ dataType: r.dataType, eventType: r.eventType, error: r.lastError }));
  const nextExpiry = live.map((r) => r.expirationTime).sort()[0] ?? null;
  const mode = rows.length === 0 ? "pending" : live.length >= expected ? "active" : "partial";
  return { mode, callbackUrl, active: live.length, expected, nextExpiry, errors };
}

/** True when every data type's changes reach us by webhook (polling can slow down). */
export async function webhooksActive(now = clock.now()): Promise<boolean> {
  return (await webhookOverview(now)).mode === "active";
}
