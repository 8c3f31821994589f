// Personal normal ranges of the nightly physiology metrics. Pure.
//
// The method of HRV-guided training (Plews et al. 2014; HRV4Training): the value to read is
// the 7-day rolling mean of the night's value (of ln HRV, for HRV), and the normal range is
// the mean ± 0.5 SD of the 60 nights before the day. A 7-day mean below the range is
// "below", above it "above", else "within". The band is the method's convention (the
// "smallest worthwhile change"), not a validated threshold: docs/signals.md says so.
// For a person who tracks their cycle, the four early-warning markers' ranges take the phase
// into account as the early warning does (withCycleCorrections).
import type { MetricId } from "@/lib/metrics/catalog";
import { addDays, diffDays } from "@/lib/days";
import type { CycleSource } from "@/lib/signals/cycle";
import { CYCLE_ADJUST, cycleCorrections } from "@/lib/signals/cycle-adjust";
import type { Marker } from "@/lib/signals/early-warning";
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
 * normalRangeRowsFrom (the series' own warm-up, longer than the 60 + 7 nights needed; with the
 * person's cycle, 120 nights more for their phase shift): phase-corrected for the four
 * early-warning markers when a cycle is given.
 */
export function normalRangeForChart(
  id: NormalRangeMetricId,
  rows: readonly DayValue<number | null>[],
  from: string,
  to: string,
  decimals: number,
  cycle: CycleSource | null = null,
): NormalRangeSeries {
  const marker = NORMAL_RANGE_MARKERS[id];
  const start = normalRangeRowsFrom(from, to, cycle !== null && marker !== undefined);
  const dense = toDense(rows, start, to);
  let range = computeNormalRange(dense, NORMAL_RANGE_METRICS[id]);
  if (cycle && marker) {
    const inputs = { temperature_deviation: [], resting_heart_rate: [], hrv: [], breathing_rate: [], [marker]: dense };
    const corrections = cycleCorrections(inputs, cycle, diffDays(cycle.start, start)).map((c) => {
      const shift = c?.shift[marker];
      return c && shift ? { values: c.inputs[marker], share: c.share, shift } : null;
    });
    range = withCycleCorrections(range, corrections);
  }
  return sliceNormalRange(range, diffDays(start, from), decimals);
}

/** The early-warning marker of each metric whose normal range knows the cycle (the average heart rate has no shift of its own here). */
export const NORMAL_RANGE_MARKERS: Partial<Record<NormalRangeMetricId, Marker>> = {
  "readiness.temperature_deviation": "temperature_deviation",
  "night.lowest_heart_rate": "resting_heart_rate",
  "night.average_hrv": "hrv",
  "night.average_breath": "breathing_rate",
};

/** The first day of the rows normalRangeForChart reads: the chart's warm-up, and the phase shift's 120 nights before it with the cycle. */
export function normalRangeRowsFrom(from: string, to: string, withCycle: boolean): string {
  return addDays(warmupFrom(from, to), withCycle ? -CYCLE_ADJUST.shiftWindow : 0);
}

/** A day's phase correction of one metric: the metric's values with the shift taken off its luteal nights, and the share of the shift the day carries. */
export type NormalRangeCorrection = { values: readonly Num[]; share: number; shift: number } | null;

/**
 * The normal range with each day's phase correction (lib/signals/cycle-adjust.ts): the day's
 * band and 7-day mean from the corrected nights (what was known that day), then moved back to the
 * day's own level by its share of the shift, so the band steps up in the luteal phase while the
 * state compares like with like. Days without a correction keep the plain range.
 */
export function withCycleCorrections(plain: NormalRangeSeries, corrections: readonly NormalRangeCorrection[]): NormalRangeSeries {
  const { windowDays, baseDays, baseMinNights, minNights, k } = NORMAL_RANGE;
  const t = plain.transform;
  const out = { ...plain, low: [...plain.low], high: [...plain.high], base7: [...plain.base7], state: [...plain.state] };
  corrections.forEach((c, i) => {
    if (!c) return;
    const x = (j: number) => toScale(c.values[j], t);
    const win: number[] = [];
    for (let j = Math.max(0, i - windowDays); j < i; j++) {
      const v = x(j);
      if (v !== null) win.push(v);
    }
    const week: number[] = [];
    for (let j = Math.max(0, i - baseDays + 1); j <= i; j++) {
      const v = x(j);
      if (v !== null) week.push(v);
    }
    const back = c.share * c.shift;
    const b = week.length >= baseMinNights ? week.reduce((a, v) => a + v, 0) / week.length : null;
    out.base7[i] = b === null ? null : fromScale(b + back, t);
    if (win.length < Math.max(2, minNights)) return;
    const mean = win.reduce((a, v) => a + v, 0) / win.length;
    const sd = Math.sqrt(win.reduce((a, v) => a + (v - mean) ** 2, 0) / (win.length - 1));
    out.low[i] = fromScale(mean - k * sd + back, t);
    out.high[i] = fromScale(mean + k * sd + back, t);
    out.state[i] = b === null ? null : b < mean - k * sd ? "below" : b > mean + k * sd ? "above" : "within";
  });
  return out;
}
