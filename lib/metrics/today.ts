// The Today page's numbers: for each metric of its layout (lib/metrics/today-layout.ts), its
// latest day's value against the 7 days before it and against its 90-day baseline, plus the last
// weeks for a sparkline. Pure.
import { clampToMetric, getMetric, type CollectionId, type MetricId } from "@/lib/metrics/catalog";
import { addDays, diffDays } from "@/lib/days";
import { roundTo, toDense, type DayValue } from "@/lib/metrics/series";
import { BASELINE_DAYS, PRIOR_MEAN_DAYS, summarizeDay, type AnomalyFlag, type Num } from "@/lib/metrics/stats";
import { TODAY_CATEGORIES, TODAY_METRICS } from "@/lib/metrics/today-layout";

/** Days of history Today reads before its latest day: the 90-day baseline plus the day itself. */
export const TODAY_HISTORY_DAYS = BASELINE_DAYS + PRIOR_MEAN_DAYS;
/** Days in each sparkline, ending on the metric's day. */
export const SPARK_DAYS = 30;

export type TodayMetric = {
  id: MetricId;
  /** the day the value is from (its collection's latest day) */
  day: string;
  value: number | null;
  prior7Mean: number | null;
  prior7N: number;
  /** value − prior7Mean */
  delta: number | null;
  baseline: { mean: number; low: number; high: number; n: number } | null;
  flag: AnomalyFlag;
  /** SPARK_DAYS values ending on `day` (gaps are null) */
  spark: Num[];
};

export type TodayCategory = { id: MetricId; day: string; value: string | null; recent: Array<string | null> };

export type TodaySummary = {
  /** the newest day any collection has a document for, or null before the first sync */
  day: string | null;
  metrics: Partial<Record<MetricId, TodayMetric>>;
  categories: Partial<Record<MetricId, TodayCategory>>;
  /** the age the person shared with the personal scope */
  age: number | null;
};

export type TodayInput = {
  /** newest day over every collection */
  day: string | null;
  /** newest day of each collection */
  latestDay: Partial<Record<CollectionId, string | null>>;
  /** rows of each metric over [day − TODAY_HISTORY_DAYS − SPARK_DAYS, day] */
  rows: Partial<Record<MetricId, DayValue<number | string | null>[]>>;
  age: number | null;
};

export function todayWindowStart(day: string): string {
  return addDays(day, -(TODAY_HISTORY_DAYS + SPARK_DAYS));
}

/**
 * The day a metric's value on Today is from: its collection's latest day; for a figure made of
 * samples with a condition (daytime heart rate: awake samples only), the latest day that has one,
 * so that early in the morning, before any such sample today, Today shows yesterday's.
 */
function metricDay(id: MetricId, input: TodayInput): string | null {
  const m = getMetric(id);
  const day = input.latestDay[m.collection] ?? null;
  if (!day || m.source.type !== "samples" || !m.source.only) return day;
  let latest: string | null = null;
  for (const r of input.rows[id] ?? []) if (r.value !== null && r.day <= day && (latest === null || r.day > latest)) latest = r.day;
  return latest;
}

export function buildTodaySummary(input: TodayInput): TodaySummary {
  const out: TodaySummary = { day: input.day, metrics: {}, categories: {}, age: input.age };
  if (!input.day) return out;
  const start = todayWindowStart(input.day);
  for (const id of TODAY_METRICS) {
    const m = getMetric(id);
    const day = metricDay(id, input);
    if (!day || day < start) continue;
    const dense = toDense((input.rows[id] as DayValue<number | null>[]) ?? [], start, input.day);
    const idx = diffDays(start, day);
    const s = summarizeDay(dense, idx);
    const dec = m.decimals + 2;
    out.metrics[id] = {
      id,
      day,
      value: s.value,
      prior7Mean: roundTo(s.prior7.mean, dec),
      prior7N: s.prior7.n,
      delta: roundTo(s.delta, dec),
      baseline: s.baseline
        ? {
            mean: roundTo(s.baseline.mean, dec)!,
            low: roundTo(clampToMetric(m, s.baseline.low), dec)!,
            high: roundTo(clampToMetric(m, s.baseline.high), dec)!,
            n: s.baseline.n,
          }
        : null,
      flag: s.flag,
      spark: dense.slice(Math.max(0, idx - SPARK_DAYS + 1), idx + 1),
    };
  }
  for (const id of TODAY_CATEGORIES) {
    const m = getMetric(id);
    const day = input.latestDay[m.collection];
    if (!day || day < start) continue;
    const dense = toDense((input.rows[id] as DayValue<string | null>[]) ?? [], start, input.day);
    const idx = diffDays(start, day);
    out.categories[id] = { id, day, value: dense[idx] ?? null, recent: dense.slice(Math.max(0, idx - 13), idx + 1) };
  }
  return out;
}
