import "server-only";
import { clock } from "@/lib/clock";
import { all, get, processDatabase, run, type Database, type Work } from "@/lib/db/sql";
import { toDbTime } from "@/lib/db/dialect";
import { processSingleton } from "@/lib/process-singleton";

// Webhook notifications as received. The receiver's hot path is one prepared insert that
// ignores a duplicate (dedupeKey unique): a duplicate changes nothing and is acknowledged.
// One contract (`WebhookEventStore`), one implementation on lib/db/sql.ts, held to the same
// tests on both databases (lib/db/queries/webhook-events.test.ts).

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

export type SettledStatus = "applied" | "ignored" | "failed";

export interface WebhookEventStore {
  /** Records a notification; false when the same notification was recorded before. */
  record(e: WebhookEventInput): Promise<boolean>;
  /**
   * The oldest notifications still waiting to be applied, from id `fromId` on (status has no
   * index: the caller keeps a watermark below which nothing is queued, so the scan is short).
   */
  listQueued(limit: number, excludeIds?: number[], fromId?: number): Promise<WebhookEventRow[]>;
  /** The id of the oldest queued notification from `fromId` on, or null; and the newest id of all. */
  watermark(fromId?: number): Promise<{ firstQueuedId: number | null; maxId: number }>;
  mark(id: number, status: SettledStatus, error?: string): Promise<void>;
  /** Settles many notifications at once (one statement or transaction). */
  markMany(rows: Array<{ id: number; reason: string }>, status: SettledStatus): Promise<void>;
  /** Forgets processed notifications received before `before`. */
  prune(before: number): Promise<number>;
}

const INSERT = `INSERT OR IGNORE INTO webhook_event (dedupeKey, ringUserId, dataType, eventType, objectId, eventTime, receivedAt, status)
  VALUES (?, ?, ?, ?, ?, ?, ?, 'queued')`;

/** The inbox on a database (by default the process's). */
export function webhookEventStore(db: Database = processDatabase()): WebhookEventStore {
  const q = <T>(work: Work<T>) => db.query(work);
  return {
    async record(e) {
      return (await q(run(INSERT, e.dedupeKey, e.ringUserId, e.dataType, e.eventType, e.objectId, e.eventTime, toDbTime(clock.date())))) > 0;
    },

    listQueued(limit, excludeIds = [], fromId = 0) {
      return db.dialect === "postgres"
        ? q(
            all<WebhookEventRow>(
              `SELECT * FROM webhook_event WHERE id >= ? AND status = 'queued' AND NOT (id = ANY(CAST(? AS int[]))) ORDER BY id LIMIT ?`,
              fromId,
              excludeIds,
              limit,
            ),
          )
        : q(
            all<WebhookEventRow>(
              `SELECT * FROM webhook_event WHERE id >= ? AND status = 'queued' AND id NOT IN (SELECT value FROM json_each(?)) ORDER BY id LIMIT ?`,
              fromId,
              JSON.stringify(excludeIds),
              limit,
            ),
          );
    },

    async watermark(fromId = 0) {
      const row = await q(
        get<{ first: number | null; max: number | null }>(
          `SELECT (SELECT id FROM webhook_event WHERE id >= ? AND status = 'queued' ORDER BY id LIMIT 1) AS first,
                  (SELECT MAX(id) FROM webhook_event) AS max`,
          fromId,
        ),
      );
      return { firstQueuedId: row?.first ?? null, maxId: row?.max ?? 0 };
    },

    async mark(id, status, error) {
      await q(
        run(`UPDATE webhook_event SET status = ?, error = ?, processedAt = ? WHERE id = ?`, status, error?.slice(0, 500) ?? null, toDbTime(clock.date()), id),
      );
    },

    async markMany(rows, status) {
      if (rows.length === 0) return;
      const now = toDbTime(clock.date());
      if (db.dialect === "postgres") {
        // one statement for the lot
        await q(
          run(
            `UPDATE webhook_event AS w SET status = ?, error = v.reason, processedAt = ?
               FROM unnest(CAST(? AS int[]), CAST(? AS text[])) AS v(id, reason) WHERE w.id = v.id`,
            status,
            now,
            rows.map((r) => r.id),
            rows.map((r) => r.reason.slice(0, 500)),
          ),
        );
        return;
      }
      await db.transaction(function* () {
        for (const r of rows)
          yield* run(`UPDATE webhook_event SET status = ?, error = ?, processedAt = ? WHERE id = ?`, status, r.reason.slice(0, 500), now, r.id);
      });
    },

    prune(before) {
      return q(run(`DELETE FROM webhook_event WHERE status <> 'queued' AND receivedAt < ?`, toDbTime(before)));
    },
  };
}

// The process's inbox.
const store = (): WebhookEventStore => processSingleton("webhookEventStore", () => webhookEventStore());

export const recordWebhookEvent = (e: WebhookEventInput) => store().record(e);
export const listQueuedWebhookEvents = (limit: number, excludeIds?: number[], fromId?: number) => store().listQueued(limit, excludeIds, fromId);
export const queuedWebhookWatermark = (fromId?: number) => store().watermark(fromId);
export const markWebhookEvent = (id: number, status: SettledStatus, error?: string) => store().mark(id, status, error);
export const markWebhookEvents = (rows: Array<{ id: number; reason: string }>, status: SettledStatus) => store().markMany(rows, status);
export const pruneWebhookEvents = (before: number) => store().prune(before);
