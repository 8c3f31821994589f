// Pure statistics over dense daily series. A series is an array with one slot per calendar
// day; a missing day is null. Gaps are gaps: null slots never count as zeros, they are left
// out of every mean, and each statistic needs a minimum number of real values (below) before
// it says anything at all.

export type Num = number | null;

/** Trailing rolling means (the window includes the day itself) and their minimum counts. */
export const ROLLING_WINDOWS = [7, 30] as const;
export type RollingWindow = (typeof ROLLING_WINDOWS)[number];
export const ROLLING_MIN_COUNT: Record<RollingWindow, number> = { 7: 4, 30: 15 };

/** The personal baseline of a day: the mean and spread of the 90 days before it. */
export const BASELINE_DAYS = 90;
export const BASELINE_MIN_COUNT = 30;
/** The baseline band is mean ± BASELINE_BAND_SD × standard deviation. */
export const BASELINE_BAND_SD = 2;
/** A run: at least this many consecutive days outside the band on the same side. */
export const ANOMALY_RUN_LENGTH = 3;
/** "Change against the 7-day mean" compares a day with the mean of the 7 days before it. */
export const PRIOR_MEAN_DAYS = 7;
export const PRIOR_MEAN_MIN_COUNT = 4;
/** Pearson correlation needs at least this many pairs. */
export const CORRELATION_MIN_N = 10;
/** Tagged-vs-untagged comparison needs at least this many days in each group. */
export const GROUP_MIN_N = 3;

export type MeanResult = { mean: number | null; n: number };
export type MeanSd = { mean: number; sd: number; n: number };
export type Baseline = { mean: number; sd: number; low: number; high: number; n: number };
export type AnomalyFlag = "high" | "low" | null;

/** Minimum values a period of `days` days needs for its mean: a quarter of it, at least 3. */
export function periodMinCount(days: number): number {
  return Math.max(Math.min(3, days), Math.ceil(days / 4));
}

/** Mean of the non-null values of `values[from..to]` (inclusive; out-of-range slots are gaps). */
export function meanOf(values: readonly Num[], from = 0, to = values.length - 1, minCount = 1): MeanResult {
  let sum = 0;
  let n = 0;
  const lo = Math.max(0, from);
  const hi = Math.min(values.length - 1, to);
  for (let i = lo; i <= hi; i++) {
    const v = values[i];
    if (v !== null && v !== undefined) {
      sum += v;
      n++;
    }
  }
  return { mean: n >= Math.max(1, minCount) ? sum / n : null, n };
}

/** Mean and sample standard deviation (n − 1) of the non-null values; null below minCount. */
export function meanSd(values: readonly Num[], minCount = 2): MeanSd | null {
  let n = 0;
  let mean = 0;
  let m2 = 0;
  for (const v of values) {
    if (v === null || v === undefined) continue;
    n++;
    const d = v - mean;
    mean += d / n;
    m2 += d * (v - mean);
  }
  if (n < Math.max(2, minCount)) return null;
  return { mean, sd: Math.sqrt(m2 / (n - 1)), n };
}

/** Trailing rolling mean over `window` days (the day and the window − 1 before it). */
export function rollingMean(values: readonly Num[], window: number, minCount: number): Num[] {
  const out: Num[] = new Array(values.length);
  let sum = 0;
  let n = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v !== null && v !== undefined) {
      sum += v;
      n++;
    }
    const old = i - window >= 0 ? values[i - window] : null;
    if (old !== null && old !== undefined) {
      sum -= old;
      n--;
    }
    out[i] = n >= minCount ? sum / n : null;
  }
  return out;
}

function bandOf(mean: number, sd: number, n: number, k: number): Baseline {
  return { mean, sd, low: mean - k * sd, high: mean + k * sd, n };
}

/** The baseline of each day: mean and spread of the `days` days before it (the day excluded). */
export function baselines(values: readonly Num[], opts: { days?: number; minCount?: number; k?: number } = {}): Array<Baseline | null> {
  const days = opts.days ?? BASELINE_DAYS;
  const minCount = opts.minCount ?? BASELINE_MIN_COUNT;
  const k = opts.k ?? BASELINE_BAND_SD;
  const out: Array<Baseline | null> = new Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const window = values.slice(Math.max(0, i - days), i);
    const ms = meanSd(window, minCount);
    out[i] = ms ? bandOf(ms.mean, ms.sd, ms.n, k) : null;
  }
  return out;
}

/** "high"/"low" when the value lies outside its baseline band. */
export function anomalyFlag(value: Num, baseline: Baseline | null): AnomalyFlag {
  if (value === null || baseline === null) return null;
  if (value > baseline.high) return "high";
  if (value < baseline.low) return "low";
  return null;
}

/** Marks every day that belongs to a run of ≥ minLength consecutive same-side flags.
 * A gap (or an unflagged day) ends a run. */
export function anomalyRuns(flags: readonly AnomalyFlag[], minLength = ANOMALY_RUN_LENGTH): boolean[] {
  const out = new Array<boolean>(flags.length).fill(false);
  let start = 0;
  for (let i = 0; i <= flags.length; i++) {
    const f = i < flags.length ? flags[i] : null;
    const prev = i > 0 ? flags[i - 1] : null;
    if (i === flags.length || f === null || f !== prev) {
      const runLen = i - start;
      if (prev !== null && prev !== undefined && runLen >= minLength) out.fill(true, start, i);
      start = i;
    }
  }
  return out;
}

/** Per-day statistics of a series (`run`: days that belong to a run of out-of-band days). */
export type SeriesStats = {
  avg7: Num[];
  avg30: Num[];
  baseMean: Num[];
  baseLow: Num[];
  baseHigh: Num[];
  flag: AnomalyFlag[];
  run: boolean[];
};

/**
 * Everything a trend chart shows, in one pass over the series: the 7- and 30-day rolling
 * means, the 90-day baseline band and the anomaly flags. Same results as rollingMean,
 * baselines, anomalyFlag and anomalyRuns (which the tests check), in O(n).
 */
export function computeSeriesStats(
  values: readonly Num[],
  opts: { baselineDays?: number; baselineMinCount?: number; k?: number; runLength?: number } = {},
): SeriesStats {
  const N = values.length;
  const bDays = opts.baselineDays ?? BASELINE_DAYS;
  const bMin = Math.max(2, opts.baselineMinCount ?? BASELINE_MIN_COUNT);
  const k = opts.k ?? BASELINE_BAND_SD;
  const avg7: Num[] = new Array(N);
  const avg30: Num[] = new Array(N);
  const baseMean: Num[] = new Array(N);
  const baseLow: Num[] = new Array(N);
  const baseHigh: Num[] = new Array(N);
  const flag: AnomalyFlag[] = new Array(N);

  // Values are shifted by the first real value before squaring so the sliding variance
  // keeps its precision (no catastrophic cancellation for large, steady numbers).
  let shift = 0;
  for (const v of values) {
    if (v !== null && v !== undefined) {
      shift = v;
      break;
    }
  }
  let s7 = 0,
    n7 = 0,
    s30 = 0,
    n30 = 0,
    bs = 0,
    bss = 0,
    bn = 0;
  for (let i = 0; i < N; i++) {
    // baseline window = [i − bDays, i − 1]: bring in i − 1, drop i − bDays − 1
    const inB = i - 1 >= 0 ? values[i - 1] : null;
    if (inB !== null && inB !== undefined) {
      const x = inB - shift;
      bs += x;
      bss += x * x;
      bn++;
    }
    const outB = i - bDays - 1 >= 0 ? values[i - bDays - 1] : null;
    if (outB !== null && outB !== undefined) {
      const x = outB - shift;
      bs -= x;
      bss -= x * x;
      bn--;
    }
    const v = values[i] ?? null;
    if (v !== null) {
      s7 += v;
      n7++;
      s30 += v;
      n30++;
    }
    const o7 = i - 7 >= 0 ? values[i - 7] : null;
    if (o7 !== null && o7 !== undefined) {
      s7 -= o7;
      n7--;
    }
    const o30 = i - 30 >= 0 ? values[i - 30] : null;
    if (o30 !== null && o30 !== undefined) {
      s30 -= o30;
      n30--;
    }
    avg7[i] = n7 >= ROLLING_MIN_COUNT[7] ? s7 / n7 : null;
    avg30[i] = n30 >= ROLLING_MIN_COUNT[30] ? s30 / n30 : null;
    if (bn >= bMin) {
      const m = bs / bn;
      const variance = Math.max(0, (bss - bs * m) / (bn - 1));
      const sd = Math.sqrt(variance);
      const mean = m + shift;
      baseMean[i] = mean;
      baseLow[i] = mean - k * sd;
      baseHigh[i] = mean + k * sd;
      flag[i] = v === null ? null : v > mean + k * sd ? "high" : v < mean - k * sd ? "low" : null;
    } else {
      baseMean[i] = null;
      baseLow[i] = null;
      baseHigh[i] = null;
      flag[i] = null;
    }
  }
  return { avg7, avg30, baseMean, baseLow, baseHigh, flag, run: anomalyRuns(flag, opts.runLength) };
}

export type PeriodComparison = {
  days: number;
  current: MeanResult;
  previous: MeanResult;
  /** current − previous, when both periods have enough values */
  delta: number | null;
  /** delta as a fraction of |previous| (null when previous is 0) */
  deltaPct: number | null;
  minCount: number;
};

/**
 * This period (`values[from..to]`) against the one of the same length just before it.
 * Slots before index 0 are gaps, so a period with no history before it has no comparison.
 */
export function comparePeriods(values: readonly Num[], from: number, to: number): PeriodComparison {
  const days = to - from + 1;
  const minCount = periodMinCount(days);
  const current = meanOf(values, from, to, minCount);
  const previous = meanOf(values, from - days, from - 1, minCount);
  const delta = current.mean !== null && previous.mean !== null ? current.mean - previous.mean : null;
  const deltaPct = delta !== null && previous.mean ? delta / Math.abs(previous.mean) : null;
  return { days, current, previous, delta, deltaPct, minCount };
}

export type DaySummary = {
  value: Num;
  /** mean of the 7 days before the day */
  prior7: MeanResult;
  /** value − prior7 mean */
  delta: number | null;
  baseline: Baseline | null;
  flag: AnomalyFlag;
};

/** A day against its recent past: the 7-day mean before it and its 90-day baseline. */
export function summarizeDay(values: readonly Num[], index: number): DaySummary {
  const value = values[index] ?? null;
  const prior7 = meanOf(values, index - PRIOR_MEAN_DAYS, index - 1, PRIOR_MEAN_MIN_COUNT);
  const ms = meanSd(values.slice(Math.max(0, index - BASELINE_DAYS), Math.max(0, index)), BASELINE_MIN_COUNT);
  const baseline = ms ? bandOf(ms.mean, ms.sd, ms.n, BASELINE_BAND_SD) : null;
  return {
    value,
    prior7,
    delta: value !== null && prior7.mean !== null ? value - prior7.mean : null,
    baseline,
    flag: anomalyFlag(value, baseline),
  };
}

export type Correlation = {
  r: number;
  n: number;
  /** least-squares line y = slope·x + intercept */
  slope: number;
  intercept: number;
  /** 95% confidence interval of r (Fisher z), when n > 3 */
  ciLow: number | null;
  ciHigh: number | null;
};

/** Pearson's r of paired values (pairs with a null on either side are skipped). */
export function pearson(xs: readonly Num[], ys: readonly Num[], minN = CORRELATION_MIN_N): Correlation | null {
  const len = Math.min(xs.length, ys.length);
  let n = 0,
    sx = 0,
    sy = 0,
    sxx = 0,
    syy = 0,
    sxy = 0;
  let x0: number | null = null;
  let y0 = 0;
  for (let i = 0; i < len; i++) {
    const x = xs[i];
    const y = ys[i];
    if (x === null || x === undefined || y === null || y === undefined) continue;
    if (x0 === null) {
      x0 = x;
      y0 = y;
    }
    const dx = x - x0;
    const dy = y - y0;
    n++;
    sx += dx;
    sy += dy;
    sxx += dx * dx;
    syy += dy * dy;
    sxy += dx * dy;
  }
  if (n < Math.max(3, minN) || x0 === null) return null;
  const covN = sxy - (sx * sy) / n;
  const varXN = sxx - (sx * sx) / n;
  const varYN = syy - (sy * sy) / n;
  if (varXN <= 1e-12 || varYN <= 1e-12) return null;
  const r = Math.max(-1, Math.min(1, covN / Math.sqrt(varXN * varYN)));
  const slope = covN / varXN;
  const intercept = sy / n + y0 - slope * (sx / n + x0);
  let ciLow: number | null = null;
  let ciHigh: number | null = null;
  if (n > 3 && Math.abs(r) < 1) {
    const z = Math.atanh(r);
    const se = 1 / Math.sqrt(n - 3);
    ciLow = Math.tanh(z - 1.96 * se);
    ciHigh = Math.tanh(z + 1.96 * se);
  }
  return { r, n, slope, intercept, ciLow, ciHigh };
}

/** Pairs x on day d with y on day d + lag (both series on the same days). */
export function laggedPairs(xs: readonly Num[], ys: readonly Num[], lag: number): { x: Num[]; y: Num[] } {
  const len = Math.min(xs.length, ys.length);
  const x: Num[] = [];
  const y: Num[] = [];
  for (let i = Math.max(0, -lag); i < len && i + lag < len; i++) {
    x.push(xs[i] ?? null);
    y.push(ys[i + lag] ?? null);
  }
  return { x, y };
}

/** Pearson's r of x on day d against y on day d + lag. */
export function laggedCorrelation(xs: readonly Num[], ys: readonly Num[], lag: number, minN = CORRELATION_MIN_N): Correlation | null {
  const p = laggedPairs(xs, ys, lag);
  return pearson(p.x, p.y, minN);
}

/** Words for |r|. */
export function correlationStrength(r: number): "negligible" | "weak" | "moderate" | "strong" {
  const a = Math.abs(r);
  if (a < 0.1) return "negligible";
  if (a < 0.3) return "weak";
  if (a < 0.5) return "moderate";
  return "strong";
}

export type GroupComparison = {
  tagged: MeanResult & { sd: number | null };
  untagged: MeanResult & { sd: number | null };
  /** tagged − untagged, when each group has at least GROUP_MIN_N days */
  difference: number | null;
  differencePct: number | null;
  lag: number;
};

/**
 * A metric on tagged days against untagged days. With lag 1 the value of the day after each
 * day is used (e.g. a late evening's tag against the next night's sleep).
 */
export function compareTagged(values: readonly Num[], tagged: readonly boolean[], lag = 0, minN = GROUP_MIN_N): GroupComparison {
  const a: number[] = [];
  const b: number[] = [];
  const len = Math.min(values.length, tagged.length);
  for (let i = 0; i < len; i++) {
    const j = i + lag;
    if (j < 0 || j >= values.length) continue;
    const v = values[j];
    if (v === null || v === undefined) continue;
    (tagged[i] ? a : b).push(v);
  }
  const stat = (xs: number[]) => {
    const ms = meanSd(xs, 2);
    const m = meanOf(xs);
    return { mean: m.mean, n: m.n, sd: ms ? ms.sd : null };
  };
  const ta = stat(a);
  const tb = stat(b);
  const ok = ta.n >= minN && tb.n >= minN && ta.mean !== null && tb.mean !== null;
  const difference = ok ? ta.mean! - tb.mean! : null;
  return {
    tagged: ta,
    untagged: tb,
    difference,
    differencePct: difference !== null && tb.mean ? difference / Math.abs(tb.mean) : null,
    lag,
  };
}

/** Counts of each category value (nulls left out) over values[from..to]. */
export function countCategories(values: readonly (string | null)[], from = 0, to = values.length - 1): { counts: Record<string, number>; n: number } {
  const counts: Record<string, number> = {};
  let n = 0;
  for (let i = Math.max(0, from); i <= Math.min(values.length - 1, to); i++) {
    const v = values[i];
    if (v === null || v === undefined) continue;
    counts[v] = (counts[v] ?? 0) + 1;
    n++;
  }
  return { counts, n };
}
