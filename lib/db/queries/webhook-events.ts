import "server-only";
import { clock } from "@/lib/clock";
import type Database from "better-sqlite3";
import { rawDb } from "@/lib/db";
import { postgresWebhookEventStore } from "@/lib/db/queries/webhook-events-postgres";
import { dialect, postgresPool } from "@/lib/db/sql";
import { toDbTime } from "@/lib/db/dialect";
import { processSingleton } from "@/lib/process-singleton";

// Webhook notifications as received. The receiver's hot path is one prepared insert that
// ignores a duplicate (dedupeKey unique): a duplicate changes nothing and is acknowledged.
// One contract (`WebhookEventStore`), one implementation per database: SQLite's below,
// PostgreSQL's in webhook-events-postgres.ts, held to the same tests
// (lib/db/queries/webhook-events.test.ts).

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

/** SQLite: prepared statements on the hot paths' connection (`rawDb()`). */
export function sqliteWebhookEventStore(open: () => Database.Database = rawDb): WebhookEventStore {
  const insertCache = new WeakMap<object, Database.Statement>();
  return {
    async record(e) {
      const db = open();
      let stmt = insertCache.get(db);
      if (!stmt) {
        stmt = db.prepare(
          `INSERT OR IGNORE INTO webhook_event (dedupeKey, ringUserId, dataType, eventType, objectId, eventTime, receivedAt, status)
       VALUES (@dedupeKey, @ringUserId, @dataType, @eventType, @objectId, @eventTime, @receivedAt, 'queued')`,
        );
        insertCache.set(db, stmt);
      }
      return stmt.run({ ...e, receivedAt: toDbTime(clock.date()) }).changes > 0;
    },

    async listQueued(limit, excludeIds = [], fromId = 0) {
      return open()
        .prepare(
          `SELECT * FROM webhook_event WHERE id >= ? AND status = 'queued' AND id NOT IN (SELECT value FROM json_each(?)) ORDER BY id LIMIT ?`,
        )
        .all(fromId, JSON.stringify(excludeIds), limit) as WebhookEventRow[];
    },

    async watermark(fromId = 0) {
      const db = open();
      const first = db.prepare(`SELECT id FROM webhook_event WHERE id >= ? AND status = 'queued' ORDER BY id LIMIT 1`).get(fromId) as { id: number } | undefined;
      const max = db.prepare(`SELECT MAX(id) AS id FROM webhook_event`).get() as { id: number | null };
      return { firstQueuedId: first?.id ?? null, maxId: max.id ?? 0 };
    },

    async mark(id, status, error) {
      open()
        .prepare(`UPDATE webhook_event SET status = ?, error = ?, processedAt = ? WHERE id = ?`)
        .run(status, error?.slice(0, 500) ?? null, toDbTime(clock.date()), id);
    },

    async markMany(rows, status) {
      if (rows.length === 0) return;
      const db = open();
      const stmt = db.prepare(`UPDATE webhook_event SET status = ?, error = ?, processedAt = ? WHERE id = ?`);
      const now = toDbTime(clock.date());
      db.transaction(() => {
        for (const r of rows) stmt.run(status, r.reason.slice(0, 500), now, r.id);
      })();
    },

    async prune(before) {
      return open().prepare(`DELETE FROM webhook_event WHERE status != 'queued' AND receivedAt < ?`).run(toDbTime(before)).changes;
    },
  };
}

// The process's inbox (on the database the process runs on: SQLite here, PostgreSQL in webhook-events-postgres.ts).
const store = (): WebhookEventStore => processSingleton("webhookEventStore", () => (dialect() === "postgres" ? postgresWebhookEventStore(postgresPool()) : sqliteWebhookEventStore()));

export const recordWebhookEvent = (e: WebhookEventInput) => store().record(e);
export const listQueuedWebhookEvents = (limit: number, excludeIds?: number[], fromId?: number) => store().listQueued(limit, excludeIds, fromId);
export const queuedWebhookWatermark = (fromId?: number) => store().watermark(fromId);
export const markWebhookEvent = (id: number, status: SettledStatus, error?: string) => store().mark(id, status, error);
export const markWebhookEvents = (rows: Array<{ id: number; reason: string }>, status: SettledStatus) => store().markMany(rows, status);
export const pruneWebhookEvents = (before: number) => store().prune(before);
