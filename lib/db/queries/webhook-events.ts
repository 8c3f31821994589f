import "server-only";
import type { Statement } from "better-sqlite3";
import { rawDb } from "@/lib/db";
import { toDbTime } from "@/lib/db/dialect";

// Webhook notifications as received. The receiver's hot path is one prepared
// INSERT OR IGNORE (dedupeKey unique): a duplicate changes nothing and is acknowledged.

export type WebhookEventInput = {
  dedupeKey: string;
  ringUserId: string;
  dataType: string;
  eventType: string;
  objectId: string | null;
  eventTime: string | null;
};

export type WebhookEventRow = WebhookEventInput & {
  id: number;
  receivedAt: string;
  processedAt: string | null;
  status: "queued" | "applied" | "ignored" | "failed";
  error: string | null;
};

const insertCache = new WeakMap<object, Statement>();

/** Records a notification; false when the same notification was recorded before. */
export function recordWebhookEvent(e: WebhookEventInput): boolean {
  const db = rawDb();
  let stmt = insertCache.get(db);
  if (!stmt) {
    stmt = db.prepare(
      `INSERT OR IGNORE INTO webhook_event (dedupeKey, ringUserId, dataType, eventType, objectId, eventTime, receivedAt, status)
       VALUES (@dedupeKey, @ringUserId, @dataType, @eventType, @objectId, @eventTime, @receivedAt, 'queued')`,
    );
    insertCache.set(db, stmt);
  }
  return stmt.run({ ...e, receivedAt: toDbTime(new Date()) }).changes > 0;
}

/**
 * The oldest notifications still waiting to be applied, from id `fromId` on (status has no
 * index: the caller keeps a watermark below which nothing is queued, so the scan is short).
 */
export function listQueuedWebhookEvents(limit: number, excludeIds: number[] = [], fromId = 0): WebhookEventRow[] {
  return rawDb()
    .prepare(
      `SELECT * FROM webhook_event WHERE id >= ? AND status = 'queued' AND id NOT IN (SELECT value FROM json_each(?)) ORDER BY id LIMIT ?`,
    )
    .all(fromId, JSON.stringify(excludeIds), limit) as WebhookEventRow[];
}

/** The id of the oldest queued notification from `fromId` on, or null; and the newest id of all. */
export function queuedWebhookWatermark(fromId = 0): { firstQueuedId: number | null; maxId: number } {
  const db = rawDb();
  const first = db.prepare(`SELECT id FROM webhook_event WHERE id >= ? AND status = 'queued' ORDER BY id LIMIT 1`).get(fromId) as { id: number } | undefined;
  const max = db.prepare(`SELECT MAX(id) AS id FROM webhook_event`).get() as { id: number | null };
  return { firstQueuedId: first?.id ?? null, maxId: max.id ?? 0 };
}

export function markWebhookEvent(id: number, status: "applied" | "ignored" | "failed", error?: string): void {
  rawDb()
    .prepare(`UPDATE webhook_event SET status = ?, error = ?, processedAt = ? WHERE id = ?`)
    .run(status, error?.slice(0, 500) ?? null, toDbTime(new Date()), id);
}

/** Settles many notifications at once (one transaction). */
export function markWebhookEvents(rows: Array<{ id: number; reason: string }>, status: "applied" | "ignored" | "failed"): void {
  if (rows.length === 0) return;
  const db = rawDb();
  const stmt = db.prepare(`UPDATE webhook_event SET status = ?, error = ?, processedAt = ? WHERE id = ?`);
  const now = toDbTime(new Date());
  db.transaction(() => {
    for (const r of rows) stmt.run(status, r.reason, now, r.id);
  })();
}

/** Forgets processed notifications older than `before`. */
export function pruneWebhookEvents(before: number): number {
  return rawDb().prepare(`DELETE FROM webhook_event WHERE status != 'queued' AND receivedAt < ?`).run(toDbTime(before)).changes;
}
