import "server-only";
import { clock } from "@/lib/clock";
import type pg from "pg";
import { toDbTime } from "@/lib/db/dialect";
import type { WebhookEventRow, WebhookEventStore } from "@/lib/db/queries/webhook-events";

// The webhook inbox on PostgreSQL (the contract and SQLite's form are in webhook-events.ts).

export function postgresWebhookEventStore(pool: pg.Pool): WebhookEventStore {
  return {
    async record(e) {
      const res = await pool.query(
        `INSERT INTO webhook_event ("dedupeKey", "ringUserId", "dataType", "eventType", "objectId", "eventTime", "receivedAt", status)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 'queued') ON CONFLICT ("dedupeKey") DO NOTHING`,
        [e.dedupeKey, e.ringUserId, e.dataType, e.eventType, e.objectId, e.eventTime, toDbTime(clock.date())],
      );
      return (res.rowCount ?? 0) > 0;
    },

    async listQueued(limit, excludeIds = [], fromId = 0) {
      const res = await pool.query<WebhookEventRow>(
        `SELECT * FROM webhook_event WHERE id >= $1 AND status = 'queued' AND NOT (id = ANY($2::int[])) ORDER BY id LIMIT $3`,
        [fromId, excludeIds, limit],
      );
      return res.rows;
    },

    async watermark(fromId = 0) {
      const res = await pool.query<{ first: number | null; max: number | null }>(
        `SELECT (SELECT id FROM webhook_event WHERE id >= $1 AND status = 'queued' ORDER BY id LIMIT 1) AS first,
                (SELECT MAX(id) FROM webhook_event) AS max`,
        [fromId],
      );
      const row = res.rows[0];
      return { firstQueuedId: row?.first ?? null, maxId: row?.max ?? 0 };
    },

    async mark(id, status, error) {
      await pool.query(`UPDATE webhook_event SET status = $2, error = $3, "processedAt" = $4 WHERE id = $1`, [
        id,
        status,
        error?.slice(0, 500) ?? null,
        toDbTime(clock.date()),
      ]);
    },

    async markMany(rows, status) {
      if (rows.length === 0) return;
      await pool.query(
        `UPDATE webhook_event AS w SET status = $1, error = v.reason, "processedAt" = $2
           FROM unnest($3::int[], $4::text[]) AS v(id, reason) WHERE w.id = v.id`,
        [status, toDbTime(clock.date()), rows.map((r) => r.id), rows.map((r) => r.reason.slice(0, 500))],
      );
    },

    async prune(before) {
      const res = await pool.query(`DELETE FROM webhook_event WHERE status <> 'queued' AND "receivedAt" < $1`, [toDbTime(before)]);
      return res.rowCount ?? 0;
    },
  };
}
