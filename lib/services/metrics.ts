import "server-only";
import { getMetric, HEADLINE_METRICS, type MetricDef, type MetricId } from "@/lib/metrics/catalog";
import type { DailyCollection } from "@/lib/resources";
import { classifyCalendarDays, heatLevel, heatThresholds, type CalendarStatus } from "@/lib/metrics/calendar";
import { rankCorrelations, RANK_MIN_N } from "@/lib/metrics/correlations";
import { buildDayDetail, type DayDetail } from "@/lib/metrics/day-detail";
import { addDays, dayRange, diffDays } from "@/lib/days";
import {
  buildCategorySeries,
  buildNumericSeries,
  dayAt,
  sleepPeriodValues,
  toDense,
  warmupFrom,
  type DayValue,
  type MetricSeries,
  type SleepPeriodLike,
} from "@/lib/metrics/series";
import { encodePoints, encodeSeries, wireDecimals, type PointColumns, type SeriesColumns } from "@/lib/metrics/columns";
import { compareTagged, correlationStrength, pearson, type Correlation, type GroupComparison } from "@/lib/metrics/stats";
import { buildTodaySummary, todayWindowStart, type TodaySummary } from "@/lib/metrics/today";
import { TODAY_CATEGORIES, TODAY_METRICS } from "@/lib/metrics/today-layout";
import { localDayAggregates, utcDaysFor } from "@/lib/metrics/heart-rate";
import { readSampleDays } from "@/lib/db/queries/time-series";
import { getSleepDebtValues } from "@/lib/services/signals";
import { VersionedMemo } from "@/lib/limits/versioned-memo";
import { isNormalRangeMetric, NORMAL_RANGE_MARKERS, normalRangeForChart, normalRangeRowsFrom } from "@/lib/signals/normal-range";
import { cycleForNormalRange } from "@/lib/services/cycle";
import { readDataVersion } from "@/lib/db/queries/data-version";
import { dayOffsets, getDayRecords, getTodayRecords, type DayRecords, type TodayRecords } from "@/lib/services/records";
import { getMissingReason, getMissingReasons, type MissingNightSources } from "@/lib/services/missing-nights";
import type { MissingReason } from "@/lib/metrics/missing-night";
import {
  getDailyColumns,
  getDocumentDays,
  getEventDaySums,
  getDataRanges,
  getDayDocuments,
  getDaysWithDocuments,
  getDocumentDayBounds,
  getLatestDays,
  getNeighbourDays,
  getNewestSyncedDay,
  getPersonalAge,
  getSleepPeriodColumns,
  type DayRow,
  type CollectionRange,
  type RangeOptions,
} from "@/lib/db/queries/ring-data";

// The metrics service: what the pages and the chart API ask for, composed from the ring-data
// reads (lib/db/queries/ring-data.ts: rows) and the pure builders of lib/metrics (series,
// statistics, the Today summary, the calendar). No HTTP here; the routes parse and answer.

type Value = number | string | null;

/** The columns every sleep-period metric needs (pickMainSleep reads them). */
const PERIOD_BASE = ["day", "type", "total_sleep_duration", "time_in_bed"] as const;

type SourceOf<T extends MetricDef["source"]["type"]> = Extract<MetricDef["source"], { type: T }>;

/** A sum metric's values: the day's events summed; 0 on a day with a `zeroOn` document and no event. */
async function sumValues(opts: RangeOptions, src: SourceOf<"sum">): Promise<DayValue<Value>[]> {
  const sums = await getEventDaySums({ ...opts, collection: src.collection, column: src.column });
  if (!src.zeroOn) return sums;
  const byDay = new Map(sums.map((r) => [r.day, r.value]));
  for (const d of await getDocumentDays({ ...opts, collection: src.zeroOn })) if (!byDay.has(d)) byDay.set(d, 0);
  return [...byDay].sort(([a], [b]) => (a < b ? -1 : 1)).map(([day, value]) => ({ day, value }));
}

/** A time-series metric's values: one aggregate per local day. */
async function sampleValues(opts: RangeOptions, src: SourceOf<"samples">): Promise<DayValue<Value>[]> {
  const utc = utcDaysFor(opts.from, opts.to);
  const days = await readSampleDays({ collection: src.collection, userId: opts.userId, fromDay: utc.from, toDay: utc.to });
  if (days.length === 0) return [];
  return localDayAggregates({
    days,
    offsetOf: await dayOffsets(opts.userId, utc.from, utc.to),
    from: opts.from,
    to: opts.to,
    field: src.field,
    aggregate: src.aggregate,
    only: src.only,
  });
}

/** One value per day for each of `metrics` in a range, from one read of each table. */
export async function getMetricValues(opts: RangeOptions & { metrics: readonly MetricDef[] }): Promise<Map<MetricId, DayValue<Value>[]>> {
  const out = new Map<MetricId, DayValue<Value>[]>();
  const daily = new Map<DailyCollection, MetricDef[]>();
  const periodMetrics: MetricDef[] = [];
  for (const m of opts.metrics) {
    if (m.source.type === "daily") daily.set(m.source.collection, [...(daily.get(m.source.collection) ?? []), m]);
    else if (m.source.type === "sum") out.set(m.id, await sumValues(opts, m.source));
    else if (m.source.type === "samples") out.set(m.id, await sampleValues(opts, m.source));
    else if (m.source.type === "signal") out.set(m.id, await getSleepDebtValues(opts));
    else periodMetrics.push(m);
  }
  for (const [collection, metrics] of daily) {
    const columns = [...new Set(metrics.map((m) => (m.source.type === "daily" ? m.source.column : "")))];
    const rows = await getDailyColumns({ ...opts, collection, columns });
    for (const m of metrics) {
      const col = m.source.type === "daily" ? m.source.column : "";
      out.set(
        m.id,
        rows.map((r) => ({ day: r.day, value: (r[col] ?? null) as Value })),
      );
    }
  }
  if (periodMetrics.length > 0) {
    const columns = [...PERIOD_BASE, ...periodMetrics.flatMap((m) => (m.source.type === "night" ? [m.source.column] : []))];
    const periods = await getSleepPeriodColumns<SleepPeriodLike & DayRow>({ ...opts, columns });
    for (const m of periodMetrics) out.set(m.id, sleepPeriodValues(m, periods));
  }
  return out;
}

/** One metric's values per day in a range, oldest first. */
export async function getMetricDayValues(opts: RangeOptions & { metric: MetricDef }): Promise<DayValue<Value>[]> {
  return (await getMetricValues({ ...opts, metrics: [opts.metric] })).get(opts.metric.id) ?? [];
}

const numbers = (rows: DayValue<Value>[]) => rows as DayValue<number | null>[];

/**
 * One metric's chart series for [from, to] (numeric: with statistics; category: with counts).
 * Its normal range follows the cycle's phase while the person tracks, unless `cycle` is false
 * (a reader without the cycle: the range as for a person who does not track).
 */
export async function getMetricSeries(opts: RangeOptions & { metric: MetricDef; cycle?: boolean }): Promise<MetricSeries> {
  const { metric, from, to, userId } = opts;
  if (metric.kind === "category") {
    const start = addDays(from, -(diffDays(from, to) + 1));
    return buildCategorySeries(metric, (await getMetricDayValues({ userId, metric, from: start, to })) as DayValue<string | null>[], from, to);
  }
  const warm = warmupFrom(from, to);
  const cycle = opts.cycle !== false && isNormalRangeMetric(metric.id) && NORMAL_RANGE_MARKERS[metric.id] ? await cycleForNormalRange(userId, from, to) : null;
  const rows = numbers(await getMetricDayValues({ userId, metric, from: normalRangeRowsFrom(from, to, cycle !== null), to }));
  const series = buildNumericSeries(
    metric,
    rows.filter((r) => r.day >= warm),
    from,
    to,
  );
  return isNormalRangeMetric(metric.id) ? { ...series, normal: normalRangeForChart(metric.id, rows, from, to, metric.decimals + 2, cycle) } : series;
}

/** One metric's chart series in the compact form the dashboard's route sends (lib/metrics/columns.ts). */
export async function getSeriesColumns(opts: RangeOptions & { metric: MetricDef }): Promise<SeriesColumns> {
  return encodeSeries(await getMetricSeries(opts), wireDecimals(opts.metric));
}

export type MetricsOverview = {
  ranges: CollectionRange[];
  /** oldest and newest day over every collection (null before the first sync) */
  firstDay: string | null;
  lastDay: string | null;
};

/** Which days each collection covers, and the overall first and last day. */
export async function getMetricsOverview(userId: string): Promise<MetricsOverview> {
  return overviewOf(await getDataRanges(userId));
}

/** The overall first and last day of some collections' ranges. */
export function overviewOf(ranges: CollectionRange[]): MetricsOverview {
  let firstDay: string | null = null;
  let lastDay: string | null = null;
  for (const r of ranges) {
    if (r.firstDay && (!firstDay || r.firstDay < firstDay)) firstDay = r.firstDay;
    if (r.lastDay && (!lastDay || r.lastDay > lastDay)) lastDay = r.lastDay;
  }
  return { ranges, firstDay, lastDay };
}

const TODAY_METRIC_DEFS = [...TODAY_METRICS, ...TODAY_CATEGORIES].map(getMetric);

export type TodayResponse = TodaySummary & { ranges: CollectionRange[]; records: TodayRecords };

/** The Today page: each collection's newest day (on or before `asOf`) summarised. */
export async function getTodaySummary(userId: string, asOf?: string): Promise<TodayResponse> {
  const latestDay = await getLatestDays(userId, asOf);
  let day: string | null = null;
  for (const d of Object.values(latestDay)) if (d && (!day || d > day)) day = d;
  const rows = day ? Object.fromEntries(await getMetricValues({ userId, metrics: TODAY_METRIC_DEFS, from: todayWindowStart(day), to: day })) : {};
  const summary = buildTodaySummary({ day, latestDay, rows, age: await getPersonalAge(userId) });
  return { ...summary, ranges: await getDataRanges(userId), records: await getTodayRecords(userId, day) };
}

export type CalendarResponse = {
  metric: MetricId;
  from: string;
  to: string;
  thresholds: number[];
  /** `missingReason`: why a day has no main sleep (null when it has one, before the history, or for a reader without sleep) */
  days: Array<{ day: string; status: CalendarStatus; value: number | null; level: number | null; missingReason: MissingReason | null }>;
};

/**
 * The calendar: each day's value and state (value, not worn, missing, not yet synced) with a heat
 * level, and why a day has no main sleep (`missing`: what that may read; null: not at all).
 */
export async function getCalendar(opts: RangeOptions & { metric: MetricDef; missing?: MissingNightSources | null }): Promise<CalendarResponse> {
  const { userId, metric, from, to } = opts;
  const values = toDense(numbers(await getMetricDayValues(opts)), from, to);
  const withDocs = await getDaysWithDocuments(opts);
  const nonWear = toDense(
    (await getDailyColumns({ userId, collection: "daily_activity", columns: ["non_wear_time"], from, to })).map((r) => ({
      day: r.day,
      value: r.non_wear_time as number | null,
    })),
    from,
    to,
  );
  const bounds = await getDocumentDayBounds(userId);
  const days = classifyCalendarDays({
    from,
    to,
    values,
    hasAnyDocument: dayRange(from, to).map((d) => withDocs.has(d)),
    nonWearS: nonWear,
    newestDocumentDay: bounds.newest,
    oldestDocumentDay: bounds.oldest,
    newestSyncedDay: await getNewestSyncedDay(userId),
  });
  const thresholds = heatThresholds(metric.kind, metric.unit, values);
  const start = bounds.oldest && bounds.oldest > from ? bounds.oldest : from;
  const reasons = opts.missing === null || !bounds.oldest ? new Map() : await getMissingReasons({ userId, from: start, to, sources: opts.missing });
  return {
    metric: metric.id,
    from,
    to,
    thresholds,
    days: days.map((d) => ({
      ...d,
      level: d.value !== null && thresholds.length ? heatLevel(d.value, thresholds, metric.direction) : null,
      missingReason: reasons.get(d.day) ?? null,
    })),
  };
}

export type Strength = ReturnType<typeof correlationStrength>;

export type CorrelationResponse = {
  x: MetricId;
  y: MetricId;
  lag: 0 | 1;
  from: string;
  to: string;
  points: Array<{ day: string; x: number; y: number }>;
  correlation: (Correlation & { strength: Strength }) | null;
};

/** x on a day against y on the same day (lag 0) or the next (lag 1): points, Pearson's r and n. */
export async function getCorrelation(opts: RangeOptions & { x: MetricDef; y: MetricDef; lag: 0 | 1 }): Promise<CorrelationResponse> {
  const { userId, from, to, lag } = opts;
  const yTo = addDays(to, lag);
  const xs = toDense(numbers(await getMetricDayValues({ userId, metric: opts.x, from, to })), from, to);
  const ys = toDense(numbers(await getMetricDayValues({ userId, metric: opts.y, from, to: yTo })), from, yTo).slice(lag, lag + xs.length);
  const points: CorrelationResponse["points"] = [];
  for (let i = 0; i < xs.length; i++) {
    const a = xs[i];
    const b = ys[i];
    if (a !== null && a !== undefined && b !== null && b !== undefined) points.push({ day: dayAt(from, i), x: a, y: b });
  }
  const correlation = pearson(xs, ys);
  return {
    x: opts.x.id,
    y: opts.y.id,
    lag,
    from,
    to,
    points,
    correlation: correlation ? { ...correlation, strength: correlationStrength(correlation.r) } : null,
  };
}

/** GET /api/correlations: the same answer with its points as columns. */
export type CorrelationColumns = Omit<CorrelationResponse, "points"> & { points: PointColumns };

/** The pair's answer in the compact form the dashboard's route sends. */
export async function getCorrelationColumns(opts: RangeOptions & { x: MetricDef; y: MetricDef; lag: 0 | 1 }): Promise<CorrelationColumns> {
  const c = await getCorrelation(opts);
  return { ...c, points: encodePoints(c.points, c.from) };
}

export type StrongestResponse = {
  from: string;
  to: string;
  minN: number;
  results: Array<Correlation & { x: MetricId; y: MetricId; lag: 0 | 1; strength: Strength }>;
};

/**
 * The strongest relationships between the headline metrics (lag 0 and 1), ranked by |r|;
 * `include` narrows the metrics searched (a token's data kinds).
 */
export async function getStrongestCorrelations(opts: RangeOptions & { limit: number; include?: (m: MetricDef) => boolean }): Promise<StrongestResponse> {
  const metrics = HEADLINE_METRICS.filter((m) => m.kind !== "category" && (opts.include?.(m) ?? true));
  const key = `${opts.from}|${opts.to}|${opts.limit}|${metrics.map((m) => m.id).join(",")}`;
  return strongestMemo.get(opts.userId, await readDataVersion(opts.userId), key, () => rankStrongest(opts, metrics));
}

/**
 * The strongest relationships are computed once per data version (lib/db/queries/data-version.ts)
 * and range: every view of Correlations asks for them, and they only change when the data
 * does. 32 answers at most for the whole process (a few hundred bytes each).
 */
const strongestMemo = new VersionedMemo<StrongestResponse>(32);

async function rankStrongest(opts: RangeOptions & { limit: number }, metrics: readonly MetricDef[]): Promise<StrongestResponse> {
  const { userId, from, to } = opts;
  // one extra day so lag-1 pairs can use the day after `to`
  const end = addDays(to, 1);
  const values = await getMetricValues({ userId, metrics, from, to: end });
  const series = metrics.map((m) => ({ metric: m, values: toDense(numbers(values.get(m.id) ?? []), from, end) }));
  // lag 0 must not use the extra day
  const lag0 = rankCorrelations(
    series.map((s) => ({ ...s, values: s.values.slice(0, -1) })),
    { lags: [0] },
  );
  const lag1 = rankCorrelations(series, { lags: [1] });
  const ranked = [...lag0, ...lag1].sort((a, b) => Math.abs(b.r) - Math.abs(a.r) || b.n - a.n).slice(0, opts.limit);
  return { from, to, minN: RANK_MIN_N, results: ranked.map((r) => ({ ...r, strength: correlationStrength(r.r) })) };
}

/**
 * Every document of one day, its sleep periods' curves and its activity timeline, the ring's other
 * records of it, and why it has no main sleep if it has none (`sources`: what that may read).
 */
export async function getDayDetail(
  userId: string,
  day: string,
  sources?: MissingNightSources,
): Promise<DayDetail & { records: DayRecords; missing_reason: MissingReason | null }> {
  const docs = await getDayDocuments(userId, day);
  const { previous, next } = await getNeighbourDays(userId, day);
  return {
    ...buildDayDetail({ day, daily: docs.daily, periods: docs.periods, previous, next }),
    records: await getDayRecords(userId, day),
    missing_reason: await getMissingReason(userId, day, sources),
  };
}

/** A metric on days with a tag against days without it (lag 1: the day after each day). */
export async function compareTagDays(opts: RangeOptions & { metric: MetricDef; lag: 0 | 1; taggedDays: readonly string[] }): Promise<GroupComparison> {
  const { userId, metric, from, to, lag } = opts;
  const end = addDays(to, lag);
  const values = toDense(numbers(await getMetricDayValues({ userId, metric, from, to: end })), from, end);
  const tagged = new Set(opts.taggedDays);
  return compareTagged(
    values,
    dayRange(from, to).map((d) => tagged.has(d)),
    lag,
  );
}

export type DayTable = {
  from: string;
  to: string;
  metrics: MetricId[];
  /** the days with a value of any of the metrics, oldest first */
  days: Array<{ day: string; values: Partial<Record<MetricId, number | string | null>> }>;
};

/** Several metrics as a table: one row per day with a value, one column per metric. */
export async function getDayTable(opts: RangeOptions & { metrics: readonly MetricDef[] }): Promise<DayTable> {
  const { from, to } = opts;
  const values = await getMetricValues(opts);
  const dense = opts.metrics.map((m) => toDense(values.get(m.id) ?? [], from, to));
  const days: DayTable["days"] = [];
  dayRange(from, to).forEach((day, i) => {
    if (!dense.some((d) => d[i] !== null && d[i] !== undefined)) return;
    days.push({ day, values: Object.fromEntries(opts.metrics.map((m, j) => [m.id, dense[j]![i] ?? null])) });
  });
  return { from, to, metrics: opts.metrics.map((m) => m.id), days };
}
