import "server-only";
import { dbProvider, prisma } from "@/lib/db/prisma";
import { Prisma } from "@/lib/generated/prisma/client";
import { CYCLE_RESOURCE } from "@/lib/cycle";
import { lookupText, registryRow, sqlName as n, sqlNames } from "@/lib/db/queries/registry-rows";
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
// on the (userId, day) index, through Prisma Client's tagged templates (docs/decisions/0031); table
// and column names come from the registry (lib/resources, Prisma.raw), never a request. Cells come
// back in the shapes the API has always answered with (registry-rows.ts cell). What the rows mean
// (metrics, main sleep, statistics) is lib/services/metrics.ts's business.

/** The rows of a registry read (typed by the caller's columns: the registry's tables are not Prisma Client's models). */
async function rows<T extends Record<string, unknown>>(query: Prisma.Sql): Promise<T[]> {
  return (await prisma().$queryRaw<T[]>(query)).map(registryRow);
}

async function row<T extends Record<string, unknown>>(query: Prisma.Sql): Promise<T | undefined> {
  return (await rows<T>(query))[0];
}

export type RangeOptions = { userId: string; from: string; to: string };
export type DayRow = Record<string, unknown> & { day: string };

/**
 * Tables with a `day`, the daily collections' and the sleep periods', that say a day has ring
 * data: the cycle's phases are not among them, so which days "have data" (a report's count, the
 * calendar's states and bounds) never depends on cycle data, whoever reads it.
 */
const DAY_TABLES = RING_COLLECTIONS.filter((c) => c !== CYCLE_RESOURCE).map(tableOf);

/** PostgreSQL's json_build_object takes at most 100 arguments: a wider read (none today) comes as cells. */
const MAX_JSON_COLUMNS = 50;

/**
 * Registry columns of a table's rows, in `order`. The database hands the rows over as one JSON
 * array of objects (SQLite's json_group_array, PostgreSQL's json_agg, each ordered), not as cells:
 * a chart's five years are thousands of cells, and Prisma Client's per-cell handling of a raw
 * result cost more than the read itself, in time and in memory (the trends p95, the report's peak;
 * 0031). The registry's columns are numbers, text and booleans, which JSON carries exactly (a float
 * as its shortest round-trip text on both databases); a boolean comes back as 1 or 0, as `cell`
 * gives it.
 */
async function registryRows<Row extends DayRow>(table: string, names: readonly string[], where: Prisma.Sql, order: Prisma.Sql): Promise<Row[]> {
  if (names.length > MAX_JSON_COLUMNS) return rows<Row>(Prisma.sql`SELECT ${sqlNames(names)} FROM ${n(table)} WHERE ${where} ORDER BY ${order}`);
  const db = prisma();
  // 'name', "name" pairs: the names are the registry's (never a request's), quoted as text and as identifiers
  const pairs = Prisma.raw(names.map((name) => `'${name.replaceAll("'", "''")}', "${name.replaceAll('"', '""')}"`).join(", "));
  const aggregate =
    dbProvider(db) === "postgresql"
      ? Prisma.sql`json_agg(json_build_object(${pairs}) ORDER BY ${order})::text`
      : Prisma.sql`json_group_array(json_object(${pairs}) ORDER BY ${order})`;
  const [found] = await db.$queryRaw<Array<{ j: string | null }>>(Prisma.sql`SELECT ${aggregate} AS j FROM ${n(table)} WHERE ${where}`);
  const parsed: Row[] = JSON.parse(found?.j ?? "[]");
  if (!Array.isArray(parsed)) throw new Error("a registry read did not come back as a JSON array");
  return parsed.map(registryRow);
}

const inRange = (opts: RangeOptions) => Prisma.sql`"userId" = ${opts.userId} AND day >= ${opts.from} AND day <= ${opts.to}`;

/** Columns of a daily table per day in a range, oldest first (several rows on a day: the newest last). */
export function getDailyColumns(opts: RangeOptions & { collection: DailyCollection; columns: readonly string[] }): Promise<DayRow[]> {
  return registryRows<DayRow>(tableOf(opts.collection), [...new Set(["day", ...opts.columns])], inRange(opts), Prisma.sql`day, id`);
}

/** Sleep periods in a range with `columns`, oldest first (by day, then bedtime). */
export function getSleepPeriodColumns<Row extends DayRow = DayRow>(opts: RangeOptions & { columns: ReadonlyArray<keyof Row & string> }): Promise<Row[]> {
  return registryRows<Row>(tableOf("sleep"), [...new Set(["day", ...opts.columns])], inRange(opts), Prisma.sql`day, bedtime_start, id`);
}

export type CollectionRange = { collection: SyncCollection; firstDay: string | null; lastDay: string | null; count: number };

/** First day, last day and document count (samples, for a time series: its days are UTC days) of each collection. */
export function getDataRanges(userId: string): Promise<CollectionRange[]> {
  return Promise.all(
    SYNC_COLLECTIONS.map(async (c) => {
      const count = isSeriesCollection(c) ? Prisma.sql`COALESCE(sum(count), 0)` : Prisma.sql`count(*)`;
      const r = await row<{ firstDay: string | null; lastDay: string | null; count: number }>(
        Prisma.sql`SELECT min(day) AS "firstDay", max(day) AS "lastDay", ${count} AS count FROM ${n(tableOf(c))} WHERE "userId" = ${userId}`,
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
        Prisma.sql`SELECT max(day) AS d FROM ${n(tableOf(c))} WHERE "userId" = ${userId} AND day <= ${onOrBefore ?? "9999-12-31"}`,
      );
      out[c] = r?.d ?? null;
    }),
  );
  return out;
}

/** Days in a range on which any collection has a document. */
export async function getDaysWithDocuments(opts: RangeOptions): Promise<Set<string>> {
  const parts = DAY_TABLES.map((t) => Prisma.sql`SELECT day FROM ${n(t)} WHERE "userId" = ${opts.userId} AND day >= ${opts.from} AND day <= ${opts.to}`);
  const found = await rows<{ day: string }>(Prisma.join(parts, " UNION "));
  return new Set(found.map((r) => r.day));
}

/** The newest and the oldest day that has any document, over all collections. */
export async function getDocumentDayBounds(userId: string): Promise<{ oldest: string | null; newest: string | null }> {
  const parts = DAY_TABLES.map((t) => Prisma.sql`SELECT min(day) AS lo, max(day) AS hi FROM ${n(t)} WHERE "userId" = ${userId}`);
  const r = await row<{ oldest: string | null; newest: string | null }>(
    Prisma.sql`SELECT min(lo) AS oldest, max(hi) AS newest FROM (${Prisma.join(parts, " UNION ALL ")}) AS bounds`,
  );
  return { oldest: r?.oldest ?? null, newest: r?.newest ?? null };
}

/** The newest day the sync engine reports as synced (sync_state.newestDay), if any. */
export async function getNewestSyncedDay(userId: string): Promise<string | null> {
  const r = await prisma().syncState.aggregate({ where: { userId }, _max: { newestDay: true } });
  return r._max.newestDay;
}

/** The age the person shared (personal scope), or null. */
export async function getPersonalAge(userId: string): Promise<number | null> {
  const r = await row<{ age: number | null }>(Prisma.sql`SELECT age FROM ${n(tableOf("personal_info"))} WHERE "userId" = ${userId}`);
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
      const found = await row<Record<string, unknown>>(
        Prisma.sql`SELECT * FROM ${n(tableOf(c))} WHERE "userId" = ${userId} AND day = ${day} ORDER BY id DESC LIMIT 1`,
      );
      if (found) daily[c] = withRaw(found);
    }),
  );
  const periods = (
    await rows<Record<string, unknown>>(Prisma.sql`SELECT * FROM ${n(tableOf("sleep"))} WHERE "userId" = ${userId} AND day = ${day} ORDER BY bedtime_start, id`)
  ).map(withRaw);
  // the same key order as the collections' (a fixed shape however the reads finished)
  const ordered: DayDocuments["daily"] = {};
  for (const c of DAILY_COLLECTIONS) if (daily[c]) ordered[c] = daily[c];
  return { daily: ordered, periods };
}

/** Per day in a range, the sum of a column over an event collection's documents (days without one left out). */
export function getEventDaySums(opts: RangeOptions & { collection: EventCollection; column: string }): Promise<Array<{ day: string; value: number | null }>> {
  return rows<{ day: string; value: number | null }>(
    Prisma.sql`SELECT day, SUM(${n(opts.column)}) AS value FROM ${n(tableOf(opts.collection))}
     WHERE "userId" = ${opts.userId} AND day >= ${opts.from} AND day <= ${opts.to} GROUP BY day ORDER BY day`,
  );
}

/** The days in a range that have a document of the collection. */
export async function getDocumentDays(opts: RangeOptions & { collection: RingCollection }): Promise<string[]> {
  const found = await rows<{ day: string }>(
    Prisma.sql`SELECT DISTINCT day FROM ${n(tableOf(opts.collection))}
     WHERE "userId" = ${opts.userId} AND day >= ${opts.from} AND day <= ${opts.to} ORDER BY day`,
  );
  return found.map((r) => r.day);
}

/**
 * The local timestamps of the activity documents in a range (their offset is the person's UTC
 * offset that day), plus the nearest one before and after it.
 */
export async function getActivityTimestamps(opts: RangeOptions): Promise<Array<{ day: string; timestamp: string | null }>> {
  type Stamp = { day: string; timestamp: string | null };
  const t = n(tableOf("daily_activity"));
  const [inside, before, after] = await Promise.all([
    rows<Stamp>(Prisma.sql`SELECT day, "timestamp" FROM ${t} WHERE "userId" = ${opts.userId} AND day >= ${opts.from} AND day <= ${opts.to} ORDER BY day`),
    row<Stamp>(Prisma.sql`SELECT day, "timestamp" FROM ${t} WHERE "userId" = ${opts.userId} AND day < ${opts.from} ORDER BY day DESC LIMIT 1`),
    row<Stamp>(Prisma.sql`SELECT day, "timestamp" FROM ${t} WHERE "userId" = ${opts.userId} AND day > ${opts.to} ORDER BY day LIMIT 1`),
  ]);
  return [...(before ? [before] : []), ...inside, ...(after ? [after] : [])];
}

/** Documents of a collection in a range with some of their columns (and the raw JSON), oldest first. */
/** The rows of a collection in a range with these columns (typed by the caller's row, whose keys the columns are). */
export function getDocumentRows<Row extends Record<string, unknown> = Record<string, unknown>>(
  opts: RangeOptions & { collection: RingCollection; columns: ReadonlyArray<keyof Row & string>; withRaw?: boolean },
): Promise<Array<Row & { documentId: string | null; day: string }>> {
  const cols = sqlNames([...new Set(["documentId", "day", ...opts.columns, ...(opts.withRaw ? ["raw"] : [])])]);
  return rows(
    Prisma.sql`SELECT ${cols} FROM ${n(tableOf(opts.collection))}
     WHERE "userId" = ${opts.userId} AND day >= ${opts.from} AND day <= ${opts.to} ORDER BY day, id`,
  );
}

/** One document of a collection by its id, with some columns and its raw JSON. */
export function getDocumentById(opts: {
  userId: string;
  collection: RingCollection;
  documentId: string;
  columns: readonly string[];
}): Promise<(Record<string, unknown> & { documentId: string; day: string | null; raw: string }) | undefined> {
  const cols = sqlNames([...new Set(["documentId", "day", ...opts.columns, "raw"])]);
  return row(Prisma.sql`SELECT ${cols} FROM ${n(tableOf(opts.collection))} WHERE "userId" = ${opts.userId} AND "documentId" = ${lookupText(opts.documentId)}`);
}

/** The newest document of a collection (by day; the newest stored on that day) with some columns. */
export function getNewestDocumentRow(opts: {
  userId: string;
  collection: RingCollection;
  columns: readonly string[];
}): Promise<(Record<string, unknown> & { documentId: string | null; day: string }) | undefined> {
  const cols = sqlNames([...new Set(["documentId", "day", ...opts.columns])]);
  return row(Prisma.sql`SELECT ${cols} FROM ${n(tableOf(opts.collection))} WHERE "userId" = ${opts.userId} ORDER BY day DESC, id DESC LIMIT 1`);
}

/** Rest-mode periods that overlap [from, to] (one still on has no end day). */
export function getRestModes(
  opts: RangeOptions,
): Promise<Array<{ documentId: string; day: string; end_day: string | null; start_time: string | null; end_time: string | null }>> {
  return rows(
    Prisma.sql`SELECT "documentId", day, end_day, start_time, end_time FROM ${n(tableOf("rest_mode_period"))}
     WHERE "userId" = ${opts.userId} AND day <= ${opts.to} AND (end_day IS NULL OR end_day >= ${opts.from}) ORDER BY day, id`,
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
    Prisma.sql`SELECT "documentId", hardware_type, design, color, size, firmware_version, set_up_at FROM ${n(tableOf("ring_configuration"))}
     WHERE "userId" = ${userId} ORDER BY set_up_at IS NULL, set_up_at DESC, id DESC`,
  );
}

/** The nearest days before and after `day` that have any document. */
export async function getNeighbourDays(userId: string, day: string): Promise<{ previous: string | null; next: string | null }> {
  const prev = DAY_TABLES.map((t) => Prisma.sql`SELECT max(day) AS d FROM ${n(t)} WHERE "userId" = ${userId} AND day < ${day}`);
  const next = DAY_TABLES.map((t) => Prisma.sql`SELECT min(day) AS d FROM ${n(t)} WHERE "userId" = ${userId} AND day > ${day}`);
  const [before, after] = await Promise.all([
    row<{ d: string | null }>(Prisma.sql`SELECT max(d) AS d FROM (${Prisma.join(prev, " UNION ALL ")}) AS before_day`),
    row<{ d: string | null }>(Prisma.sql`SELECT min(d) AS d FROM (${Prisma.join(next, " UNION ALL ")}) AS after_day`),
  ]);
  return { previous: before?.d ?? null, next: after?.d ?? null };
}
