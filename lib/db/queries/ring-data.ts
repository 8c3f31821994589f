import "server-only";
import type Database from "better-sqlite3";
import { rawDb } from "@/lib/db";
import { ident } from "@/lib/db/dialect";
import {
  DAILY_COLLECTIONS,
  isSeriesCollection,
  RING_COLLECTIONS,
  SYNC_COLLECTIONS,
  tableOf,
  type DailyCollection,
  type EventCollection,
  type RingCollection,
  type SyncCollection,
} from "@/lib/resources";

// Reads of the ring data for charts and pages: rows in, rows out. Every query is a range scan
// on the (userId, day) index through a cached prepared statement (the trends API must stay
// within a small factor of a raw SQLite read of the same rows, so nothing here goes through
// Prisma). Table and column names come from the registry (lib/resources), never a request.
// What the rows mean (metrics, main sleep, statistics) is lib/services/metrics.ts's business.

const cache = new WeakMap<Database.Database, Map<string, Database.Statement>>();

function stmt(sql: string): Database.Statement {
  const db = rawDb();
  let m = cache.get(db);
  if (!m) {
    m = new Map();
    cache.set(db, m);
  }
  let s = m.get(sql);
  if (!s) {
    s = db.prepare(sql);
    m.set(sql, s);
  }
  return s;
}

export type RangeOptions = { userId: string; from: string; to: string };
export type DayRow = Record<string, unknown> & { day: string };

/** Tables with a `day`, the daily collections' and the sleep periods'. */
const DAY_TABLES = RING_COLLECTIONS.map(tableOf);

/** Columns of a daily table per day in a range, oldest first (several rows on a day: the newest last). */
export function getDailyColumns(opts: RangeOptions & { collection: DailyCollection; columns: readonly string[] }): DayRow[] {
  return stmt(
    `SELECT day, ${opts.columns.map(ident).join(", ")} FROM ${ident(tableOf(opts.collection))} WHERE userId = ? AND day >= ? AND day <= ? ORDER BY day, id`,
  ).all(opts.userId, opts.from, opts.to) as DayRow[];
}

/** Sleep periods in a range with `columns`, oldest first (by day, then bedtime). */
export function getSleepPeriodColumns(opts: RangeOptions & { columns: readonly string[] }): DayRow[] {
  return stmt(
    `SELECT ${[...new Set(["day", ...opts.columns])].map(ident).join(", ")} FROM ${ident(tableOf("sleep"))} WHERE userId = ? AND day >= ? AND day <= ? ORDER BY day, bedtime_start, id`,
  ).all(opts.userId, opts.from, opts.to) as DayRow[];
}

export type CollectionRange = { collection: SyncCollection; firstDay: string | null; lastDay: string | null; count: number };

/** First day, last day and document count (samples, for a time series: its days are UTC days) of each collection. */
export function getDataRanges(userId: string): CollectionRange[] {
  return SYNC_COLLECTIONS.map((c) => {
    const count = isSeriesCollection(c) ? "COALESCE(sum(count), 0)" : "count(*)";
    const r = stmt(`SELECT min(day) AS firstDay, max(day) AS lastDay, ${count} AS count FROM ${ident(tableOf(c))} WHERE userId = ?`).get(userId) as {
      firstDay: string | null;
      lastDay: string | null;
      count: number;
    };
    return { collection: c, firstDay: r.firstDay, lastDay: r.lastDay, count: Number(r.count) };
  });
}

/** Each collection's newest day on or before `onOrBefore` (all days when omitted). */
export function getLatestDays(userId: string, onOrBefore?: string): Partial<Record<SyncCollection, string | null>> {
  const out: Partial<Record<SyncCollection, string | null>> = {};
  for (const c of SYNC_COLLECTIONS) {
    const r = stmt(`SELECT max(day) AS d FROM ${ident(tableOf(c))} WHERE userId = ? AND day <= ?`).get(userId, onOrBefore ?? "9999-12-31") as { d: string | null };
    out[c] = r.d;
  }
  return out;
}

/** Days in a range on which any collection has a document. */
export function getDaysWithDocuments(opts: RangeOptions): Set<string> {
  const parts = DAY_TABLES.map((t) => `SELECT day FROM ${ident(t)} WHERE userId = ? AND day >= ? AND day <= ?`);
  const rows = stmt(parts.join(" UNION ")).all(...parts.flatMap(() => [opts.userId, opts.from, opts.to])) as Array<{ day: string }>;
  return new Set(rows.map((r) => r.day));
}

/** The newest and the oldest day that has any document, over all collections. */
export function getDocumentDayBounds(userId: string): { oldest: string | null; newest: string | null } {
  const parts = DAY_TABLES.map((t) => `SELECT min(day) AS lo, max(day) AS hi FROM ${ident(t)} WHERE userId = ?`);
  const r = stmt(`SELECT min(lo) AS oldest, max(hi) AS newest FROM (${parts.join(" UNION ALL ")})`).get(...parts.map(() => userId)) as {
    oldest: string | null;
    newest: string | null;
  };
  return r;
}

/** The newest day the sync engine reports as synced (sync_state.newestDay), if any. */
export function getNewestSyncedDay(userId: string): string | null {
  const r = stmt(`SELECT max(newestDay) AS d FROM sync_state WHERE userId = ?`).get(userId) as { d: string | null } | undefined;
  return r?.d ?? null;
}

/** The age the person shared (personal scope), or null. */
export function getPersonalAge(userId: string): number | null {
  const r = stmt(`SELECT age FROM ${ident(tableOf("personal_info"))} WHERE userId = ?`).get(userId) as { age: number | null } | undefined;
  return r?.age ?? null;
}

export type StoredDocument = { row: Record<string, unknown>; raw: unknown };
export type DayDocuments = { daily: Partial<Record<DailyCollection, StoredDocument>>; periods: StoredDocument[] };

function withRaw(row: Record<string, unknown>): StoredDocument {
  let raw: unknown = null;
  if (typeof row.raw === "string") {
    try {
      raw = JSON.parse(row.raw);
    } catch {
      raw = null;
    }
  }
  delete row.raw;
  return { row, raw };
}

/** Every document of one day: the newest of each daily collection and all sleep periods. */
export function getDayDocuments(userId: string, day: string): DayDocuments {
  const daily: DayDocuments["daily"] = {};
  for (const c of DAILY_COLLECTIONS) {
    const row = stmt(`SELECT * FROM ${ident(tableOf(c))} WHERE userId = ? AND day = ? ORDER BY id DESC LIMIT 1`).get(userId, day) as Record<string, unknown> | undefined;
    if (row) daily[c] = withRaw(row);
  }
  const periods = (stmt(`SELECT * FROM ${ident(tableOf("sleep"))} WHERE userId = ? AND day = ? ORDER BY bedtime_start, id`).all(userId, day) as Array<Record<string, unknown>>).map(withRaw);
  return { daily, periods };
}

/** Per day in a range, the sum of a column over an event collection's documents (days without one left out). */
export function getEventDaySums(opts: RangeOptions & { collection: EventCollection; column: string }): Array<{ day: string; value: number | null }> {
  return stmt(
    `SELECT day, SUM(${ident(opts.column)}) AS value FROM ${ident(tableOf(opts.collection))} WHERE userId = ? AND day >= ? AND day <= ? GROUP BY day ORDER BY day`,
  ).all(opts.userId, opts.from, opts.to) as Array<{ day: string; value: number | null }>;
}

/** The days in a range that have a document of the collection. */
export function getDocumentDays(opts: RangeOptions & { collection: RingCollection }): string[] {
  return (stmt(`SELECT DISTINCT day FROM ${ident(tableOf(opts.collection))} WHERE userId = ? AND day >= ? AND day <= ? ORDER BY day`).all(opts.userId, opts.from, opts.to) as Array<{ day: string }>).map(
    (r) => r.day,
  );
}

/**
 * The local timestamps of the activity documents in a range (their offset is the person's UTC
 * offset that day), plus the nearest one before and after it.
 */
export function getActivityTimestamps(opts: RangeOptions): Array<{ day: string; timestamp: string | null }> {
  const t = ident(tableOf("daily_activity"));
  const inside = stmt(`SELECT day, timestamp FROM ${t} WHERE userId = ? AND day >= ? AND day <= ? ORDER BY day`).all(opts.userId, opts.from, opts.to) as Array<{ day: string; timestamp: string | null }>;
  const before = stmt(`SELECT day, timestamp FROM ${t} WHERE userId = ? AND day < ? ORDER BY day DESC LIMIT 1`).get(opts.userId, opts.from) as { day: string; timestamp: string | null } | undefined;
  const after = stmt(`SELECT day, timestamp FROM ${t} WHERE userId = ? AND day > ? ORDER BY day LIMIT 1`).get(opts.userId, opts.to) as { day: string; timestamp: string | null } | undefined;
  return [...(before ? [before] : []), ...inside, ...(after ? [after] : [])];
}

/** Documents of a collection in a range with some of their columns (and the raw JSON), oldest first. */
export function getDocumentRows(opts: RangeOptions & { collection: RingCollection; columns: readonly string[]; withRaw?: boolean }): Array<Record<string, unknown> & { documentId: string | null; day: string }> {
  const cols = [...new Set(["documentId", "day", ...opts.columns, ...(opts.withRaw ? ["raw"] : [])])].map(ident).join(", ");
  return stmt(`SELECT ${cols} FROM ${ident(tableOf(opts.collection))} WHERE userId = ? AND day >= ? AND day <= ? ORDER BY day, id`).all(opts.userId, opts.from, opts.to) as Array<
    Record<string, unknown> & { documentId: string | null; day: string }
  >;
}

/** One document of a collection by its id, with some columns and its raw JSON. */
export function getDocumentById(opts: { userId: string; collection: RingCollection; documentId: string; columns: readonly string[] }): (Record<string, unknown> & { documentId: string; day: string | null; raw: string }) | undefined {
  const cols = [...new Set(["documentId", "day", ...opts.columns, "raw"])].map(ident).join(", ");
  return stmt(`SELECT ${cols} FROM ${ident(tableOf(opts.collection))} WHERE userId = ? AND documentId = ?`).get(opts.userId, opts.documentId) as
    | (Record<string, unknown> & { documentId: string; day: string | null; raw: string })
    | undefined;
}

/** Rest-mode periods that overlap [from, to] (one still on has no end day). */
export function getRestModes(opts: RangeOptions): Array<{ documentId: string; day: string; end_day: string | null; start_time: string | null; end_time: string | null }> {
  return stmt(
    `SELECT documentId, day, end_day, start_time, end_time FROM ${ident(tableOf("rest_mode_period"))} WHERE userId = ? AND day <= ? AND (end_day IS NULL OR end_day >= ?) ORDER BY day, id`,
  ).all(opts.userId, opts.to, opts.from) as Array<{ documentId: string; day: string; end_day: string | null; start_time: string | null; end_time: string | null }>;
}

/** The person's rings (ring_configuration), newest set-up first. */
export function getRings(userId: string): Array<{ documentId: string; hardware_type: string | null; design: string | null; color: string | null; size: number | null; firmware_version: string | null; set_up_at: string | null }> {
  return stmt(
    `SELECT documentId, hardware_type, design, color, size, firmware_version, set_up_at FROM ${ident(tableOf("ring_configuration"))} WHERE userId = ? ORDER BY set_up_at DESC, id DESC`,
  ).all(userId) as Array<{ documentId: string; hardware_type: string | null; design: string | null; color: string | null; size: number | null; firmware_version: string | null; set_up_at: string | null }>;
}

/** The nearest days before and after `day` that have any document. */
export function getNeighbourDays(userId: string, day: string): { previous: string | null; next: string | null } {
  const prev = DAY_TABLES.map((t) => `SELECT max(day) AS d FROM ${ident(t)} WHERE userId = ? AND day < ?`);
  const next = DAY_TABLES.map((t) => `SELECT min(day) AS d FROM ${ident(t)} WHERE userId = ? AND day > ?`);
  const args = DAY_TABLES.flatMap(() => [userId, day]);
  const p = stmt(`SELECT max(d) AS d FROM (${prev.join(" UNION ALL ")})`).get(...args) as { d: string | null };
  const n = stmt(`SELECT min(d) AS d FROM (${next.join(" UNION ALL ")})`).get(...args) as { d: string | null };
  return { previous: p.d, next: n.d };
}
