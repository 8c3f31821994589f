import "server-only";
import type Database from "better-sqlite3";
import { rawDb } from "@/lib/db";
import { COLLECTIONS, getMetric, type CollectionId, type MetricDef } from "@/lib/metrics/catalog";
import { DAILY_COLLECTIONS as DAILY_COLLECTION_IDS, type DailyCollection } from "@/lib/resources";
import {
  buildCategorySeries,
  buildNumericSeries,
  sleepPeriodValues,
  warmupFrom,
  type DayValue,
  type MetricSeries,
  type SleepPeriodLike,
} from "@/lib/metrics/series";
import { addDays, diffDays } from "@/lib/metrics/days";
import { buildTodaySummary, todayWindowStart, TODAY_CATEGORIES, TODAY_METRICS, type TodaySummary } from "@/lib/metrics/today";

// Reads for charts. Every query is a range scan on the (userId, day) index through a cached
// better-sqlite3 prepared statement: the trends API must stay within a small factor of a raw
// SQLite read of the same rows, so nothing here goes through Prisma. Column names come from
// the metric catalog (constants), never from the request.

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

const TODAY_METRIC_DEFS = [...TODAY_METRICS, ...TODAY_CATEGORIES].map((id) => getMetric(id));

const q = (name: string) => `"${name.replaceAll('"', '""')}"`;

export type RangeOptions = { userId: string; from: string; to: string };

/** A daily column's values per day, oldest first (several rows on a day: the newest last). */
export function getDailyColumn(opts: RangeOptions & { collection: DailyCollection; column: string }): DayValue<number | string | null>[] {
  const table = COLLECTIONS[opts.collection].table;
  const rows = stmt(
    `SELECT day, ${q(opts.column)} AS value FROM ${q(table)} WHERE userId = ? AND day >= ? AND day <= ? ORDER BY day, id`,
  ).all(opts.userId, opts.from, opts.to) as DayValue<number | string | null>[];
  return rows;
}

const PERIOD_BASE = ["day", "type", "total_sleep_duration", "time_in_bed"] as const;

/** Sleep periods in a range with the base columns plus `columns`, oldest first. */
export function getSleepPeriodColumns(opts: RangeOptions & { columns?: readonly string[] }): Array<SleepPeriodLike & Record<string, unknown>> {
  const cols = [...new Set([...PERIOD_BASE, ...(opts.columns ?? [])])].map(q).join(", ");
  return stmt(
    `SELECT ${cols} FROM sleep_period WHERE userId = ? AND day >= ? AND day <= ? ORDER BY day, bedtime_start, id`,
  ).all(opts.userId, opts.from, opts.to) as Array<SleepPeriodLike & Record<string, unknown>>;
}

/** One value per day for any metric of the catalog, oldest first. */
export function getMetricValues(opts: RangeOptions & { metric: MetricDef }): DayValue<number | string | null>[] {
  const src = opts.metric.source;
  if (src.type === "daily") return getDailyColumn({ ...opts, collection: src.collection, column: src.column });
  const periods = getSleepPeriodColumns({ ...opts, columns: src.type === "night" ? [src.column] : [] });
  return sleepPeriodValues(opts.metric, periods);
}

export type CollectionRange = { collection: CollectionId; firstDay: string | null; lastDay: string | null; count: number };

/** First day, last day and document count of each collection. */
export function getDataRanges(userId: string): CollectionRange[] {
  return (Object.keys(COLLECTIONS) as CollectionId[]).map((c) => {
    const r = stmt(
      `SELECT min(day) AS firstDay, max(day) AS lastDay, count(*) AS count FROM ${q(COLLECTIONS[c].table)} WHERE userId = ?`,
    ).get(userId) as { firstDay: string | null; lastDay: string | null; count: number };
    return { collection: c, firstDay: r.firstDay, lastDay: r.lastDay, count: Number(r.count) };
  });
}

/** Every column of a daily table's rows in a range (typed columns only, no raw JSON). */
export function getDailyRows(opts: RangeOptions & { collection: DailyCollection }): Array<Record<string, unknown> & { day: string }> {
  const table = COLLECTIONS[opts.collection].table;
  const rows = stmt(
    `SELECT * FROM ${q(table)} WHERE userId = ? AND day >= ? AND day <= ? ORDER BY day, id`,
  ).all(opts.userId, opts.from, opts.to) as Array<Record<string, unknown> & { day: string }>;
  for (const r of rows) delete r.raw;
  return rows;
}

/** Days in a range on which any collection has a document. */
export function getDaysWithDocuments(opts: RangeOptions): Set<string> {
  const parts = [...DAILY_COLLECTION_IDS.map((c) => COLLECTIONS[c].table), "sleep_period"].map(
    (t) => `SELECT day FROM ${q(t)} WHERE userId = ? AND day >= ? AND day <= ?`,
  );
  const args = parts.flatMap(() => [opts.userId, opts.from, opts.to]);
  const rows = stmt(parts.join(" UNION ")).all(...args) as Array<{ day: string }>;
  return new Set(rows.map((r) => r.day));
}

/** The newest day that has any document, over all collections. */
export function getNewestDocumentDay(userId: string): string | null {
  const parts = [...DAILY_COLLECTION_IDS.map((c) => COLLECTIONS[c].table), "sleep_period"].map(
    (t) => `SELECT max(day) AS d FROM ${q(t)} WHERE userId = ?`,
  );
  const r = stmt(`SELECT max(d) AS d FROM (${parts.join(" UNION ALL ")})`).get(...parts.map(() => userId)) as { d: string | null };
  return r.d;
}

/** The oldest day that has any document, over all collections. */
export function getOldestDocumentDay(userId: string): string | null {
  const parts = [...DAILY_COLLECTION_IDS.map((c) => COLLECTIONS[c].table), "sleep_period"].map(
    (t) => `SELECT min(day) AS d FROM ${q(t)} WHERE userId = ?`,
  );
  const r = stmt(`SELECT min(d) AS d FROM (${parts.join(" UNION ALL ")})`).get(...parts.map(() => userId)) as { d: string | null };
  return r.d;
}

/** The newest day the sync engine reports as synced (sync_state.newestDay), if any. */
export function getNewestSyncedDay(userId: string): string | null {
  const r = stmt(`SELECT max(newestDay) AS d FROM sync_state WHERE userId = ?`).get(userId) as { d: string | null } | undefined;
  return r?.d ?? null;
}

/** The age the person shared (personal scope), or null. */
export function getPersonalAge(userId: string): number | null {
  const r = stmt(`SELECT age FROM personal_info WHERE userId = ?`).get(userId) as { age: number | null } | undefined;
  return r?.age ?? null;
}

export type DayDocuments = {
  daily: Partial<Record<DailyCollection, { row: Record<string, unknown>; raw: unknown }>>;
  periods: Array<{ row: Record<string, unknown>; raw: unknown }>;
};

function parseRaw(text: unknown): unknown {
  if (typeof text !== "string") return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** Every document of one day: the newest of each daily collection and all sleep periods. */
export function getDayDocuments(userId: string, day: string): DayDocuments {
  const daily: DayDocuments["daily"] = {};
  for (const c of DAILY_COLLECTION_IDS) {
    const row = stmt(`SELECT * FROM ${q(COLLECTIONS[c].table)} WHERE userId = ? AND day = ? ORDER BY id DESC LIMIT 1`).get(
      userId,
      day,
    ) as Record<string, unknown> | undefined;
    if (!row) continue;
    const raw = parseRaw(row.raw);
    delete row.raw;
    daily[c] = { row, raw };
  }
  const periods = (
    stmt(`SELECT * FROM sleep_period WHERE userId = ? AND day = ? ORDER BY bedtime_start, id`).all(userId, day) as Array<
      Record<string, unknown>
    >
  ).map((row) => {
    const raw = parseRaw(row.raw);
    delete row.raw;
    return { row, raw };
  });
  return { daily, periods };
}

/** The nearest days before and after `day` that have any document. */
export function getNeighbourDays(userId: string, day: string): { previous: string | null; next: string | null } {
  const tables = [...DAILY_COLLECTION_IDS.map((c) => COLLECTIONS[c].table), "sleep_period"];
  const prev = tables.map((t) => `SELECT max(day) AS d FROM ${q(t)} WHERE userId = ? AND day < ?`);
  const next = tables.map((t) => `SELECT min(day) AS d FROM ${q(t)} WHERE userId = ? AND day > ?`);
  const args = tables.flatMap(() => [userId, day]);
  const p = stmt(`SELECT max(d) AS d FROM (${prev.join(" UNION ALL ")})`).get(...args) as { d: string | null };
  const n = stmt(`SELECT min(d) AS d FROM (${next.join(" UNION ALL ")})`).get(...args) as { d: string | null };
  return { previous: p.d, next: n.d };
}

// ---------------------------------------------------------------------------------------
// Composed reads: rows from above → the pure builders of lib/metrics
// ---------------------------------------------------------------------------------------

/** Values per metric id from one read of each table in the range (for pages that show many metrics). */
export function getManyMetricValues(opts: RangeOptions & { metrics: readonly MetricDef[] }): Map<string, DayValue<number | string | null>[]> {
  const out = new Map<string, DayValue<number | string | null>[]>();
  const byCollection = new Map<CollectionId, MetricDef[]>();
  for (const m of opts.metrics) {
    const list = byCollection.get(m.collection) ?? [];
    list.push(m);
    byCollection.set(m.collection, list);
  }
  for (const [collection, metrics] of byCollection) {
    if (collection === "sleep") {
      const cols = metrics.flatMap((m) => (m.source.type === "night" ? [m.source.column] : []));
      const periods = getSleepPeriodColumns({ ...opts, columns: cols });
      for (const m of metrics) out.set(m.id, sleepPeriodValues(m, periods));
      continue;
    }
    const cols = [...new Set(metrics.map((m) => (m.source.type === "daily" ? m.source.column : "")))].filter(Boolean);
    const rows = stmt(
      `SELECT day, ${cols.map(q).join(", ")} FROM ${q(COLLECTIONS[collection].table)} WHERE userId = ? AND day >= ? AND day <= ? ORDER BY day, id`,
    ).all(opts.userId, opts.from, opts.to) as Array<Record<string, unknown> & { day: string }>;
    for (const m of metrics) {
      const col = m.source.type === "daily" ? m.source.column : "";
      out.set(
        m.id,
        rows.map((r) => ({ day: r.day, value: (r[col] ?? null) as number | string | null })),
      );
    }
  }
  return out;
}

/** Each collection's newest day on or before `onOrBefore` (all days when omitted). */
export function getLatestDays(userId: string, onOrBefore?: string): Partial<Record<CollectionId, string | null>> {
  const out: Partial<Record<CollectionId, string | null>> = {};
  for (const c of Object.keys(COLLECTIONS) as CollectionId[]) {
    const r = stmt(`SELECT max(day) AS d FROM ${q(COLLECTIONS[c].table)} WHERE userId = ? AND day <= ?`).get(
      userId,
      onOrBefore ?? "9999-12-31",
    ) as { d: string | null };
    out[c] = r.d;
  }
  return out;
}

export type MetricsOverview = {
  ranges: CollectionRange[];
  /** oldest and newest day over every collection (null before the first sync) */
  firstDay: string | null;
  lastDay: string | null;
};

/** Which days each collection covers, and the overall first and last day. */
export function getMetricsOverview(userId: string): MetricsOverview {
  const ranges = getDataRanges(userId);
  let firstDay: string | null = null;
  let lastDay: string | null = null;
  for (const r of ranges) {
    if (r.firstDay && (!firstDay || r.firstDay < firstDay)) firstDay = r.firstDay;
    if (r.lastDay && (!lastDay || r.lastDay > lastDay)) lastDay = r.lastDay;
  }
  return { ranges, firstDay, lastDay };
}

/** The Today page's response: each collection's newest day (on or before `asOf`) summarised. */
export function getTodaySummary(userId: string, asOf?: string): TodaySummary & { ranges: CollectionRange[] } {
  const latestDay = getLatestDays(userId, asOf);
  let day: string | null = null;
  for (const d of Object.values(latestDay)) if (d && (!day || d > day)) day = d;
  const rows = day ? Object.fromEntries(getManyMetricValues({ userId, metrics: TODAY_METRIC_DEFS, from: todayWindowStart(day), to: day })) : {};
  const summary = buildTodaySummary({ day, latestDay, rows, age: getPersonalAge(userId) });
  return { ...summary, ranges: getDataRanges(userId) };
}

/** One metric's chart series for [from, to] (numeric: with statistics; category: with counts). */
export function getMetricSeries(opts: RangeOptions & { metric: MetricDef }): MetricSeries {
  const { metric, from, to } = opts;
  if (metric.kind === "category") {
    const start = addDays(from, -(diffDays(from, to) + 1));
    const rows = getMetricValues({ userId: opts.userId, metric, from: start, to }) as DayValue<string | null>[];
    return buildCategorySeries(metric, rows, from, to);
  }
  const rows = getMetricValues({ userId: opts.userId, metric, from: warmupFrom(from, to), to }) as DayValue<number | null>[];
  return buildNumericSeries(metric, rows, from, to);
}
