// Rows from the database → the series the charts display. Pure: the API routes call these
// with rows they read, and the charts only draw the result.
import { addDays, dayToIndex, diffDays, indexToDay } from "@/lib/days";
import { clampToMetric, type MetricDef } from "@/lib/metrics/catalog";
import { BASELINE_DAYS, comparePeriods, computeSeriesStats, countCategories, type Num, type PeriodComparison, type SeriesStats } from "@/lib/metrics/stats";

export type DayValue<T = number | null> = { day: string; value: T };

/**
 * One slot per day from `from` to `to`; days without a row are null (a gap, never a zero).
 * When a day has several rows, the last one wins (callers order rows by day, then age).
 */
export function toDense<T>(rows: readonly DayValue<T | null>[], from: string, to: string): Array<T | null> {
  const start = dayToIndex(from);
  const len = dayToIndex(to) - start + 1;
  const out = new Array<T | null>(Math.max(0, len)).fill(null);
  for (const r of rows) {
    const i = dayToIndex(r.day) - start;
    if (i < 0 || i >= len) continue;
    out[i] = r.value ?? null;
  }
  return out;
}

/** Rounds to `decimals` places, keeping null. */
export function roundTo(v: number | null, decimals: number): number | null {
  if (v === null || !Number.isFinite(v)) return null;
  const f = 10 ** decimals;
  return Math.round(v * f) / f;
}

/** How far back the rows must reach so the first shown day has its baseline and the
 * period comparison has a whole previous period. */
export function warmupFrom(from: string, to: string): string {
  const len = diffDays(from, to) + 1;
  return addDays(from, -Math.max(BASELINE_DAYS, len));
}

export type NumericSeries = SeriesStats & {
  kind: "numeric";
  metric: string;
  from: string;
  to: string;
  /** one slot per day from `from` to `to` */
  value: Num[];
  summary: { n: number; mean: number | null; min: number | null; max: number | null; days: number; anomalies: number };
  comparison: PeriodComparison;
  /** the nightly physiology metrics' personal normal range (lib/signals/normal-range.ts) */
  normal?: NormalRangeSeries;
};

export type CategorySeries = {
  kind: "category";
  metric: string;
  from: string;
  to: string;
  value: Array<string | null>;
  counts: Record<string, number>;
  n: number;
  previousCounts: Record<string, number>;
  previousN: number;
  summary: { n: number; days: number; mostCommon: string | null };
};

export type MetricSeries = NumericSeries | CategorySeries;

/** The scale a normal range's maths is done on: the value itself, or its logarithm (HRV). */
export type Transform = "none" | "ln";

export type NormalState = "below" | "within" | "above";

/**
 * One metric's personal normal range, one slot per day (values in the metric's own unit): the
 * band a numeric series carries for the nightly physiology metrics. Its maths are the signals'
 * (lib/signals/normal-range.ts); the shape is the series', so the metrics never import them.
 */
export type NormalRangeSeries = {
  transform: Transform;
  windowDays: number;
  baseDays: number;
  minNights: number;
  k: number;
  low: Num[];
  high: Num[];
  /** the 7-day rolling mean read against the band (geometric for HRV) */
  base7: Num[];
  state: Array<NormalState | null>;
  /** nights of history the last day's range had (below minNights: no range yet) */
  nights: number;
};

/**
 * A numeric metric's series for [from, to] with rolling means, baseline band, anomaly flags
 * and the this-period-vs-previous comparison. `rows` may start before `from` (see warmupFrom)
 * so the statistics of the first shown days use the real history before them.
 */
export function buildNumericSeries(metric: MetricDef, rows: readonly DayValue<number | null>[], from: string, to: string): NumericSeries {
  const start = warmupFrom(from, to);
  const dense = toDense(rows, start, to);
  const stats = computeSeriesStats(dense);
  const off = diffDays(start, from);
  const len = dense.length - off;
  const dec = metric.decimals + 2;
  const sl = <T>(xs: T[]) => xs.slice(off);
  const value = sl(dense);
  let n = 0;
  let sum = 0;
  let min: number | null = null;
  let max: number | null = null;
  let anomalies = 0;
  const flag = sl(stats.flag);
  for (let i = 0; i < value.length; i++) {
    const v = value[i];
    if (v === null || v === undefined) continue;
    n++;
    sum += v;
    if (min === null || v < min) min = v;
    if (max === null || v > max) max = v;
    if (flag[i]) anomalies++;
  }
  const comparison = comparePeriods(dense, off, off + len - 1);
  return {
    kind: "numeric",
    metric: metric.id,
    from,
    to,
    value,
    avg7: sl(stats.avg7).map((v) => roundTo(v, dec)),
    avg30: sl(stats.avg30).map((v) => roundTo(v, dec)),
    baseMean: sl(stats.baseMean).map((v) => roundTo(v, dec)),
    baseLow: sl(stats.baseLow).map((v) => roundTo(v === null ? null : clampToMetric(metric, v), dec)),
    baseHigh: sl(stats.baseHigh).map((v) => roundTo(v === null ? null : clampToMetric(metric, v), dec)),
    flag,
    run: sl(stats.run),
    summary: { n, mean: n ? roundTo(sum / n, dec) : null, min, max, days: len, anomalies },
    comparison: {
      ...comparison,
      current: { ...comparison.current, mean: roundTo(comparison.current.mean, dec) },
      previous: { ...comparison.previous, mean: roundTo(comparison.previous.mean, dec) },
      delta: roundTo(comparison.delta, dec),
      deltaPct: roundTo(comparison.deltaPct, 4),
    },
  };
}

/** A category metric's series (e.g. resilience level) with counts for this and the previous period. */
export function buildCategorySeries(metric: MetricDef, rows: readonly DayValue<string | null>[], from: string, to: string): CategorySeries {
  const len = diffDays(from, to) + 1;
  const start = addDays(from, -len);
  const dense = toDense(rows, start, to);
  const value = dense.slice(len);
  const cur = countCategories(dense, len, dense.length - 1);
  const prev = countCategories(dense, 0, len - 1);
  let mostCommon: string | null = null;
  for (const c of metric.categories ?? []) {
    if ((cur.counts[c.value] ?? 0) > (mostCommon ? (cur.counts[mostCommon] ?? 0) : 0)) mostCommon = c.value;
  }
  return {
    kind: "category",
    metric: metric.id,
    from,
    to,
    value,
    counts: cur.counts,
    n: cur.n,
    previousCounts: prev.counts,
    previousN: prev.n,
    summary: { n: cur.n, days: len, mostCommon },
  };
}

/** The day of slot `i` of a series starting at `from`. */
export function dayAt(from: string, i: number): string {
  return indexToDay(dayToIndex(from) + i);
}

// ---------------------------------------------------------------------------------------
// Sleep periods: the main sleep of a day and its naps
// ---------------------------------------------------------------------------------------

export type SleepPeriodLike = {
  day: string;
  type: string | null;
  total_sleep_duration: number | null;
  time_in_bed: number | null;
};

/** A period without a type that lasts this long counts as a main sleep. */
export const MAIN_SLEEP_MIN_S = 3 * 3600;

function length(p: SleepPeriodLike): number {
  return p.total_sleep_duration ?? p.time_in_bed ?? 0;
}

/** Periods that count at all: not deleted by the person, not a rejected "rest". */
export function countsAsSleep(p: SleepPeriodLike): boolean {
  return p.type !== "deleted" && p.type !== "rest";
}

/**
 * The day's main sleep: its longest `long_sleep`; failing that, its longest untyped period of
 * at least three hours. Naps (`sleep`, `late_nap`) are never the main sleep.
 */
export function pickMainSleep<P extends SleepPeriodLike>(periods: readonly P[]): P | null {
  let best: P | null = null;
  for (const p of periods) {
    if (p.type !== "long_sleep") continue;
    if (!best || length(p) > length(best)) best = p;
  }
  if (best) return best;
  for (const p of periods) {
    if (p.type !== null || (p.time_in_bed ?? 0) < MAIN_SLEEP_MIN_S) continue;
    if (!best || length(p) > length(best)) best = p;
  }
  return best;
}

/** The day's naps: every counted period other than the main sleep. */
export function napsOf<P extends SleepPeriodLike>(periods: readonly P[], main: P | null): P[] {
  return periods.filter((p) => p !== main && countsAsSleep(p));
}

/** Groups periods by day (input order kept inside a day). */
export function groupByDay<P extends { day: string }>(periods: readonly P[]): Map<string, P[]> {
  const out = new Map<string, P[]>();
  for (const p of periods) {
    const list = out.get(p.day);
    if (list) list.push(p);
    else out.set(p.day, [p]);
  }
  return out;
}

/** One value per day from the day's sleep periods, for a "night." or "naps." metric. */
export function sleepPeriodValues<P extends SleepPeriodLike & Record<string, unknown>>(metric: MetricDef, periods: readonly P[]): DayValue<number | null>[] {
  const out: DayValue<number | null>[] = [];
  const src = metric.source;
  for (const [day, list] of groupByDay(periods)) {
    const main = pickMainSleep(list);
    if (src.type === "night") {
      const raw = main ? main[src.column] : null;
      out.push({ day, value: typeof raw === "number" ? raw : typeof raw === "boolean" ? Number(raw) : null });
    } else if (src.type === "naps") {
      const naps = napsOf(list, main);
      if (src.aggregate === "count") out.push({ day, value: naps.length });
      else out.push({ day, value: naps.reduce((s, p) => s + (p.total_sleep_duration ?? 0), 0) });
    }
  }
  return out;
}
