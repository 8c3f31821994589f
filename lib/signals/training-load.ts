// Training load: the acute (7-day) and chronic (28-day) load and their ratio. Pure.
//
// Daily load, in MET-minutes: the ring's medium- plus high-activity MET-minutes of the day,
// or, when the day's workouts add up to more (a workout the ring's activity missed, one added
// by hand), the workouts' estimate: minutes × a MET value for their intensity (easy 3.5,
// moderate 5, hard 8: bands of the Compendium of Physical Activities, a convention). A day with
// neither has no load (the ring not worn) and is left out: both averages keep their value.
//
// EWMA (Williams et al., BJSM 2017): EWMA_d = λ·load_d + (1 − λ)·EWMA_(d−1), λ = 2/(N + 1),
// N = 7 (acute) and 28 (chronic), both starting at the first day's load. The ratio is
// acute/chronic, shown from the 28th day with data on. Its ranges (Gabbett 2016: 0.8–1.3,
// above 1.5) are shown as a description, never as an injury risk: the ratio does not predict
// one person's injuries (Impellizzeri et al. 2020).
import type { Num } from "@/lib/metrics/stats";

export const TRAINING_LOAD = {
  acuteDays: 7,
  chronicDays: 28,
  minDays: 28,
  /** zone edges of the ratio */
  edges: [0.8, 1.3, 1.5],
  workoutMet: { easy: 3.5, moderate: 5, hard: 8 } as Record<string, number>,
  /** a workout of an unknown intensity */
  defaultMet: 5,
} as const;

export type LoadZone = "below" | "within" | "above" | "well_above";

export type DayLoad = {
  /** the load used (MET-minutes) */
  load: number;
  activity: number | null;
  workouts: number | null;
};

export type DayLoadInput = {
  /** the day's medium- and high-activity MET-minutes (null: no activity document) */
  activity: { medium: number | null; high: number | null } | null;
  workouts: ReadonlyArray<{ seconds: number | null; intensity: string | null }>;
};

/** A day's load, or null without an activity document or a workout. */
export function dailyLoad(d: DayLoadInput): DayLoad | null {
  const activity = d.activity ? (d.activity.medium ?? 0) + (d.activity.high ?? 0) : null;
  let workouts: number | null = null;
  for (const w of d.workouts) {
    if (w.seconds === null || w.seconds <= 0) continue;
    const met = (w.intensity && TRAINING_LOAD.workoutMet[w.intensity]) || TRAINING_LOAD.defaultMet;
    workouts = (workouts ?? 0) + (w.seconds / 60) * met;
  }
  if (activity === null && workouts === null) return null;
  return { load: Math.max(activity ?? 0, workouts ?? 0), activity, workouts };
}

export type LoadDay = {
  load: number | null;
  acute: number | null;
  chronic: number | null;
  /** acute/chronic from the 28th day with data (null before, or with no chronic load) */
  ratio: number | null;
  zone: LoadZone | null;
  daysWithData: number;
};

export function zoneOf(ratio: number): LoadZone {
  const [a, b, c] = TRAINING_LOAD.edges;
  return ratio < a ? "below" : ratio <= b ? "within" : ratio <= c ? "above" : "well_above";
}

/** The acute and chronic loads and their ratio on every slot of `loads` (MET-minutes, null: no data). */
export function computeTrainingLoad(loads: readonly Num[]): LoadDay[] {
  const la = 2 / (TRAINING_LOAD.acuteDays + 1);
  const lc = 2 / (TRAINING_LOAD.chronicDays + 1);
  let acute: number | null = null;
  let chronic: number | null = null;
  let days = 0;
  return loads.map((v) => {
    const load = v ?? null;
    if (load !== null) {
      days++;
      acute = acute === null ? load : la * load + (1 - la) * acute;
      chronic = chronic === null ? load : lc * load + (1 - lc) * chronic;
    }
    const ratio = days >= TRAINING_LOAD.minDays && chronic !== null && chronic > 0 && acute !== null ? acute / chronic : null;
    return { load, acute, chronic, ratio, zone: ratio === null ? null : zoneOf(ratio), daysWithData: days };
  });
}
