// The menstrual cycle from the ring's own nights and the person's own entries. Pure.
//
// Period starts come from the person's entries and from the ring service's served
// daily_cycle_phases documents (a day with cycle_day 1, or the first menstrual day), an entry
// winning over a document a few days away. Ovulation is read from the biphasic nightly
// temperature deviation (docs/signals.md cites each rule):
//   - in the current cycle, the three-over-six rule: three nights each above the highest of the
//     six nights before them (Bioscience Reports 2018, BSR20171279), confirmed on the third, or
//     earlier by a strict step fit of the cycle's nights so far;
//   - in a completed cycle (its next start known), a least-squares step fit of the cycle's
//     nights (a change point, as in Royston & Abrams 1980), kept when the rise is significant,
//     fitted again near the person's usual luteal length once three cycles show one.
// The fits read temperature and the lowest heart rate together (both biphasic) and leave an
// illness's nights out. The ovulation is the night before the first high night. The next period is predicted from the
// person's own completed cycles: ovulation + their median luteal length once a shift is seen,
// else the cycle's start + their median cycle length, with the spread of those lengths.
import type { CycleEntry, CyclePhase } from "@/lib/cycle";
import { addDays, diffDays } from "@/lib/days";
import type { Num } from "@/lib/metrics/stats";

export const CYCLE = {
  /** three-over-six: high nights, and the low nights before them whose highest they must clear */
  highNights: 3,
  lowNights: 6,
  /** °C each high night must clear the highest low night by */
  margin: 0.05,
  /** the largest rise read as the luteal shift (°C): a larger jump is fever, not progesterone */
  maxRise: 0.8,
  /** the earliest cycle day a shift may start on (follicular phase 95 % range 10–30 days, Bull et al. 2019) */
  minShiftCycleDay: 8,
  /** step fit: nights needed each side, the t statistic and rise (°C) a completed cycle's shift must reach */
  fitMinSide: 4,
  fitMinT: 2.5,
  fitMinRise: 0.1,
  /** a completed cycle's first luteal night lies 6 … 16 nights before its end (luteal phase, ovulation to next start, 7–17 days: Bull et al.) */
  lutealMin: 6,
  lutealMax: 16,
  /** the refit of a completed cycle near the person's usual luteal length: cycles with a shift needed, days either side, t statistic */
  priorCycles: 3,
  priorDays: 3,
  priorMinT: 2,
  /** a night this much (°C) warmer than its cycle's median, or its score as much higher, is left out of the fit (an illness) */
  feverAbove: 0.5,
  /** a night whose lowest heart rate is this much (bpm) above its cycle's median is an illness's (the early warning's +4) */
  illHeartRateAbove: 4,
  /** the step fit's score: each marker's usual nightly noise, and the heart rate's weight against the temperature's */
  score: { temperature: { noise: 0.1 }, heartRate: { noise: 1.5, weight: 0.5 } },
  /** the current cycle: also a step fit over its nights so far, with this many nights after the split and this t statistic */
  onlineMinAfter: 3,
  onlineMinT: 3.5,
  /** menstrual days when no period end was logged */
  menstrualDays: 5,
  /** a logged period end counts within this many days of its start */
  maxMenstrualDays: 10,
  /** cycle lengths read as cycles (shorter: the same period logged twice; longer: a start not logged) */
  minLength: 15,
  maxLength: 60,
  /** completed cycles needed before a prediction, and the most recent read */
  predictionMinCycles: 2,
  predictionCycles: 12,
  /** luteal length (days from ovulation to the next start) until the person has two of their own (Bull et al. 12.4) */
  defaultLuteal: 13,
  /** the smallest spread of a prediction (days) */
  minSd: 1,
  /** a document's period start within this many days of an entry's is the same period */
  sameStartDays: 5,
  /** the longest follicular phase assumed before the current cycle's phase becomes unknown */
  defaultMaxFollicular: 21,
} as const;

/** A served daily_cycle_phases document's fields that are read (every one optional). */
export type CycleDocument = { day: string; phase: string | null; cycle_day: number | null; predicted: boolean | null };

/** The nights and the period starts and ends, from `start` (index 0) on. */
export type CycleSource = {
  start: string;
  /** nightly temperature deviation (°C), one slot per day from `start` */
  temperature: readonly Num[];
  /** the night's lowest heart rate (bpm), same slots; helps the step fit where there */
  heartRate?: readonly Num[];
  /** period start days, sorted */
  periodStarts: readonly string[];
  /** period end days, sorted */
  periodEnds: readonly string[];
};

export type DetectedCycle = {
  /** index of the first day */
  start: number;
  /** index of the next cycle's first day (null: the current cycle) */
  end: number | null;
  /** index of the last menstrual day */
  menstrualEnd: number;
  /** index of the first luteal night (null: no shift found) */
  shift: number | null;
  /** index of the ovulation (the night before the shift) */
  ovulation: number | null;
};

export type CyclePrediction = { center: number; from: number; to: number; sd: number; basis: "ovulation" | "cycle_length" };

export type CycleAnalysis = {
  cycles: DetectedCycle[];
  prediction: CyclePrediction | null;
  /** the person's own completed cycle lengths and luteal lengths read (most recent last) */
  lengths: number[];
  lutealLengths: number[];
  /** the longest follicular phase seen (days from start to ovulation), or the default */
  maxFollicular: number;
  /** the earliest the shift usually comes (days from the start: the person's shortest usual follicular phase), null before two cycles with one */
  usualShiftFrom: number | null;
};

const isMenstrualPhase = (p: string | null): boolean => p !== null && /menstru|period|bleed/i.test(p);

/** Period starts and ends from the entries and the served documents (predicted ones left out), sorted. */
export function periodDaysFrom(entries: readonly CycleEntry[], documents: readonly CycleDocument[]): { starts: string[]; ends: string[] } {
  const starts = new Set(entries.filter((e) => e.kind === "period_start").map((e) => e.day));
  const ends = new Set(entries.filter((e) => e.kind === "period_end").map((e) => e.day));
  const fromEntries = [...starts];
  const docs = [...documents].filter((d) => d.predicted !== true).sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
  const byDay = new Map(docs.map((d) => [d.day, d]));
  for (const d of docs) {
    const prev = byDay.get(addDays(d.day, -1));
    const isStart = d.cycle_day === 1 || (d.cycle_day === null && isMenstrualPhase(d.phase) && !(prev && isMenstrualPhase(prev.phase)));
    if (!isStart) continue;
    if (fromEntries.some((e) => Math.abs(diffDays(e, d.day)) <= CYCLE.sameStartDays)) continue;
    starts.add(d.day);
  }
  return { starts: [...starts].sort(), ends: [...ends].sort() };
}

function nonNull(t: readonly Num[], from: number, to: number): number[] {
  const out: number[] = [];
  for (let j = Math.max(0, from); j <= to; j++) {
    const v = t[j];
    if (v !== null && v !== undefined) out.push(v);
  }
  return out;
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/**
 * The three-over-six rule on nights from..to: the first night k with a value such that it and
 * the next two nights with a value (within four nights) are each above the highest of the six
 * nights with a value before k (plus the margin), and the rise is not fever-sized.
 * Answers k and the night that confirmed it, or null.
 */
export function threeOverSix(t: readonly Num[], from: number, to: number): { shift: number; confirmed: number } | null {
  const { highNights, lowNights, margin, maxRise } = CYCLE;
  for (let k = Math.max(from, 0); k <= to; k++) {
    if (t[k] === null || t[k] === undefined) continue;
    const lows: number[] = [];
    for (let j = k - 1; j >= 0 && j >= k - lowNights - 3 && lows.length < lowNights; j--) {
      const v = t[j];
      if (v !== null && v !== undefined) lows.push(v);
    }
    if (lows.length < lowNights) continue;
    const highs: number[] = [];
    let last = k;
    for (let j = k; j <= Math.min(to, k + highNights + 1) && highs.length < highNights; j++) {
      const v = t[j];
      if (v !== null && v !== undefined) {
        highs.push(v);
        last = j;
      }
    }
    if (highs.length < highNights) continue;
    const cover = Math.max(...lows);
    if (highs.every((h) => h > cover + margin) && mean(highs) - mean(lows) <= maxRise) return { shift: k, confirmed: last };
  }
  return null;
}

/**
 * A completed cycle's shift (the first luteal night) by a least-squares step fit over its nights
 * start..end−1: the split with the largest t statistic of the rise, kept when it is significant.
 */
export function fitShift(
  t: readonly Num[],
  start: number,
  end: number,
  online = false,
  temperature: readonly Num[] = t,
  usualLuteal: number | null = null,
  heartRate: readonly Num[] | undefined = undefined,
  earliest: number | null = null,
): number | null {
  const { fitMinSide, fitMinRise, maxRise, lutealMin, lutealMax, minShiftCycleDay } = CYCLE;
  let best: { k: number; t: number; rise: number } | null = null;
  const kept = withoutFever(t, temperature, heartRate, start, end);
  const temps = kept === t ? temperature : temperature.map((v, j) => (kept[j] === null ? null : v));
  t = kept;
  const prior = usualLuteal === null ? null : { lo: end - usualLuteal - CYCLE.priorDays, hi: end - usualLuteal + CYCLE.priorDays };
  const lo = Math.max(
    online ? start + minShiftCycleDay - 1 : Math.max(start + minShiftCycleDay - 1, end - lutealMax),
    prior?.lo ?? -Infinity,
    earliest ?? -Infinity,
  );
  const hi = Math.min(online ? end - CYCLE.onlineMinAfter : end - lutealMin, prior?.hi ?? Infinity);
  const fitMinT = online ? CYCLE.onlineMinT : prior ? CYCLE.priorMinT : CYCLE.fitMinT;
  for (let k = lo; k <= hi; k++) {
    const before = nonNull(t, start, k - 1);
    const after = nonNull(t, k, end - 1);
    if (before.length < fitMinSide || after.length < fitMinSide) continue;
    const mb = mean(before);
    const ma = mean(after);
    const ss = before.reduce((a, v) => a + (v - mb) ** 2, 0) + after.reduce((a, v) => a + (v - ma) ** 2, 0);
    const sd = Math.max(Math.sqrt(ss / (before.length + after.length - 2)), 0.3);
    const stat = ((ma - mb) / sd) * Math.sqrt((before.length * after.length) / (before.length + after.length));
    if (!best || stat > best.t) best = { k, t: stat, rise: ma - mb };
  }
  if (!best || best.t < fitMinT) return null;
  const before = nonNull(temps, start, best.k - 1);
  const after = nonNull(temps, best.k, end - 1);
  const rise = before.length && after.length ? mean(after) - mean(before) : 0;
  return rise >= fitMinRise && rise <= maxRise ? best.k : null;
}

function sampleSd(xs: readonly number[]): number | null {
  if (xs.length < 2) return null;
  const m = mean(xs);
  return Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / (xs.length - 1));
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/**
 * The score with the nights of a fever left out: a night warmer than the cycle's median by more
 * than CYCLE.feverAbove is an illness, not the luteal phase, and would pull the fit to it.
 */
function withoutFever(score: readonly Num[], temperature: readonly Num[], heartRate: readonly Num[] | undefined, start: number, end: number): readonly Num[] {
  const temps = nonNull(temperature, start, end - 1);
  if (temps.length === 0) return score;
  const limit = median(temps) + CYCLE.feverAbove;
  const scoreLimit = median(nonNull(score, start, end - 1)) + CYCLE.feverAbove / CYCLE.score.temperature.noise;
  const rates = heartRate ? nonNull(heartRate, start, end - 1) : [];
  const hrLimit = rates.length ? median(rates) + CYCLE.illHeartRateAbove : Infinity;
  const ill = (j: number) => {
    const v = temperature[j];
    const x = score[j];
    const h = heartRate?.[j];
    return (v !== null && v !== undefined && v > limit) || (x !== null && x !== undefined && x > scoreLimit) || (h !== null && h !== undefined && h > hrLimit);
  };
  let out: Num[] | null = null;
  for (let j = Math.max(0, start); j < end; j++) {
    if (ill(j)) (out ??= score.slice())[j] = null;
  }
  return out ?? score;
}

const scores = new WeakMap<CycleSource, Num[]>();

/**
 * The nightly score the step fit reads: temperature and, where the night has one, the lowest
 * heart rate, both biphasic (Alzueta et al. 2022; Shilaih et al. 2017), each in units of its usual
 * nightly noise and weighted by how clearly it shifts (temperature ≈ 3 noise units, heart rate ≈ 1.3).
 */
export function shiftScore(src: CycleSource): Num[] {
  const kept = scores.get(src);
  if (kept) return kept;
  const { temperature, heartRate } = CYCLE.score;
  const out = src.temperature.map((v, i) => {
    if (v === null || v === undefined) return null;
    const hr = src.heartRate?.[i];
    return v / temperature.noise + (hr === null || hr === undefined ? 0 : (heartRate.weight * hr) / heartRate.noise);
  });
  scores.set(src, out);
  return out;
}

/** Completed cycles' fits, kept between the nights of one computation (a cycle's fit reads only its own nights). */
export type FitCache = Map<string, number | null>;

/**
 * The cycles as they were known on night `asOf` (index): the starts up to it, each completed
 * cycle's fitted shift, the current cycle's three-over-six shift confirmed by then, and the
 * prediction of the next start made then.
 */
export function analyseCycles(src: CycleSource, asOf: number, cache: FitCache = new Map()): CycleAnalysis {
  const t = src.temperature;
  const score = shiftScore(src);
  const startIdx: number[] = [];
  for (const day of src.periodStarts) {
    const i = diffDays(src.start, day);
    if (i < 0 || i > asOf) continue;
    const prev = startIdx[startIdx.length - 1];
    if (prev !== undefined && i - prev < CYCLE.minLength) continue;
    startIdx.push(i);
  }
  const endIdx = src.periodEnds.map((d) => diffDays(src.start, d)).filter((i) => i <= asOf);
  const cycles: DetectedCycle[] = [];
  const lengths: number[] = [];
  const lutealLengths: number[] = [];
  const follicular: number[] = [];
  for (let c = 0; c < startIdx.length; c++) {
    const s = startIdx[c]!;
    const next = startIdx[c + 1] ?? null;
    const loggedEnd = endIdx.find((e) => e >= s && e - s < CYCLE.maxMenstrualDays && (next === null || e < next));
    const menstrualEnd = loggedEnd ?? s + CYCLE.menstrualDays - 1;
    let shift: number | null;
    if (next !== null) {
      const key = `${s}:${next}`;
      if (!cache.has(key)) cache.set(key, next - s <= CYCLE.maxLength ? fitShift(score, s, next, false, t, null, src.heartRate) : null);
      shift = cache.get(key)!;
    } else shift = null; // the current cycle's, below: once the person's usual follicular phase is known
    cycles.push({ start: s, end: next, menstrualEnd, shift, ovulation: shift === null ? null : shift - 1 });
  }
  // The luteal phase is the steady one within a woman: once three cycles have a shift, each
  // completed cycle is fitted again within a few days of her usual luteal length.
  const free = cycles.filter((c) => c.end !== null && c.shift !== null).map((c) => c.end! - c.shift!);
  const usual = free.length >= CYCLE.priorCycles ? Math.round(median(free.slice(-CYCLE.predictionCycles))) : null;
  for (const c of cycles) {
    if (c.end === null) continue;
    if (usual !== null && c.end - c.start <= CYCLE.maxLength) {
      const key = `${c.start}:${c.end}:${usual}`;
      if (!cache.has(key)) cache.set(key, fitShift(score, c.start, c.end, false, t, usual, src.heartRate));
      const refit = cache.get(key)!;
      if (refit !== null || (c.shift !== null && Math.abs(c.end - c.shift - usual) > CYCLE.priorDays)) {
        c.shift = refit;
        c.ovulation = refit === null ? null : refit - 1;
      }
    }
    if (c.end - c.start <= CYCLE.maxLength) {
      lengths.push(c.end - c.start);
      if (c.shift !== null) {
        lutealLengths.push(c.end - (c.shift - 1));
        follicular.push(c.shift - 1 - c.start);
      }
    }
  }
  // The current cycle: a shift confirmed by tonight, not before the earliest the person's
  // completed cycles had theirs (less a margin), so a chance rise early in the cycle is no ovulation.
  const current = cycles[cycles.length - 1];
  if (current && current.end === null) {
    const own = follicular.slice(-CYCLE.predictionCycles);
    const earliest = current.start + Math.max(CYCLE.minShiftCycleDay - 1, own.length >= CYCLE.priorCycles ? Math.min(...own) + 1 - CYCLE.priorDays : 0);
    const found = threeOverSix(t, earliest, asOf);
    current.shift = found && found.confirmed <= asOf ? found.shift : fitShift(score, current.start, asOf + 1, true, t, null, src.heartRate, earliest);
    current.ovulation = current.shift === null ? null : current.shift - 1;
  }
  const recent = lengths.slice(-CYCLE.predictionCycles);
  const recentLuteal = lutealLengths.slice(-CYCLE.predictionCycles);
  const maxFollicular = follicular.length >= 2 ? Math.max(...follicular) + 2 : CYCLE.defaultMaxFollicular;
  let prediction: CyclePrediction | null = null;
  if (current && current.end === null && recent.length >= CYCLE.predictionMinCycles) {
    if (current.ovulation !== null) {
      const own = recentLuteal.length >= CYCLE.predictionMinCycles;
      const center = current.ovulation + (own ? Math.round(median(recentLuteal)) : CYCLE.defaultLuteal);
      const sd = Math.max(CYCLE.minSd, own ? (sampleSd(recentLuteal) ?? CYCLE.minSd) : 2);
      prediction = window(center, sd, "ovulation");
    } else {
      const center = current.start + Math.round(median(recent));
      prediction = window(center, Math.max(CYCLE.minSd, sampleSd(recent) ?? CYCLE.minSd), "cycle_length");
    }
  }
  const fol = follicular.slice(-CYCLE.predictionCycles).sort((x, y) => x - y);
  const usualShiftFrom = fol.length >= 2 ? fol[Math.floor((fol.length - 1) / 4)]! + 1 : null;
  return { cycles, prediction, lengths: recent, lutealLengths: recentLuteal, maxFollicular, usualShiftFrom };
}

function window(center: number, sd: number, basis: CyclePrediction["basis"]): CyclePrediction {
  const half = Math.max(1, Math.round(sd));
  return { center, from: center - half, to: center + half, sd: Math.round(sd * 10) / 10, basis };
}

/** The cycle a night belongs to (null: before the first start). */
export function cycleAt(cycles: readonly DetectedCycle[], i: number): DetectedCycle | null {
  for (let c = cycles.length - 1; c >= 0; c--) if (cycles[c]!.start <= i) return cycles[c]!;
  return null;
}

/**
 * A night's phase in an analysis: menstrual to the period's end, luteal from the shift, follicular
 * before it; unknown before the first start, in a completed cycle without a shift, and in the
 * current cycle once it runs past the longest follicular phase without one.
 */
export function phaseIn(a: CycleAnalysis, i: number): CyclePhase {
  const c = cycleAt(a.cycles, i);
  if (!c || (c.end !== null && i >= c.end)) return "unknown";
  if (i <= c.menstrualEnd) return "menstrual";
  if (c.shift !== null) return i >= c.shift ? "luteal" : "follicular";
  if (c.end !== null) return "unknown";
  return i - c.start <= a.maxFollicular ? "follicular" : "unknown";
}
