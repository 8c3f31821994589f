import "server-only";
import { clock } from "@/lib/clock";
import { decodeDay, encodeDay, mergeSamples, type Sample } from "@/lib/db/sample-codec";
import { sampleSpecOf, SERIES_COLLECTIONS, tableOf, type SeriesCollection } from "@/lib/resources";
import { all, dbTime, get, ident, ingestTransaction, run, statement, type Statement, type Work } from "./driver";
import { bumpDataVersion } from "./fence";
import { insertRejected, type CollectionSummary, type RejectedInput } from "./documents";

// The time-series tables (heart rate, ring battery): one row per person and UTC day, the day's
// samples packed (lib/db/sample-codec.ts). A page of samples is merged into the days it touches
// (read, merge by instant and key, write back), a step of the transaction the sync engine commits
// with its checkpoint; a re-checked window replaces its days with exactly what the service sent.
// Two merges into one day (two processes after a lease lapsed, an import beside a sync) take
// turns: the day is locked before it is read (mergeDay). The reads for pages and exports are
// Prisma Client's (lib/db/queries/time-series.ts).

type SeriesStatements = {
  read: Statement;
  lockedRead: Statement;
  upsert: Statement;
  insertNew: Statement;
  daysIn: Statement;
  deleteDay: Statement;
  summary: Statement;
};

function seriesStatements(collection: SeriesCollection): SeriesStatements {
  const table = tableOf(collection);
  const t = ident(table);
  const read = { sqlite: `SELECT samples FROM ${t} WHERE "userId" = ? AND day = ?`, postgres: `SELECT samples FROM ${t} WHERE "userId" = $1 AND day = $2` };
  const insert = `INSERT INTO ${t} ("userId", day, count, samples, "syncedAt")`;
  const replace = `ON CONFLICT("userId", day) DO UPDATE SET count = excluded.count, samples = excluded.samples, "syncedAt" = excluded."syncedAt"`;
  return {
    read: statement(`read_${table}`, read),
    // SQLite: a plain read. The transaction is IMMEDIATE (./driver.ts): it holds the file's one
    // write lock from its start, so no other connection writes anything until it ends.
    // PostgreSQL: FOR UPDATE locks the day's row until the transaction ends; another merge into the
    // day waits at its own read and then reads what this one wrote (READ COMMITTED: the newest row).
    lockedRead: statement(`locked_read_${table}`, { sqlite: read.sqlite, postgres: `${read.postgres} FOR UPDATE` }),
    upsert: statement(`upsert_${table}`, {
      sqlite: `${insert} VALUES (?, ?, ?, ?, ?) ${replace}`,
      postgres: `${insert} VALUES ($1, $2, $3, $4, $5) ${replace}`,
    }),
    // inserts a day unless it exists (then changes nothing: 0 rows)
    insertNew: statement(`insert_new_${table}`, {
      sqlite: `${insert} VALUES (?, ?, ?, ?, ?) ON CONFLICT("userId", day) DO NOTHING`,
      postgres: `${insert} VALUES ($1, $2, $3, $4, $5) ON CONFLICT("userId", day) DO NOTHING`,
    }),
    daysIn: statement(`days_in_${table}`, {
      sqlite: `SELECT day, count FROM ${t} WHERE "userId" = ? AND day >= ? AND day <= ?`,
      postgres: `SELECT day, count FROM ${t} WHERE "userId" = $1 AND day >= $2 AND day <= $3`,
    }),
    deleteDay: statement(`delete_day_${table}`, {
      sqlite: `DELETE FROM ${t} WHERE "userId" = ? AND day = ?`,
      postgres: `DELETE FROM ${t} WHERE "userId" = $1 AND day = $2`,
    }),
    summary: statement(`summary_${table}`, {
      sqlite: `SELECT COALESCE(SUM(count), 0) AS documents, MAX(day) AS "newestDay", MIN(day) AS "oldestDay" FROM ${t} WHERE "userId" = ?`,
      postgres: `SELECT COALESCE(SUM(count), 0) AS documents, MAX(day) AS "newestDay", MIN(day) AS "oldestDay" FROM ${t} WHERE "userId" = $1`,
    }),
  };
}

const STATEMENTS = new Map(SERIES_COLLECTIONS.map((c) => [c, seriesStatements(c)]));
const st = (c: SeriesCollection) => STATEMENTS.get(c)!;

/** Writes a day's samples (`packed`: them packed); true when they differ from what was stored (the data version moves then). */
function* upsertDay(
  collection: SeriesCollection,
  userId: string,
  day: string,
  count: number,
  syncedAt: string,
  stored: Uint8Array | null,
  packed: Buffer,
): Work<boolean> {
  yield* run(st(collection).upsert, userId, day, count, packed, syncedAt);
  return !stored || !packed.equals(stored);
}

/** The day's stored samples, packed (null when the day has none); `locked` for a merge that writes them back. */
function* storedBlob(collection: SeriesCollection, userId: string, day: string, locked: boolean): Work<Buffer | null> {
  const row = yield* get<{ samples: Buffer }>(locked ? st(collection).lockedRead : st(collection).read, userId, day);
  return row?.samples ?? null;
}

/** Reads of a new day a merge makes at most (a day inserted and deleted by others between them each time is read again). */
const NEW_DAY_READS = 3;

/**
 * Merges samples into one stored day, locked. A day that had no row is inserted only if it is
 * still missing: on PostgreSQL, when another transaction inserted it meanwhile, the insert waits
 * for that one to commit and inserts nothing; the day is then read again, locked, and merged
 * into. Returns the samples now stored on the day and whether they changed.
 */
function* mergeDay(
  collection: SeriesCollection,
  userId: string,
  day: string,
  samples: readonly Sample[],
  syncedAt: string,
  skipUnchanged: boolean,
): Work<{ stored: number; changed: boolean }> {
  const spec = sampleSpecOf(collection);
  for (let read = 1; ; read++) {
    const before = yield* storedBlob(collection, userId, day, true);
    const merged = mergeSamples(spec, before ? decodeDay(spec, day, before) : [], samples);
    const packed = encodeDay(spec, day, merged);
    if (before) {
      if (skipUnchanged && before.equals(packed)) return { stored: merged.length, changed: false };
      return { stored: merged.length, changed: yield* upsertDay(collection, userId, day, merged.length, syncedAt, before, packed) };
    }
    if ((yield* run(st(collection).insertNew, userId, day, merged.length, packed, syncedAt)) > 0) return { stored: merged.length, changed: true };
    if (read >= NEW_DAY_READS) throw new Error(`the ${collection} day ${day} was inserted and removed by others ${read} times during one merge`);
  }
}

export type SampleDaysOptions = {
  collection: SeriesCollection;
  userId: string;
  days: ReadonlyMap<string, readonly Sample[]>;
  rejected?: readonly RejectedInput[];
  /** leave a day whose samples do not change as it is, its sync time too (an import again changes nothing) */
  skipUnchanged?: boolean;
};

/**
 * Merges samples (grouped by UTC day) into the stored days and sets rejected rows aside, as a
 * step of the page's transaction. Returns the samples now stored on the touched days.
 */
export function* sampleDaysMerge(opts: SampleDaysOptions): Work<number> {
  const syncedAt = dbTime(clock.date());
  let stored = 0;
  let changed = false;
  // days in order, so two merges lock their common days in the same order (no deadlock)
  for (const day of [...opts.days.keys()].sort()) {
    const r = yield* mergeDay(opts.collection, opts.userId, day, opts.days.get(day)!, syncedAt, opts.skipUnchanged ?? false);
    stored += r.stored;
    if (r.changed) changed = true;
  }
  yield* insertRejected(opts.userId, opts.collection, opts.rejected ?? []);
  // samples the store had already (a re-read window) change no answer
  if (changed) yield* bumpDataVersion(opts.userId);
  return stored;
}

/** `sampleDaysMerge` in a transaction of its own (an import). */
export function mergeSampleDays(opts: SampleDaysOptions): Promise<number> {
  return ingestTransaction(() => sampleDaysMerge(opts));
}

export type ReplaceDaysOptions = { collection: SeriesCollection; userId: string; fromDay: string; toDay: string; days: ReadonlyMap<string, readonly Sample[]> };

/**
 * After the UTC days [fromDay, toDay] were fetched completely: each becomes exactly the samples
 * given for it (a sample the service no longer has is gone; a day without any is deleted), as a
 * step of the page's transaction. Returns how many stored samples were removed.
 */
export function* sampleDaysReplace(opts: ReplaceDaysOptions): Work<number> {
  const spec = sampleSpecOf(opts.collection);
  const syncedAt = dbTime(clock.date());
  let removed = 0;
  let changed = false;
  const rows = yield* all<{ day: string; count: number | string }>(st(opts.collection).daysIn, opts.userId, opts.fromDay, opts.toDay);
  for (const r of rows) {
    const fresh = opts.days.get(r.day);
    if (!fresh || fresh.length === 0) {
      yield* run(st(opts.collection).deleteDay, opts.userId, r.day);
      removed += Number(r.count);
      changed = true;
    } else removed += Math.max(0, Number(r.count) - fresh.length);
  }
  for (const [day, samples] of opts.days) {
    if (day < opts.fromDay || day > opts.toDay || samples.length === 0) continue;
    const before = yield* storedBlob(opts.collection, opts.userId, day, false);
    const merged = mergeSamples(spec, [], samples);
    if (yield* upsertDay(opts.collection, opts.userId, day, merged.length, syncedAt, before, encodeDay(spec, day, merged))) changed = true;
  }
  if (changed) yield* bumpDataVersion(opts.userId);
  return removed;
}

/** Samples stored, and the oldest and newest day, of a person's series, read in the page's transaction (a finished backfill's totals). */
export function* seriesSummaryOf(collection: SeriesCollection, userId: string): Work<CollectionSummary> {
  const r = yield* get<{ documents: number | string; newestDay: string | null; oldestDay: string | null }>(st(collection).summary, userId);
  return { documents: Number(r?.documents ?? 0), newestDay: r?.newestDay ?? null, oldestDay: r?.oldestDay ?? null };
}
