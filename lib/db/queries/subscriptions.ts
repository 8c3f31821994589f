import "server-only";
import { rawDb } from "@/lib/db";
import { toDbTime } from "@/lib/db/dialect";

// Webhook subscriptions Ringside holds at the ring service (one per event type × data type).

export type WebhookSubscriptionRow = {
  id: string;
  callbackUrl: string;
  eventType: string;
  dataType: string;
  expirationTime: string;
  status: "active" | "expired" | "error";
  lastError: string | null;
  updatedAt: string;
};

export function listWebhookSubscriptions(): WebhookSubscriptionRow[] {
  return rawDb().prepare(`SELECT * FROM webhook_subscription ORDER BY dataType, eventType`).all() as WebhookSubscriptionRow[];
}

/** Saves what the service answered for one (event type, data type) pair. */
export function saveWebhookSubscription(s: Omit<WebhookSubscriptionRow, "updatedAt" | "lastError"> & { lastError?: string | null }): void {
  const db = rawDb();
  db.transaction(() => {
    db.prepare(`DELETE FROM webhook_subscription WHERE eventType = ? AND dataType = ? AND id != ?`).run(s.eventType, s.dataType, s.id);
    db.prepare(
      `INSERT INTO webhook_subscription (id, callbackUrl, eventType, dataType, expirationTime, status, lastError, updatedAt)
       VALUES (@id, @callbackUrl, @eventType, @dataType, @expirationTime, @status, @lastError, @updatedAt)
       ON CONFLICT(id) DO UPDATE SET callbackUrl = excluded.callbackUrl, eventType = excluded.eventType, dataType = excluded.dataType,
         expirationTime = excluded.expirationTime, status = excluded.status, lastError = excluded.lastError, updatedAt = excluded.updatedAt`,
    ).run({ ...s, lastError: s.lastError ?? null, updatedAt: toDbTime(new Date()) });
  })();
}

export function markWebhookSubscription(id: string, status: WebhookSubscriptionRow["status"], lastError: string | null): void {
  rawDb()
    .prepare(`UPDATE webhook_subscription SET status = ?, lastError = ?, updatedAt = ? WHERE id = ?`)
    .run(status, lastError?.slice(0, 500) ?? null, toDbTime(new Date()), id);
}
