import "server-only";
import { clock } from "@/lib/clock";
import { all, get, query, run, sqlDialect, transaction, type Work } from "@/lib/db/sql";
import { ident, inJsonArray, toDbTime, upsertSql } from "@/lib/db/dialect";
import { countOf, decodeColumns, decodeDay, encodeDay, mergeSamples, type Sample, type SampleColumns } from "@/lib/db/sample-codec";
import { sampleSpecOf, tableOf, type SeriesCollection } from "@/lib/resources";
import { insertRejected, type CollectionSummary, type RejectedInput } from "@/lib/db/queries/ring-documents";
import { bumpDataVersionWork as bumpDataVersion } from "@/lib/db/queries/data-version";

// The time-series tables (heart rate, ring battery): one row per person and UTC day, the day's
// samples packed (lib/db/sample-codec.ts). A page of samples is merged into the days it
// touches (read, merge by instant and key, write back), a step of the transaction the sync
// engine commits with its checkpoint; a re-checked window replaces its days with exactly what
// the service sent. Two merges into one day (two processes after a lease lapsed, an import beside
// a sync) take turns: the day is locked before it is read (mergeDay).

const t = (c: SeriesCollection) => ident(tableOf(c));

const COLUMNS = ["userId", "day", "count", "samples", "syncedAt"] as const;

const upsertOf = (c: SeriesCollection) => upsertSql({ table: tableOf(c), columns: COLUMNS, conflict: ["userId", "day"] });

/** Inserts a day unless it exists (then changes nothing: 0 rows). */
const insertNewOf = (c: SeriesCollection) =>
  `INSERT INTO ${t(c)} (${COLUMNS.map(ident).join(", ")}) VALUES (?, ?, ?, ?, ?) ON CONFLICT(${ident("userId")}, ${ident("day")}) DO NOTHING`;

/** Writes a day's samples (`packed`: them packed, when the caller has it); true when they differ from what was stored (the data version moves then). */
function* upsertDay(
  collection: SeriesCollection,
  userId: string,
  day: string,
  samples: readonly Sample[],
  syncedAt: string,
  stored: Buffer | null,
  packed = encodeDay(sampleSpecOf(collection), day, samples),
): Work<boolean> {
  yield* run(upsertOf(collection), userId, day, samples.length, packed, syncedAt);
  return !stored || !stored.equals(packed);
}

/** The day's stored samples, packed (null when the day has none). */
function* storedBlob(collection: SeriesCollection, userId: string, day: string): Work<Buffer | null> {
  const row = yield* get<{ samples: Buffer }>(`SELECT samples FROM ${t(collection)} WHERE userId = ? AND day = ?`, userId, day);
  return row?.samples ?? null;
}

/**
 * The day's stored samples, packed, for a merge that writes them back: no other merge may write
 * the day between this read and the end of the transaction, or one of the two pages is lost.
 * - SQLite: a plain read. The transaction is IMMEDIATE (lib/db/sql.ts): it holds the file's one
 *   write lock from its start, so no other connection writes anything until it ends.
 * - PostgreSQL: `FOR UPDATE` locks the day's row until the transaction ends; another merge into
 *   the day waits at its own read and then reads what this one wrote (READ COMMITTED: the newest
 *   row). A day with no row yet has nothing to lock: mergeDay inserts it only if it is still missing.
 */
function* lockedBlob(collection: SeriesCollection, userId: string, day: string): Work<Buffer | null> {
  const read = `SELECT samples FROM ${t(collection)} WHERE userId = ? AND day = ?`;
  const sql = { sqlite: read, postgres: `${read} FOR UPDATE` }[yield* sqlDialect()];
  const row = yield* get<{ samples: Buffer }>(sql, userId, day);
  return row?.samples ?? null;
}

/** Reads of a new day a merge makes at most (a day inserted and deleted by others between them each time is read again). */
const NEW_DAY_READS = 3;

/**
 * Merges samples into one stored day, locked (lockedBlob). A day that had no row is inserted only
 * if it is still missing: on PostgreSQL, when another transaction inserted it meanwhile, the
 * insert waits for that one to commit and inserts nothing; the day is then read again, locked,
 * and merged into. Returns the samples now stored on the day and whether they changed.
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
    const before = yield* lockedBlob(collection, userId, day);
    const merged = mergeSamples(spec, before ? decodeDay(spec, day, before) : [], samples);
    const packed = encodeDay(spec, day, merged);
    if (before) {
      if (skipUnchanged && before.equals(packed)) return { stored: merged.length, changed: false };
      return { stored: merged.length, changed: yield* upsertDay(collection, userId, day, merged, syncedAt, before, packed) };
    }
    if ((yield* run(insertNewOf(collection), userId, day, merged.length, packed, syncedAt)) > 0) return { stored: merged.length, changed: true };
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
 * step of the caller's transaction (the sync engine commits it with its checkpoint). Returns the
 * samples now stored on the touched days.
 */
export function* sampleDaysMerge(opts: SampleDaysOptions): Work<number> {
  const syncedAt = toDbTime(clock.date());
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

/** `sampleDaysMerge` in a transaction of its own. */
export function mergeSampleDays(opts: SampleDaysOptions): Promise<number> {
  return transaction(() => sampleDaysMerge(opts));
}

export type ReplaceDaysOptions = { collection: SeriesCollection; userId: string; fromDay: string; toDay: string; days: ReadonlyMap<string, readonly Sample[]> };

/**
 * After the UTC days [fromDay, toDay] were fetched completely: each becomes exactly the samples
 * given for it (a sample the service no longer has is gone; a day without any is deleted), as a
 * step of the caller's transaction. Returns how many stored samples were removed.
 */
export function* sampleDaysReplace(opts: ReplaceDaysOptions): Work<number> {
  const spec = sampleSpecOf(opts.collection);
  const syncedAt = toDbTime(clock.date());
  let removed = 0;
  let changed = false;
  const rows = yield* all<{ day: string; count: number }>(
    `SELECT day, count FROM ${t(opts.collection)} WHERE userId = ? AND day >= ? AND day <= ?`,
    opts.userId,
    opts.fromDay,
    opts.toDay,
  );
  for (const r of rows) {
    const fresh = opts.days.get(r.day);
    if (!fresh || fresh.length === 0) {
      yield* run(`DELETE FROM ${t(opts.collection)} WHERE userId = ? AND day = ?`, opts.userId, r.day);
      removed += r.count;
      changed = true;
    } else removed += Math.max(0, r.count - fresh.length);
  }
  for (const [day, samples] of opts.days) {
    if (day < opts.fromDay || day > opts.toDay || samples.length === 0) continue;
    const before = yield* storedBlob(opts.collection, opts.userId, day);
    if (yield* upsertDay(opts.collection, opts.userId, day, mergeSamples(spec, [], samples), syncedAt, before)) changed = true;
  }
  if (changed) yield* bumpDataVersion(opts.userId);
  return removed;
}

/** `sampleDaysReplace` in a transaction of its own. */
export function replaceSampleDays(opts: ReplaceDaysOptions): Promise<number> {
  return transaction(() => sampleDaysReplace(opts));
}

/**
 * What merging these samples (grouped by UTC day) would change, without writing: the days
 * whose stored samples would differ (new samples, or new values at a stored instant), and how
 * many samples are not stored yet.
 */
export async function diffSampleDays(opts: {
  collection: SeriesCollection;
  userId: string;
  days: ReadonlyMap<string, readonly Sample[]>;
}): Promise<{ new: number; changedDays: Map<string, readonly Sample[]> }> {
  const spec = sampleSpecOf(opts.collection);
  let fresh = 0;
  const changedDays = new Map<string, readonly Sample[]>();
  for (const [day, samples] of opts.days) {
    const blob = await query(storedBlob(opts.collection, opts.userId, day));
    const before = blob ? decodeDay(spec, day, blob) : [];
    const merged = mergeSamples(spec, before, samples);
    fresh += merged.length - before.length;
    if (!blob || !blob.equals(encodeDay(spec, day, merged))) changedDays.set(day, samples);
  }
  return { new: fresh, changedDays };
}

/** How many samples are stored on these UTC days. */
export async function storedDayCounts(collection: SeriesCollection, userId: string, days: readonly string[]): Promise<number> {
  if (days.length === 0) return 0;
  const row = await query(
    get<{ n: number }>(`SELECT COALESCE(SUM(count), 0) AS n FROM ${t(collection)} WHERE userId = ? AND ${inJsonArray("day")}`, userId, JSON.stringify(days)),
  );
  return Number(row?.n ?? 0);
}

export type StoredSeriesDay = { day: string; columns: SampleColumns };

/** The stored UTC days in [fromDay, toDay], oldest first, decoded into columns. */
export async function readSampleDays(opts: { collection: SeriesCollection; userId: string; fromDay: string; toDay: string }): Promise<StoredSeriesDay[]> {
  const spec = sampleSpecOf(opts.collection);
  const rows = await query(
    all<{ day: string; samples: Buffer }>(
      `SELECT day, samples FROM ${t(opts.collection)} WHERE userId = ? AND day >= ? AND day <= ? ORDER BY day`,
      opts.userId,
      opts.fromDay,
      opts.toDay,
    ),
  );
  return rows.map((r) => ({ day: r.day, columns: decodeColumns(spec, r.day, r.samples) }));
}

/** One page of a person's stored days (export, checks), oldest first, after the day `after`. */
export async function readSamplePage(opts: {
  collection: SeriesCollection;
  userId: string;
  fromDay?: string;
  toDay?: string;
  after: string | null;
  limit: number;
}): Promise<{ days: Array<{ day: string; samples: Sample[] }>; next: string | null }> {
  const spec = sampleSpecOf(opts.collection);
  const rows = await query(
    all<{ day: string; samples: Buffer }>(
      `SELECT day, samples FROM ${t(opts.collection)} WHERE userId = ? AND day > ? AND day >= ? AND day <= ? ORDER BY day LIMIT ?`,
      opts.userId,
      opts.after ?? "",
      opts.fromDay ?? "",
      opts.toDay ?? "9999-12-31",
      opts.limit,
    ),
  );
  const days = rows.map((r) => ({ day: r.day, samples: decodeDay(spec, r.day, r.samples) }));
  return { days, next: rows.length === opts.limit ? rows[rows.length - 1]!.day : null };
}

/** Samples stored, and the oldest and newest day, of a person's series (a step of a transaction too). */
export function* seriesSummaryOf(collection: SeriesCollection, userId: string): Work<CollectionSummary> {
  const r = yield* get<CollectionSummary>(
    `SELECT COALESCE(SUM(count), 0) AS documents, MAX(day) AS newestDay, MIN(day) AS oldestDay FROM ${t(collection)} WHERE userId = ?`,
    userId,
  );
  return { documents: Number(r?.documents ?? 0), newestDay: r?.newestDay ?? null, oldestDay: r?.oldestDay ?? null };
}

/** Samples stored, and the oldest and newest day, of a person's series. */
export function seriesSummary(collection: SeriesCollection, userId: string): Promise<CollectionSummary> {
  return query(seriesSummaryOf(collection, userId));
}

/** The newest stored sample of a person's series (its instant and fields), if any. */
export async function latestSample(collection: SeriesCollection, userId: string): Promise<{ t: number; fields: Record<string, unknown> } | null> {
  const row = await query(
    get<{ day: string; samples: Buffer }>(`SELECT day, samples FROM ${t(collection)} WHERE userId = ? ORDER BY day DESC LIMIT 1`, userId),
  );
  if (!row || countOf(row.samples) === 0) return null;
  const cols = decodeColumns(sampleSpecOf(collection), row.day, row.samples);
  const i = cols.t.length - 1;
  return { t: cols.t[i]!, fields: Object.fromEntries(Object.entries(cols.fields).map(([k, v]) => [k, v[i]])) };
}
