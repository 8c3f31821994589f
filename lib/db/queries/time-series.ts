import "server-only";
import { prisma } from "@/lib/db/prisma";
import { Prisma } from "@/lib/generated/prisma/client";
import { countOf, decodeColumns, decodeDay, encodeDay, mergeSamples, type Sample, type SampleColumns } from "@/lib/db/sample-codec";
import { sampleSpecOf, tableOf, type SeriesCollection } from "@/lib/resources";
import type { CollectionSummary } from "@/lib/db/ingest/documents";

// Reads of the time-series tables (heart rate, ring battery: one row per person and UTC day, the
// day's samples packed, lib/db/sample-codec.ts) through Prisma Client's tagged templates; the
// table's name comes from the registry. Their writes are the ingest store's (lib/db/ingest/series.ts).

const table = (c: SeriesCollection) => Prisma.raw(`"${tableOf(c)}"`);

type DayBlob = { day: string; samples: Uint8Array };

/** The day's stored samples, packed (null when the day has none). */
async function storedBlob(collection: SeriesCollection, userId: string, day: string): Promise<Uint8Array | null> {
  const [row] = await prisma().$queryRaw<Array<Pick<DayBlob, "samples">>>`SELECT samples FROM ${table(collection)} WHERE "userId" = ${userId} AND day = ${day}`;
  return row?.samples ?? null;
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
    const blob = await storedBlob(opts.collection, opts.userId, day);
    const before = blob ? decodeDay(spec, day, blob) : [];
    const merged = mergeSamples(spec, before, samples);
    fresh += merged.length - before.length;
    if (!blob || !encodeDay(spec, day, merged).equals(blob)) changedDays.set(day, samples);
  }
  return { new: fresh, changedDays };
}

/** How many samples are stored on these UTC days. */
export async function storedDayCounts(collection: SeriesCollection, userId: string, days: readonly string[]): Promise<number> {
  let n = 0;
  for (let i = 0; i < days.length; i += 500) {
    const [row] = await prisma().$queryRaw<Array<{ n: number | bigint | null }>>`SELECT SUM(count) AS n FROM ${table(collection)}
      WHERE "userId" = ${userId} AND day IN (${Prisma.join(days.slice(i, i + 500))})`;
    n += Number(row?.n ?? 0);
  }
  return n;
}

export type StoredSeriesDay = { day: string; columns: SampleColumns };

/** The stored UTC days in [fromDay, toDay], oldest first, decoded into columns. */
export async function readSampleDays(opts: { collection: SeriesCollection; userId: string; fromDay: string; toDay: string }): Promise<StoredSeriesDay[]> {
  const spec = sampleSpecOf(opts.collection);
  const rows = await prisma().$queryRaw<DayBlob[]>`SELECT day, samples FROM ${table(opts.collection)}
    WHERE "userId" = ${opts.userId} AND day >= ${opts.fromDay} AND day <= ${opts.toDay} ORDER BY day`;
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
  const rows = await prisma().$queryRaw<DayBlob[]>`SELECT day, samples FROM ${table(opts.collection)}
    WHERE "userId" = ${opts.userId} AND day > ${opts.after ?? ""} AND day >= ${opts.fromDay ?? ""} AND day <= ${opts.toDay ?? "9999-12-31"}
    ORDER BY day LIMIT ${opts.limit}`;
  const days = rows.map((r) => ({ day: r.day, samples: decodeDay(spec, r.day, r.samples) }));
  return { days, next: rows.length === opts.limit ? rows[rows.length - 1]!.day : null };
}

/** Samples stored, and the oldest and newest day, of a person's series. */
export async function seriesSummary(collection: SeriesCollection, userId: string): Promise<CollectionSummary> {
  const [r] = await prisma().$queryRaw<
    Array<{ documents: number | bigint | null; newestDay: string | null; oldestDay: string | null }>
  >`SELECT SUM(count) AS documents,
    MAX(day) AS "newestDay", MIN(day) AS "oldestDay" FROM ${table(collection)} WHERE "userId" = ${userId}`;
  return { documents: Number(r?.documents ?? 0), newestDay: r?.newestDay ?? null, oldestDay: r?.oldestDay ?? null };
}

/** The newest stored sample of a person's series (its instant and fields), if any. */
export async function latestSample(collection: SeriesCollection, userId: string): Promise<{ t: number; fields: Record<string, unknown> } | null> {
  const [row] = await prisma().$queryRaw<DayBlob[]>`SELECT day, samples FROM ${table(collection)} WHERE "userId" = ${userId} ORDER BY day DESC LIMIT 1`;
  if (!row || countOf(row.samples) === 0) return null;
  const cols = decodeColumns(sampleSpecOf(collection), row.day, row.samples);
  const i = cols.t.length - 1;
  return { t: cols.t[i]!, fields: Object.fromEntries(Object.entries(cols.fields).map(([k, v]) => [k, v[i]])) };
}
