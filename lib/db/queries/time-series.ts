import "server-only";
import type Database from "better-sqlite3";
import { rawDb } from "@/lib/db";
import { ident, toDbTime, upsertSql } from "@/lib/db/dialect";
import { countOf, decodeColumns, decodeDay, encodeDay, mergeSamples, type Sample, type SampleColumns } from "@/lib/db/sample-codec";
import { sampleSpecOf, tableOf, type SeriesCollection } from "@/lib/resources";
import type { RejectedInput } from "@/lib/db/queries/ring-documents";
import { bumpDataVersion } from "@/lib/db/queries/data-version";

// The time-series tables (heart rate, ring battery): one row per person and UTC day, the day's
// samples packed (lib/db/sample-codec.ts). A page of samples is merged into the days it
// touches (read, merge by instant and key, write back) in one transaction with its
// checkpoint; a re-checked window replaces its days with exactly what the service sent.

const cache = new WeakMap<Database.Database, Map<string, Database.Statement>>();

function stmt(sql: string): Database.Statement {
  const db = rawDb();
  let m = cache.get(db);
  if (!m) cache.set(db, (m = new Map()));
  let s = m.get(sql);
  if (!s) m.set(sql, (s = db.prepare(sql)));
  return s;
}

const t = (c: SeriesCollection) => ident(tableOf(c));

/** Writes a day's samples; true when they differ from what was stored (the data version moves then). */
function upsertDay(collection: SeriesCollection, userId: string, day: string, samples: readonly Sample[], syncedAt: string, stored: Buffer | null): boolean {
  const packed = encodeDay(sampleSpecOf(collection), day, samples);
  stmt(upsertSql({ table: tableOf(collection), columns: ["userId", "day", "count", "samples", "syncedAt"], conflict: ["userId", "day"] })).run({
    userId,
    day,
    count: samples.length,
    samples: packed,
    syncedAt,
  });
  return !stored || !stored.equals(packed);
}

/** The day's stored samples, packed (null when the day has none). */
function storedBlob(collection: SeriesCollection, userId: string, day: string): Buffer | null {
  const row = stmt(`SELECT samples FROM ${t(collection)} WHERE userId = ? AND day = ?`).get(userId, day) as { samples: Buffer } | undefined;
  return row?.samples ?? null;
}

function insertRejected(userId: string, collection: SeriesCollection, rejected: readonly RejectedInput[]): void {
  if (rejected.length === 0) return;
  const ins = stmt(`INSERT INTO rejected_document (userId, collection, documentId, day, raw, error, seenAt) VALUES (?, ?, ?, ?, ?, ?, ?)`);
  const now = toDbTime(new Date());
  for (const r of rejected) ins.run(userId, collection, r.documentId, r.day, r.raw.slice(0, 65_536), r.error, now);
}

/**
 * Merges samples (grouped by UTC day) into the stored days, sets rejected rows aside and runs
 * `inTransaction` (the checkpoint), all in one transaction. Returns the samples now stored on
 * the touched days.
 */
export function mergeSampleDays(opts: {
  collection: SeriesCollection;
  userId: string;
  days: ReadonlyMap<string, readonly Sample[]>;
  rejected?: readonly RejectedInput[];
  inTransaction?: () => void;
}): number {
  const spec = sampleSpecOf(opts.collection);
  const syncedAt = toDbTime(new Date());
  return rawDb()
    .transaction(() => {
      let stored = 0;
      let changed = false;
      for (const [day, samples] of opts.days) {
        const before = storedBlob(opts.collection, opts.userId, day);
        const merged = mergeSamples(spec, before ? decodeDay(spec, day, before) : [], samples);
        if (upsertDay(opts.collection, opts.userId, day, merged, syncedAt, before)) changed = true;
        stored += merged.length;
      }
      insertRejected(opts.userId, opts.collection, opts.rejected ?? []);
      // samples the store had already (a re-read window) change no answer
      if (changed) bumpDataVersion(opts.userId);
      opts.inTransaction?.();
      return stored;
    })
    .immediate();
}

/**
 * After the UTC days [fromDay, toDay] were fetched completely: each becomes exactly the samples
 * given for it (a sample the service no longer has is gone; a day without any is deleted).
 * Returns how many stored samples were removed.
 */
export function replaceSampleDays(opts: { collection: SeriesCollection; userId: string; fromDay: string; toDay: string; days: ReadonlyMap<string, readonly Sample[]> }): number {
  const spec = sampleSpecOf(opts.collection);
  const syncedAt = toDbTime(new Date());
  return rawDb()
    .transaction(() => {
      let removed = 0;
      let changed = false;
      const rows = stmt(`SELECT day, count FROM ${t(opts.collection)} WHERE userId = ? AND day >= ? AND day <= ?`).all(opts.userId, opts.fromDay, opts.toDay) as Array<{ day: string; count: number }>;
      for (const r of rows) {
        const fresh = opts.days.get(r.day);
        if (!fresh || fresh.length === 0) {
          stmt(`DELETE FROM ${t(opts.collection)} WHERE userId = ? AND day = ?`).run(opts.userId, r.day);
          removed += r.count;
          changed = true;
        } else removed += Math.max(0, r.count - fresh.length);
      }
      for (const [day, samples] of opts.days) {
        if (day < opts.fromDay || day > opts.toDay || samples.length === 0) continue;
        if (upsertDay(opts.collection, opts.userId, day, mergeSamples(spec, [], samples), syncedAt, storedBlob(opts.collection, opts.userId, day))) changed = true;
      }
      if (changed) bumpDataVersion(opts.userId);
      return removed;
    })
    .immediate();
}

export type StoredSeriesDay = { day: string; columns: SampleColumns };

/** The stored UTC days in [fromDay, toDay], oldest first, decoded into columns. */
export function readSampleDays(opts: { collection: SeriesCollection; userId: string; fromDay: string; toDay: string }): StoredSeriesDay[] {
  const spec = sampleSpecOf(opts.collection);
  const rows = stmt(`SELECT day, samples FROM ${t(opts.collection)} WHERE userId = ? AND day >= ? AND day <= ? ORDER BY day`).all(opts.userId, opts.fromDay, opts.toDay) as Array<{
    day: string;
    samples: Buffer;
  }>;
  return rows.map((r) => ({ day: r.day, columns: decodeColumns(spec, r.day, r.samples) }));
}

/** One page of a person's stored days (export, checks), oldest first, after the day `after`. */
export function readSamplePage(opts: { collection: SeriesCollection; userId: string; fromDay?: string; toDay?: string; after: string | null; limit: number }): { days: Array<{ day: string; samples: Sample[] }>; next: string | null } {
  const spec = sampleSpecOf(opts.collection);
  const rows = stmt(`SELECT day, samples FROM ${t(opts.collection)} WHERE userId = ? AND day > ? AND day >= ? AND day <= ? ORDER BY day LIMIT ?`).all(
    opts.userId,
    opts.after ?? "",
    opts.fromDay ?? "",
    opts.toDay ?? "9999-12-31",
    opts.limit,
  ) as Array<{ day: string; samples: Buffer }>;
  const days = rows.map((r) => ({ day: r.day, samples: decodeDay(spec, r.day, r.samples) }));
  return { days, next: rows.length === opts.limit ? rows[rows.length - 1]!.day : null };
}

/** Samples stored, and the oldest and newest day, of a person's series. */
export function seriesSummary(collection: SeriesCollection, userId: string): { documents: number; newestDay: string | null; oldestDay: string | null } {
  const r = stmt(`SELECT COALESCE(SUM(count), 0) AS documents, MAX(day) AS newestDay, MIN(day) AS oldestDay FROM ${t(collection)} WHERE userId = ?`).get(userId) as {
    documents: number;
    newestDay: string | null;
    oldestDay: string | null;
  };
  return { documents: Number(r.documents), newestDay: r.newestDay, oldestDay: r.oldestDay };
}

/** The newest stored sample of a person's series (its instant and fields), if any. */
export function latestSample(collection: SeriesCollection, userId: string): { t: number; fields: Record<string, unknown> } | null {
  const row = stmt(`SELECT day, samples FROM ${t(collection)} WHERE userId = ? ORDER BY day DESC LIMIT 1`).get(userId) as { day: string; samples: Buffer } | undefined;
  if (!row || countOf(row.samples) === 0) return null;
  const cols = decodeColumns(sampleSpecOf(collection), row.day, row.samples);
  const i = cols.t.length - 1;
  return { t: cols.t[i]!, fields: Object.fromEntries(Object.entries(cols.fields).map(([k, v]) => [k, v[i]])) };
}
