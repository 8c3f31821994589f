// Personal normal ranges of the nightly physiology metrics. Pure.
//
// The method of HRV-guided training (Plews et al. 2014; HRV4Training): the value to read is
// the 7-day rolling mean of the night's value (of ln HRV, for HRV), and the normal range is
// the mean ± 0.5 SD of the 60 nights before the day. A 7-day mean below the range is
// "below", above it "above", else "within". The band is the method's convention (the
// "smallest worthwhile change"), not a validated threshold: docs/signals.md says so.
import type { MetricId } from "@/lib/metrics/catalog";
import { diffDays } from "@/lib/days";
import { toDense, warmupFrom, type DayValue, type NormalRangeSeries, type NormalState, type Transform } from "@/lib/metrics/series";
import type { Num } from "@/lib/metrics/stats";

export const NORMAL_RANGE = {
  /** nights before the day that give the range */
  windowDays: 60,
  /** nights of the rolling mean read against it (the day included) */
  baseDays: 7,
  /** the rolling mean needs this many nights of its 7 (Plews: at least 3 valid nights a week) */
  baseMinNights: 3,
  /** the range needs this many nights of its 60 (three weeks): before that, it is not shown */
  minNights: 21,
  /** half-width of the band in standard deviations */
  k: 0.5,
} as const;

/** The metrics that get a normal range, and the scale their maths is done on. */
export const NORMAL_RANGE_METRICS = {
  "readiness.temperature_deviation": "none",
  "night.lowest_heart_rate": "none",
  "night.average_heart_rate": "none",
  "night.average_hrv": "ln",
  "night.average_breath": "none",
} as const satisfies Partial<Record<MetricId, Transform>>;
export type NormalRangeMetricId = keyof typeof NORMAL_RANGE_METRICS;

export function isNormalRangeMetric(id: string): id is NormalRangeMetricId {
  return Object.prototype.hasOwnProperty.call(NORMAL_RANGE_METRICS, id);
}

/** The value on the maths' scale: ln for HRV (null for a value ≤ 0, which ln cannot take). */
export function toScale(v: number | null | undefined, t: Transform): Num {
  if (v === null || v === undefined || !Number.isFinite(v)) return null;
  if (t === "ln") return v > 0 ? Math.log(v) : null;
  return v;
}

function fromScale(x: number, t: Transform): number {
  return t === "ln" ? Math.exp(x) : x;
}

/**
 * The normal range of every slot of `values` (one per day, nulls for nights without a value):
 * each day's band from the 60 nights before it, and its 7-day mean. Slots before index 0 are
 * unknown, so the first weeks have no band (too little history) and say so through `nights`.
 * O(n) with sliding sums (shifted by the first value, so the variance keeps its precision).
 */
export function computeNormalRange(values: readonly Num[], transform: Transform): NormalRangeSeries {
  const { windowDays, baseDays, baseMinNights, minNights, k } = NORMAL_RANGE;
  const n = values.length;
  const x = values.map((v) => toScale(v, transform));
  let shift = 0;
  for (const v of x) {
    if (v !== null) {
      shift = v;
      break;
    }
  }
  const low: Num[] = new Array(n).fill(null);
  const high: Num[] = new Array(n).fill(null);
  const base7: Num[] = new Array(n).fill(null);
  const state: Array<NormalState | null> = new Array(n).fill(null);
  let s7 = 0,
    n7 = 0,
    ws = 0,
    wss = 0,
    wn = 0;
  for (let i = 0; i < n; i++) {
    // 7-day mean: the day and the 6 before it
    const xi = x[i] ?? null;
    if (xi !== null) {
      s7 += xi - shift;
      n7++;
    }
    const old7 = i - baseDays >= 0 ? (x[i - baseDays] ?? null) : null;
    if (old7 !== null) {
      s7 -= old7 - shift;
      n7--;
    }
    // the band's window: the 60 nights before the day
    const inW = i - 1 >= 0 ? (x[i - 1] ?? null) : null;
    if (inW !== null) {
      ws += inW - shift;
      wss += (inW - shift) ** 2;
      wn++;
    }
    const outW = i - windowDays - 1 >= 0 ? (x[i - windowDays - 1] ?? null) : null;
    if (outW !== null) {
      ws -= outW - shift;
      wss -= (outW - shift) ** 2;
      wn--;
    }
    const b = n7 >= baseMinNights ? s7 / n7 + shift : null;
    if (b !== null) base7[i] = fromScale(b, transform);
    if (wn >= Math.max(2, minNights)) {
      const m = ws / wn;
      const sd = Math.sqrt(Math.max(0, (wss - ws * m) / (wn - 1)));
      const mean = m + shift;
      low[i] = fromScale(mean - k * sd, transform);
      high[i] = fromScale(mean + k * sd, transform);
      if (b !== null) state[i] = b < mean - k * sd ? "below" : b > mean + k * sd ? "above" : "within";
    }
  }
  return { transform, windowDays, baseDays, minNights, k, low, high, base7, state, nights: n > 0 ? wnAt(x, n - 1, windowDays) : 0 };
}

/** Nights with a value among the `window` before slot i. */
function wnAt(x: readonly Num[], i: number, window: number): number {
  let c = 0;
  for (let j = Math.max(0, i - window); j < i; j++) if (x[j] !== null && x[j] !== undefined) c++;
  return c;
}

/** The series from slot `from` on (the days a chart shows), rounded to `decimals`. */
export function sliceNormalRange(s: NormalRangeSeries, from: number, decimals: number): NormalRangeSeries {
  const f = 10 ** decimals;
  const r = (xs: Num[]) => xs.slice(from).map((v) => (v === null ? null : Math.round(v * f) / f));
  return { ...s, low: r(s.low), high: r(s.high), base7: r(s.base7), state: s.state.slice(from) };
}

/**
 * A metric's normal range for the days `from` … `to` of a chart, from rows that reach back to
 * warmupFrom(from, to) (the series' own warm-up, longer than the 60 + 7 nights needed).
 */
export function normalRangeForChart(
  id: NormalRangeMetricId,
  rows: readonly DayValue<number | null>[],
  from: string,
  to: string,
  decimals: number,
): NormalRangeSeries {
  const start = warmupFrom(from, to);
  return sliceNormalRange(computeNormalRange(toDense(rows, start, to), NORMAL_RANGE_METRICS[id]), diffDays(start, from), decimals);
}
