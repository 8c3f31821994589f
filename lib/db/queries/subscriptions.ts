import "server-only";
import { clock } from "@/lib/clock";
import { all, query, run, transaction } from "@/lib/db/sql";
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

export function listWebhookSubscriptions(): Promise<WebhookSubscriptionRow[]> {
  return query(all<WebhookSubscriptionRow>(`SELECT * FROM webhook_subscription ORDER BY dataType, eventType`));
}

/** Saves what the service answered for one (event type, data type) pair. */
export function saveWebhookSubscription(s: Omit<WebhookSubscriptionRow, "updatedAt" | "lastError"> & { lastError?: string | null }): Promise<void> {
  return transaction(function* () {
    yield* run(`DELETE FROM webhook_subscription WHERE eventType = ? AND dataType = ? AND id != ?`, s.eventType, s.dataType, s.id);
    yield* run(
      `INSERT INTO webhook_subscription (id, callbackUrl, eventType, dataType, expirationTime, status, lastError, updatedAt)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(id) DO UPDATE SET callbackUrl = excluded.callbackUrl, eventType = excluded.eventType, dataType = excluded.dataType,
         expirationTime = excluded.expirationTime, status = excluded.status, lastError = excluded.lastError, updatedAt = excluded.updatedAt`,
      s.id,
      s.callbackUrl,
      s.eventType,
      s.dataType,
      s.expirationTime,
      s.status,
      s.lastError ?? null,
      toDbTime(clock.date()),
    );
  });
}

export async function markWebhookSubscription(id: string, status: WebhookSubscriptionRow["status"], lastError: string | null): Promise<void> {
  await query(
    run(
      `UPDATE webhook_subscription SET status = ?, lastError = ?, updatedAt = ? WHERE id = ?`,
      status,
      lastError?.slice(0, 500) ?? null,
      toDbTime(clock.date()),
      id,
    ),
  );
}
