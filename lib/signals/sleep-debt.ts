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
// Need: the person's setting; else estimated from the 90 nights before the day where more sleep
// stops helping readiness (lib/signals/sleep-need.ts); else 8 h.
import type { Num } from "@/lib/metrics/stats";
import { sleepNeeds } from "@/lib/signals/sleep-need";

export const SLEEP_DEBT = {
  nights: 14,
  lastNightShare: 0.15,
  minNights: 7,
} as const;

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

/** Sleep debt of every slot (seconds), e.g. for a chart. */
export function sleepDebtSeries(sleep: readonly Num[], readiness: readonly Num[], settingS: number | null, from = 0): Num[] {
  const needs = sleepNeeds(sleep, readiness, from, sleep.length - 1, settingS);
  return sleep.map((_, i) => (i < from ? null : sleepDebtAt(sleep, i, needs[i - from]!.seconds).seconds));
}
