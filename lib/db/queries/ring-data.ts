import "server-only";
import { all, get, query, type SqlValue } from "@/lib/db/sql";
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
// on the (userId, day) index through a prepared statement (lib/db/sql.ts) (the trends API must stay
// within a small factor of a raw read of the same rows, so nothing here goes through
// Prisma). Table and column names come from the registry (lib/resources), never a request.
// What the rows mean (metrics, main sleep, statistics) is lib/services/metrics.ts's business.

const rows = <T>(sql: string, ...params: SqlValue[]): Promise<T[]> => query(all<T>(sql, ...params));
const row = <T>(sql: string, ...params: SqlValue[]): Promise<T | undefined> => query(get<T>(sql, ...params));

export type RangeOptions = { userId: string; from: string; to: string };
export type DayRow = Record<string, unknown> & { day: string };

/** Tables with a `day`, the daily collections' and the sleep periods'. */
const DAY_TABLES = RING_COLLECTIONS.map(tableOf);

/** Columns of a daily table per day in a range, oldest first (several rows on a day: the newest last). */
export function getDailyColumns(opts: RangeOptions & { collection: DailyCollection; columns: readonly string[] }): Promise<DayRow[]> {
  return rows<DayRow>(
    `SELECT day, ${opts.columns.map(ident).join(", ")} FROM ${ident(tableOf(opts.collection))} WHERE userId = ? AND day >= ? AND day <= ? ORDER BY day, id`,
    opts.userId,
    opts.from,
    opts.to,
  );
}

/** Sleep periods in a range with `columns`, oldest first (by day, then bedtime). */
export function getSleepPeriodColumns<Row extends DayRow = DayRow>(opts: RangeOptions & { columns: ReadonlyArray<keyof Row & string> }): Promise<Row[]> {
  return rows<Row>(
    `SELECT ${[...new Set(["day", ...opts.columns])].map(ident).join(", ")} FROM ${ident(tableOf("sleep"))}
     WHERE userId = ? AND day >= ? AND day <= ? ORDER BY day, bedtime_start, id`,
    opts.userId,
    opts.from,
    opts.to,
  );
}

export type CollectionRange = { collection: SyncCollection; firstDay: string | null; lastDay: string | null; count: number };

/** First day, last day and document count (samples, for a time series: its days are UTC days) of each collection. */
export function getDataRanges(userId: string): Promise<CollectionRange[]> {
  return Promise.all(
    SYNC_COLLECTIONS.map(async (c) => {
      const count = isSeriesCollection(c) ? "COALESCE(sum(count), 0)" : "count(*)";
      const r = await row<{ firstDay: string | null; lastDay: string | null; count: number }>(
        `SELECT min(day) AS firstDay, max(day) AS lastDay, ${count} AS count FROM ${ident(tableOf(c))} WHERE userId = ?`,
        userId,
      );
      return { collection: c, firstDay: r?.firstDay ?? null, lastDay: r?.lastDay ?? null, count: Number(r?.count ?? 0) };
    }),
  );
}

/** Each collection's newest day on or before `onOrBefore` (all days when omitted). */
export async function getLatestDays(userId: string, onOrBefore?: string): Promise<Partial<Record<SyncCollection, string | null>>> {
  const out: Partial<Record<SyncCollection, string | null>> = {};
  await Promise.all(
    SYNC_COLLECTIONS.map(async (c) => {
      const r = await row<{ d: string | null }>(
        `SELECT max(day) AS d FROM ${ident(tableOf(c))} WHERE userId = ? AND day <= ?`,
        userId,
        onOrBefore ?? "9999-12-31",
      );
      out[c] = r?.d ?? null;
    }),
  );
  return out;
}

/** Days in a range on which any collection has a document. */
export async function getDaysWithDocuments(opts: RangeOptions): Promise<Set<string>> {
  const parts = DAY_TABLES.map((t) => `SELECT day FROM ${ident(t)} WHERE userId = ? AND day >= ? AND day <= ?`);
  const found = await rows<{ day: string }>(parts.join(" UNION "), ...parts.flatMap(() => [opts.userId, opts.from, opts.to]));
  return new Set(found.map((r) => r.day));
}

/** The newest and the oldest day that has any document, over all collections. */
export async function getDocumentDayBounds(userId: string): Promise<{ oldest: string | null; newest: string | null }> {
  const parts = DAY_TABLES.map((t) => `SELECT min(day) AS lo, max(day) AS hi FROM ${ident(t)} WHERE userId = ?`);
  const r = await row<{ oldest: string | null; newest: string | null }>(
    `SELECT min(lo) AS oldest, max(hi) AS newest FROM (${parts.join(" UNION ALL ")}) AS bounds`,
    ...parts.map(() => userId),
  );
  return { oldest: r?.oldest ?? null, newest: r?.newest ?? null };
}

/** The newest day the sync engine reports as synced (sync_state.newestDay), if any. */
export async function getNewestSyncedDay(userId: string): Promise<string | null> {
  const r = await row<{ d: string | null }>(`SELECT max(newestDay) AS d FROM sync_state WHERE userId = ?`, userId);
  return r?.d ?? null;
}

/** The age the person shared (personal scope), or null. */
export async function getPersonalAge(userId: string): Promise<number | null> {
  const r = await row<{ age: number | null }>(`SELECT age FROM ${ident(tableOf("personal_info"))} WHERE userId = ?`, userId);
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
export async function getDayDocuments(userId: string, day: string): Promise<DayDocuments> {
  const daily: DayDocuments["daily"] = {};
  await Promise.all(
    DAILY_COLLECTIONS.map(async (c) => {
      const found = await row<Record<string, unknown>>(`SELECT * FROM ${ident(tableOf(c))} WHERE userId = ? AND day = ? ORDER BY id DESC LIMIT 1`, userId, day);
      if (found) daily[c] = withRaw(found);
    }),
  );
  const periods = (
    await rows<Record<string, unknown>>(`SELECT * FROM ${ident(tableOf("sleep"))} WHERE userId = ? AND day = ? ORDER BY bedtime_start, id`, userId, day)
  ).map(withRaw);
  // the same key order as the collections' (a fixed shape however the reads finished)
  const ordered: DayDocuments["daily"] = {};
  for (const c of DAILY_COLLECTIONS) if (daily[c]) ordered[c] = daily[c];
  return { daily: ordered, periods };
}

/** Per day in a range, the sum of a column over an event collection's documents (days without one left out). */
export function getEventDaySums(opts: RangeOptions & { collection: EventCollection; column: string }): Promise<Array<{ day: string; value: number | null }>> {
  return rows<{ day: string; value: number | null }>(
    `SELECT day, SUM(${ident(opts.column)}) AS value FROM ${ident(tableOf(opts.collection))}
     WHERE userId = ? AND day >= ? AND day <= ? GROUP BY day ORDER BY day`,
    opts.userId,
    opts.from,
    opts.to,
  );
}

/** The days in a range that have a document of the collection. */
export async function getDocumentDays(opts: RangeOptions & { collection: RingCollection }): Promise<string[]> {
  const found = await rows<{ day: string }>(
    `SELECT DISTINCT day FROM ${ident(tableOf(opts.collection))} WHERE userId = ? AND day >= ? AND day <= ? ORDER BY day`,
    opts.userId,
    opts.from,
    opts.to,
  );
  return found.map((r) => r.day);
}

/**
 * The local timestamps of the activity documents in a range (their offset is the person's UTC
 * offset that day), plus the nearest one before and after it.
 */
export async function getActivityTimestamps(opts: RangeOptions): Promise<Array<{ day: string; timestamp: string | null }>> {
  type Stamp = { day: string; timestamp: string | null };
  const t = ident(tableOf("daily_activity"));
  const [inside, before, after] = await Promise.all([
    rows<Stamp>(`SELECT day, "timestamp" FROM ${t} WHERE userId = ? AND day >= ? AND day <= ? ORDER BY day`, opts.userId, opts.from, opts.to),
    row<Stamp>(`SELECT day, "timestamp" FROM ${t} WHERE userId = ? AND day < ? ORDER BY day DESC LIMIT 1`, opts.userId, opts.from),
    row<Stamp>(`SELECT day, "timestamp" FROM ${t} WHERE userId = ? AND day > ? ORDER BY day LIMIT 1`, opts.userId, opts.to),
  ]);
  return [...(before ? [before] : []), ...inside, ...(after ? [after] : [])];
}

/** Documents of a collection in a range with some of their columns (and the raw JSON), oldest first. */
/** The rows of a collection in a range with these columns (typed by the caller's row, whose keys the columns are). */
export function getDocumentRows<Row extends Record<string, unknown> = Record<string, unknown>>(
  opts: RangeOptions & { collection: RingCollection; columns: ReadonlyArray<keyof Row & string>; withRaw?: boolean },
): Promise<Array<Row & { documentId: string | null; day: string }>> {
  const cols = [...new Set(["documentId", "day", ...opts.columns, ...(opts.withRaw ? ["raw"] : [])])].map(ident).join(", ");
  return rows(
    `SELECT ${cols} FROM ${ident(tableOf(opts.collection))} WHERE userId = ? AND day >= ? AND day <= ? ORDER BY day, id`,
    opts.userId,
    opts.from,
    opts.to,
  );
}

/** One document of a collection by its id, with some columns and its raw JSON. */
export function getDocumentById(opts: {
  userId: string;
  collection: RingCollection;
  documentId: string;
  columns: readonly string[];
}): Promise<(Record<string, unknown> & { documentId: string; day: string | null; raw: string }) | undefined> {
  const cols = [...new Set(["documentId", "day", ...opts.columns, "raw"])].map(ident).join(", ");
  return row(`SELECT ${cols} FROM ${ident(tableOf(opts.collection))} WHERE userId = ? AND documentId = ?`, opts.userId, opts.documentId);
}

/** The newest document of a collection (by day; the newest stored on that day) with some columns. */
export function getNewestDocumentRow(opts: {
  userId: string;
  collection: RingCollection;
  columns: readonly string[];
}): Promise<(Record<string, unknown> & { documentId: string | null; day: string }) | undefined> {
  const cols = [...new Set(["documentId", "day", ...opts.columns])].map(ident).join(", ");
  return row(`SELECT ${cols} FROM ${ident(tableOf(opts.collection))} WHERE userId = ? ORDER BY day DESC, id DESC LIMIT 1`, opts.userId);
}

/** Rest-mode periods that overlap [from, to] (one still on has no end day). */
export function getRestModes(
  opts: RangeOptions,
): Promise<Array<{ documentId: string; day: string; end_day: string | null; start_time: string | null; end_time: string | null }>> {
  return rows(
    `SELECT documentId, day, end_day, start_time, end_time FROM ${ident(tableOf("rest_mode_period"))}
     WHERE userId = ? AND day <= ? AND (end_day IS NULL OR end_day >= ?) ORDER BY day, id`,
    opts.userId,
    opts.to,
    opts.from,
  );
}

/** The person's rings (ring_configuration), newest set-up first (one without a set-up time last). */
export function getRings(userId: string): Promise<
  Array<{
    documentId: string;
    hardware_type: string | null;
    design: string | null;
    color: string | null;
    size: number | null;
    firmware_version: string | null;
    set_up_at: string | null;
  }>
> {
  return rows(
    `SELECT documentId, hardware_type, design, color, size, firmware_version, set_up_at FROM ${ident(tableOf("ring_configuration"))}
     WHERE userId = ? ORDER BY set_up_at IS NULL, set_up_at DESC, id DESC`,
    userId,
  );
}

/** The nearest days before and after `day` that have any document. */
export async function getNeighbourDays(userId: string, day: string): Promise<{ previous: string | null; next: string | null }> {
  const prev = DAY_TABLES.map((t) => `SELECT max(day) AS d FROM ${ident(t)} WHERE userId = ? AND day < ?`);
  const next = DAY_TABLES.map((t) => `SELECT min(day) AS d FROM ${ident(t)} WHERE userId = ? AND day > ?`);
  const args = DAY_TABLES.flatMap(() => [userId, day]);
  const [p, n] = await Promise.all([
    row<{ d: string | null }>(`SELECT max(d) AS d FROM (${prev.join(" UNION ALL ")}) AS before_day`, ...args),
    row<{ d: string | null }>(`SELECT min(d) AS d FROM (${next.join(" UNION ALL ")}) AS after_day`, ...args),
  ]);
  return { previous: p?.d ?? null, next: n?.d ?? null };
}
