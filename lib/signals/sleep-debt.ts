// Sleep debt and sleep need. Pure.
//
// Debt (RISE's published method): the hours owed over the last 14 nights against the person's
// need, last night weighing 15 % and the 13 nights before it sharing 85 %, more for the more
// recent (linearly: 13, 12, … 1 parts). The weights are scaled to add up to 14, so equal
// shortfalls every night add up to their plain sum:
//   debt = (14 / Σ w over nights with data) · Σ w_i · max(0, need − sleep_i)
// A night without data (the ring not worn) is left out and the others stand in for it (the
// rescaling); with fewer than 7 nights of the 14 there is no debt. Sleep of a day is all its
// sleep: the main sleep and the naps (each sleep period's `day`).
//
// Need: the person's setting; else estimated from the 90 nights before the day as the mean
// sleep of the nights followed by a top-quartile readiness (at least 28 nights with both),
// kept within 6–10 h; else 8 h.
import type { Num } from "@/lib/metrics/stats";

export const SLEEP_DEBT = {
  nights: 14,
  lastNightShare: 0.15,
  minNights: 7,
} as const;

export const SLEEP_NEED = {
  windowDays: 90,
  minPairs: 28,
  quantile: 0.75,
  minS: 6 * 3600,
  maxS: 10 * 3600,
  defaultS: 8 * 3600,
} as const;

export type NeedSource = "setting" | "estimated" | "default";
export type SleepNeed = { seconds: number; source: NeedSource; nights: number };

/** The weight of each of the 14 nights, last night first (they add up to 14). */
export function debtWeights(): number[] {
  const { nights, lastNightShare } = SLEEP_DEBT;
  const rest = nights - 1;
  const parts = (rest * (rest + 1)) / 2;
  const w = [lastNightShare * nights];
  for (let i = 1; i <= rest; i++) w.push(((1 - lastNightShare) * nights * (rest + 1 - i)) / parts);
  return w;
}

const WEIGHTS = debtWeights();

export type SleepDebt = {
  /** seconds owed (null: fewer than 7 nights with data) */
  seconds: number | null;
  /** each night's sleep, last night first (null: no data) */
  nights: Num[];
  nightsWithData: number;
};

/**
 * The debt on slot i of `sleep` (seconds per day, null without data) against `need` seconds.
 * Slots before 0 count as nights without data.
 */
export function sleepDebtAt(sleep: readonly Num[], i: number, need: number): SleepDebt {
  let owed = 0;
  let weight = 0;
  const nights: Num[] = [];
  for (let k = 0; k < SLEEP_DEBT.nights; k++) {
    const v = i - k >= 0 ? (sleep[i - k] ?? null) : null;
    nights.push(v);
    if (v === null) continue;
    owed += WEIGHTS[k]! * Math.max(0, need - v);
    weight += WEIGHTS[k]!;
  }
  const nightsWithData = nights.filter((v) => v !== null).length;
  if (nightsWithData < SLEEP_DEBT.minNights) return { seconds: null, nights, nightsWithData };
  return { seconds: (owed * SLEEP_DEBT.nights) / weight, nights, nightsWithData };
}

/** The q-quantile (0–1) of sorted values, linearly between order statistics (R's type 7). */
export function quantileSorted(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.ceil(h);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

/**
 * The need estimated for slot i: nights i − 90 … i − 1 with both a sleep and a readiness
 * score; the mean sleep of those whose readiness is at or above the upper quartile.
 */
export function estimateSleepNeed(sleep: readonly Num[], readiness: readonly Num[], i: number): { seconds: number; nights: number } | null {
  const pairs: Array<[number, number]> = [];
  for (let j = Math.max(0, i - SLEEP_NEED.windowDays); j < i; j++) {
    const s = sleep[j];
    const r = readiness[j];
    if (s !== null && s !== undefined && r !== null && r !== undefined) pairs.push([s, r]);
  }
  if (pairs.length < SLEEP_NEED.minPairs) return null;
  const cut = quantileSorted(
    pairs.map((p) => p[1]).sort((a, b) => a - b),
    SLEEP_NEED.quantile,
  );
  const top = pairs.filter((p) => p[1] >= cut);
  const mean = top.reduce((a, p) => a + p[0], 0) / top.length;
  return { seconds: Math.min(SLEEP_NEED.maxS, Math.max(SLEEP_NEED.minS, mean)), nights: top.length };
}

/** The need on slot i: the setting (seconds), else the estimate, else the default. */
export function sleepNeedAt(sleep: readonly Num[], readiness: readonly Num[], i: number, settingS: number | null): SleepNeed {
  if (settingS !== null) return { seconds: settingS, source: "setting", nights: 0 };
  const e = estimateSleepNeed(sleep, readiness, i);
  return e ? { seconds: e.seconds, source: "estimated", nights: e.nights } : { seconds: SLEEP_NEED.defaultS, source: "default", nights: 0 };
}

/** Sleep debt of every slot (seconds), e.g. for a chart. */
export function sleepDebtSeries(sleep: readonly Num[], readiness: readonly Num[], settingS: number | null): Num[] {
  return sleep.map((_, i) => sleepDebtAt(sleep, i, sleepNeedAt(sleep, readiness, i, settingS).seconds).seconds);
}
