// Sleep need: where more sleep stops helping. Pure.
//
// A segmented ("hockey-stick") regression of each day's readiness on the night's sleep and the
// week's shortfall, over the 90 nights before the day (Hudson 1966; Muggeo 2003), for every
// candidate need c from the shortest night seen to the longest (within 6–10 h, 2-minute steps):
//
//   readiness_j = α − β · max(0, c − sleep_j) − γ · week_j(c) + δ · max(0, sleep_j − c) + ε
//   week_j(c)   = the shortfall against c of the 6 nights before night j, summed (scaled up
//                 to 6 nights when some have no data; at least 3 of them needed)
//
// with β ≥ 0, γ ≥ 0 and 0 ≤ δ ≤ β/2 (readiness falls with a short night and a short week, and
// above the need may still rise a little, never more than half as steeply), fitted by least
// squares; a night whose week misses some nights weighs a tenth (its week is a guess).
// The week's term is the cumulative deficit of chronic sleep restriction (Van Dongen et al.
// 2003, whose own estimate of the need was such a breakpoint).
//
// Each candidate's profile likelihood is (RSS(c) / RSS(ĉ))^(−n/2), ĉ the best one. The need is
// the candidates' mean weighted by it (the posterior mean under a flat prior over the nights
// seen: steadier than ĉ alone where the profile has two dips); its range is every c whose
// likelihood ratio n · ln(RSS(c) / RSS(ĉ)) is within 3.84 (χ² with one degree of freedom, 95 %;
// Hinkley 1969).
//
// It cannot tell when readiness does not follow sleep (the fit beats a flat readiness by a
// likelihood ratio under 12): then the default. And when fewer than 5 of the nights were longer
// than the best candidate ĉ, the nights never reached the plateau: the need is at least the longest
// sleep among the well-rested nights (readiness at or above the window's median), and a debt
// against it is a lower bound.
//
// The cost: one pass per candidate over the nights (prefix sums of each night's products), then
// a few 4 × 4 solves per day and candidate; a year of days takes tens of milliseconds.
import type { Num } from "@/lib/metrics/stats";

export const SLEEP_NEED = {
  windowDays: 90,
  /** nights with a sleep, a readiness and at least 3 of the 6 nights before it, for an estimate */
  minNights: 28,
  minS: 6 * 3600,
  maxS: 10 * 3600,
  defaultS: 8 * 3600,
  /** the step of the candidate needs */
  stepS: 120,
  /** the nights before a night whose shortfall is its week's, and how many of them need data */
  weekNights: 6,
  weekMinNights: 3,
  /** a night whose week misses some nights (their shortfall guessed from the others) weighs this much in the fit */
  partialWeekWeight: 0.1,
  /** above the need readiness may still rise, at most this share of the slope below it */
  surplusShare: 0.5,
  /** the range: candidates within this profile likelihood ratio of the best (χ²₁, 95 %) */
  rangeRatio: 3.84,
  /** the fit must beat a flat readiness by this likelihood ratio, or the need cannot be told */
  relationRatio: 12,
  /** fewer nights longer than the estimate: the plateau was not reached */
  plateauMinNights: 5,
} as const;

export type NeedSource = "setting" | "estimated" | "default";

export type SleepNeed = {
  seconds: number;
  source: NeedSource;
  /** the nights the estimate read (estimated), or had so far (default); 0 for the setting */
  nights: number;
  /** how sure the estimate is: the need lies in low … high (seconds); null for the setting and the default */
  range: { low: number; high: number } | null;
  /** the nights never reached the plateau: the need is at least `seconds`, and a debt against it is a lower bound */
  atLeast: boolean;
};

/** The estimate for one day, or why there is none. */
export type NeedEstimate =
  | { kind: "estimate"; seconds: number; low: number; high: number; nights: number; atLeast: boolean }
  | { kind: "too_few_nights"; nights: number }
  | { kind: "no_relation"; nights: number };

const H = 3600;
/** The products of [1, u, w, v, y] a night adds to its window (upper triangle, row by row). */
const P = 15;
/** The index of (a, b) in the upper triangle of a 5 × 5 matrix, row by row. */
const tri = (a: number, b: number) => {
  const lo = Math.min(a, b);
  const hi = Math.max(a, b);
  return lo * 5 - (lo * (lo - 1)) / 2 + (hi - lo);
};

/**
 * The models tried for each candidate, as rows over [1, u, w, v] (u: the night's shortfall, w:
 * the week's, v: the night's surplus, hours; each model's columns are these combinations), and
 * the check that their coefficients keep the constraints (β = −coef(u), γ = −coef(w),
 * δ = coef(v)). The constrained least squares is the best model whose coefficients pass: one
 * model per face of the constraints, the flat readiness the last resort.
 */
type Model = { rows: readonly (readonly number[])[]; ok: (x: Float64Array) => boolean };
const K = SLEEP_NEED.surplusShare;
const ONE = [1, 0, 0, 0];
const U = [0, 1, 0, 0];
const W = [0, 0, 1, 0];
const V = [0, 0, 0, 1];
/** u − κ·v: the surplus's slope held at κ times the shortfall's (δ = κβ) */
const UV = [0, 1, 0, -K];
const MODELS: readonly Model[] = [
  // unconstrained: when it keeps the constraints, no other does better
  { rows: [ONE, U, W, V], ok: (x) => x[1]! <= 0 && x[2]! <= 0 && x[3]! >= 0 && x[3]! <= -K * x[1]! },
  { rows: [ONE, U, W], ok: (x) => x[1]! <= 0 && x[2]! <= 0 },
  { rows: [ONE, UV, W], ok: (x) => x[1]! <= 0 && x[2]! <= 0 },
  { rows: [ONE, U, V], ok: (x) => x[1]! <= 0 && x[2]! >= 0 && x[2]! <= -K * x[1]! },
  { rows: [ONE, U], ok: (x) => x[1]! <= 0 },
  { rows: [ONE, UV], ok: (x) => x[1]! <= 0 },
  { rows: [ONE, W], ok: (x) => x[1]! <= 0 },
];

// scratch space of the fits (one at a time: the maths is synchronous)
const G = new Float64Array(16);
const GY = new Float64Array(4);
const M = new Float64Array(20);
const X = new Float64Array(4);
const T = new Float64Array(4);

/** The window's sums (P products of [1, u, w, v, y]) into G (4 × 4) and GY; answers Σ y². */
function loadSums(s: ArrayLike<number>): number {
  for (let a = 0; a < 4; a++) {
    for (let b = 0; b < 4; b++) G[a * 4 + b] = s[tri(a, b)]!;
    GY[a] = s[tri(a, 4)]!;
  }
  return s[tri(4, 4)]!;
}

/** Least squares of one model from G and GY: its RSS (yy − x·X'y), or NaN when singular or outside the constraints. */
function fitModel(model: Model, yy: number): number {
  const k = model.rows.length;
  const w = k + 1;
  for (let j = 0; j < k; j++) {
    const rj = model.rows[j]!;
    for (let a = 0; a < 4; a++) {
      let v = 0;
      for (let c = 0; c < 4; c++) if (rj[c] !== 0) v += G[a * 4 + c]! * rj[c]!;
      T[a] = v;
    }
    for (let i = 0; i < k; i++) {
      const ri = model.rows[i]!;
      let v = 0;
      for (let a = 0; a < 4; a++) if (ri[a] !== 0) v += ri[a]! * T[a]!;
      M[i * w + j] = v;
    }
  }
  for (let i = 0; i < k; i++) {
    const ri = model.rows[i]!;
    let v = 0;
    for (let a = 0; a < 4; a++) if (ri[a] !== 0) v += ri[a]! * GY[a]!;
    M[i * w + k] = v;
  }
  // Gauss–Jordan with partial pivoting
  let scale = 0;
  for (let i = 0; i < k; i++) scale = Math.max(scale, Math.abs(M[i * w + i]!));
  for (let c = 0; c < k; c++) {
    let p = c;
    for (let r = c + 1; r < k; r++) if (Math.abs(M[r * w + c]!) > Math.abs(M[p * w + c]!)) p = r;
    if (!(Math.abs(M[p * w + c]!) > 1e-9 * scale)) return Number.NaN;
    if (p !== c)
      for (let q = 0; q <= k; q++) {
        const t = M[c * w + q]!;
        M[c * w + q] = M[p * w + q]!;
        M[p * w + q] = t;
      }
    for (let r = 0; r < k; r++) {
      if (r === c) continue;
      const f = M[r * w + c]! / M[c * w + c]!;
      if (f !== 0) for (let q = c; q <= k; q++) M[r * w + q]! -= f * M[c * w + q]!;
    }
  }
  let fitted = 0;
  for (let i = 0; i < k; i++) {
    X[i] = M[i * w + k]! / M[i * w + i]!;
    let b = 0;
    const ri = model.rows[i]!;
    for (let a = 0; a < 4; a++) if (ri[a] !== 0) b += ri[a]! * GY[a]!;
    fitted += X[i]! * b;
  }
  return model.ok(X) ? yy - fitted : Number.NaN;
}

/** The least residual sum of squares of the constrained model, from a window's sums. */
function constrainedRss(sums: ArrayLike<number>): number {
  const yy = loadSums(sums);
  const n = G[0]!;
  const my = GY[0]! / n;
  let best = yy - n * my * my;
  for (let m = 0; m < MODELS.length; m++) {
    const rss = fitModel(MODELS[m]!, yy);
    if (Number.isNaN(rss)) continue;
    if (rss < best) best = rss;
    if (m === 0) break;
  }
  return Math.max(best, 0);
}

/** The candidate needs, seconds (6 h … 10 h). */
export function needCandidates(): number[] {
  const out: number[] = [];
  for (let c = SLEEP_NEED.minS; c <= SLEEP_NEED.maxS; c += SLEEP_NEED.stepS) out.push(c);
  return out;
}
const CANDIDATES = needCandidates();

/** The week's shortfall of night j against c (hours, scaled up to 6 nights), and whether all 6 had data; null with fewer than 3 of them. */
function weekShortfall(sleep: readonly Num[], j: number, c: number): { hours: number; complete: boolean } | null {
  let sum = 0;
  let n = 0;
  for (let k = 1; k <= SLEEP_NEED.weekNights; k++) {
    const v = j - k >= 0 ? sleep[j - k] : null;
    if (v === null || v === undefined) continue;
    sum += Math.max(0, c - v);
    n++;
  }
  if (n < SLEEP_NEED.weekMinNights) return null;
  return { hours: (sum * SLEEP_NEED.weekNights) / n / H, complete: n === SLEEP_NEED.weekNights };
}

const usable = (sleep: readonly Num[], readiness: readonly Num[], j: number) =>
  sleep[j] !== null && sleep[j] !== undefined && readiness[j] !== null && readiness[j] !== undefined && weekShortfall(sleep, j, 0) !== null;

/**
 * The need estimated for each day from `from` to `to` (indices of the dense series), each from
 * the 90 nights before it.
 */
export function estimateSleepNeeds(sleep: readonly Num[], readiness: readonly Num[], from: number, to: number): NeedEstimate[] {
  const days = Math.max(0, to - from + 1);
  if (days === 0) return [];
  const first = Math.max(0, from - SLEEP_NEED.windowDays);
  const nightsN = Math.max(0, to - first); // nights first … to − 1
  const ok = new Uint8Array(nightsN);
  const count = new Int32Array(nightsN + 1);
  for (let t = 0; t < nightsN; t++) {
    ok[t] = usable(sleep, readiness, first + t) ? 1 : 0;
    count[t + 1] = count[t]! + ok[t]!;
  }
  const win = (i: number) => [Math.max(first, i - SLEEP_NEED.windowDays) - first, i - first] as const; // nights [a, b) of day i
  const nightsOf = (i: number) => {
    const [a, b] = win(i);
    return count[b]! - count[a]!;
  };
  // the profile: rss[d][k] for day d and candidate k, and the flat readiness's rss
  const rss = new Float64Array(days * CANDIDATES.length);
  const flat = new Float64Array(days);
  const prefix = new Float64Array((nightsN + 1) * P);
  CANDIDATES.forEach((c, k) => {
    for (let t = 0; t < nightsN; t++) {
      const o = t * P;
      const n = o + P;
      for (let q = 0; q < P; q++) prefix[n + q] = prefix[o + q]!;
      if (!ok[t]) continue;
      const j = first + t;
      const s = sleep[j]!;
      const week = weekShortfall(sleep, j, c)!;
      const x = [1, Math.max(0, c - s) / H, week.hours, Math.max(0, s - c) / H, readiness[j]!];
      const weight = week.complete ? 1 : SLEEP_NEED.partialWeekWeight;
      for (let a = 0; a < 5; a++) for (let b = a; b < 5; b++) prefix[n + tri(a, b)]! += weight * x[a]! * x[b]!;
    }
    const sums = new Float64Array(P);
    for (let d = 0; d < days; d++) {
      const i = from + d;
      if (nightsOf(i) < SLEEP_NEED.minNights) continue;
      const [a, b] = win(i);
      for (let q = 0; q < P; q++) sums[q] = prefix[b * P + q]! - prefix[a * P + q]!;
      rss[d * CANDIDATES.length + k] = constrainedRss(sums);
      if (k === 0) {
        const n = sums[tri(0, 0)]!;
        const my = sums[tri(0, 4)]! / n;
        flat[d] = sums[tri(4, 4)]! - n * my * my;
      }
    }
  });
  const out: NeedEstimate[] = [];
  for (let d = 0; d < days; d++) {
    const i = from + d;
    const n = nightsOf(i);
    if (n < SLEEP_NEED.minNights) {
      out.push({ kind: "too_few_nights", nights: n });
      continue;
    }
    const profile = rss.subarray(d * CANDIDATES.length, (d + 1) * CANDIDATES.length);
    const [a, b] = win(i);
    const nights: Array<{ s: number; r: number }> = [];
    for (let t = a; t < b; t++) if (ok[t]) nights.push({ s: sleep[first + t]!, r: readiness[first + t]! });
    // only candidates within the nights seen: beyond the longest (or the shortest) every candidate is the same model
    const span = candidateSpan(Math.min(...nights.map((x) => x.s)), Math.max(...nights.map((x) => x.s)));
    let best = span[0];
    for (let k = span[0] + 1; k <= span[1]; k++) if (profile[k]! < profile[best]! - 1e-9) best = k;
    const floor = Math.max(profile[best]!, 1e-9);
    const ratio = (k: number) => n * Math.log(Math.max(profile[k]!, floor) / floor);
    if (n * Math.log(Math.max(flat[d]!, floor) / floor) < SLEEP_NEED.relationRatio) {
      out.push({ kind: "no_relation", nights: n });
      continue;
    }
    let lo = best;
    let hi = best;
    for (let k = span[0]; k <= span[1]; k++) {
      if (ratio(k) > SLEEP_NEED.rangeRatio) continue;
      lo = Math.min(lo, k);
      hi = Math.max(hi, k);
    }
    // the need: the candidates' mean, each weighted by its likelihood (a flat prior over the nights seen)
    let sw = 0;
    let sc = 0;
    for (let k = span[0]; k <= span[1]; k++) {
      const weight = Math.exp(-0.5 * ratio(k));
      sw += weight;
      sc += weight * CANDIDATES[k]!;
    }
    const c = Math.round(sc / sw);
    if (nights.filter((x) => x.s > CANDIDATES[best]!).length < SLEEP_NEED.plateauMinNights) {
      const median = medianOf(nights.map((x) => x.r));
      const longest = Math.max(...nights.filter((x) => x.r >= median).map((x) => x.s));
      const least = Math.min(SLEEP_NEED.maxS, Math.max(SLEEP_NEED.minS, longest));
      out.push({ kind: "estimate", seconds: least, low: least, high: SLEEP_NEED.maxS, nights: n, atLeast: true });
      continue;
    }
    out.push({ kind: "estimate", seconds: c, low: Math.min(c, CANDIDATES[lo]!), high: Math.max(c, CANDIDATES[hi]!), nights: n, atLeast: false });
  }
  return out;
}

/** The candidates (indices) from the shortest night seen to the longest, at least one. */
function candidateSpan(shortest: number, longest: number): [number, number] {
  const last = CANDIDATES.length - 1;
  const at = (s: number) => Math.min(last, Math.max(0, Math.round((s - SLEEP_NEED.minS) / SLEEP_NEED.stepS)));
  return [at(shortest), Math.max(at(shortest), at(longest))];
}

function medianOf(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** The need on each day from `from` to `to`: the setting (seconds), else the estimate, else the default. */
export function sleepNeeds(sleep: readonly Num[], readiness: readonly Num[], from: number, to: number, settingS: number | null): SleepNeed[] {
  if (settingS !== null)
    return Array.from({ length: Math.max(0, to - from + 1) }, () => ({
      seconds: settingS,
      source: "setting" as const,
      nights: 0,
      range: null,
      atLeast: false,
    }));
  return estimateSleepNeeds(sleep, readiness, from, to).map((e) =>
    e.kind === "estimate"
      ? { seconds: e.seconds, source: "estimated", nights: e.nights, range: { low: e.low, high: e.high }, atLeast: e.atLeast }
      : { seconds: SLEEP_NEED.defaultS, source: "default", nights: e.nights, range: null, atLeast: false },
  );
}

/** The need on slot i (see sleepNeeds). */
export function sleepNeedAt(sleep: readonly Num[], readiness: readonly Num[], i: number, settingS: number | null): SleepNeed {
  return sleepNeeds(sleep, readiness, i, i, settingS)[0]!;
}

/** Where the need comes from, in words: "your setting", "estimated from 84 nights", "default". */
export function needSourceWords(need: Pick<SleepNeed, "source" | "nights">): string {
  if (need.source === "setting") return "your setting";
  if (need.source === "estimated") return `estimated from ${need.nights} nights`;
  return "default";
}
