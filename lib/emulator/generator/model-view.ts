// The model as its parts see it, and the shapes they pass each other. model.ts's Model (one
// user's generator) implements ModelView; the parts (day-base, night, readiness, activity, daily)
// read the model through it, so none of them imports model.ts, which imports every part.
import type { Profile } from "./profile";
import type { GenerateOptions, NightKind } from "./types";

/** The base draws of one day, which depend on that day alone (day-base.ts makes them). */
export type DayBase = {
  idx: number;
  dow: number;
  worn: boolean; // the night ending on this day and the day itself
  partialWear: boolean; // not worn, but worn for a few daytime hours (activity document exists)
  partialStart: number; // seconds after midnight
  partialLen: number; // seconds
  bedStart: number; // seconds relative to local midnight (negative = evening before)
  tib: number; // seconds in bed, multiple of 30
  latency: number; // target sleep latency, seconds
  sleepQ: number; // sleep quality, ~N(0,1), higher is better
  stress: number; // daytime stress load in [0, 1]
  steps: number; // step goal the day's activity is built to reach
  workout: 0 | 1 | 2; // none, moderate, hard
  workoutShift: number; // ~N(0,1)
  charging: boolean; // worn day with a non-wear stretch
  chargeStart: number; // fraction of the awake window
  chargeLen: number; // blocks of 5 minutes
  feverLen: number; // > 0: a fever starts this day and lasts this many days
  feverPeak: number; // °C
  tempNoise: number;
  hrvNoise: number;
  rhrNoise: number;
  nap: boolean;
  napStart: number; // seconds after midnight
  napLen: number; // seconds, multiple of 30
  rest: boolean;
  restStart: number;
  restLen: number;
  lowBattery: boolean;
};

/** A morning's readiness (readiness.ts): its contributors, score and temperature deviations. */
export type Readiness = {
  contributors: Record<string, number | null>;
  score: number | null;
  temperature_deviation: number | null;
  temperature_trend_deviation: number | null;
};

/** What the parts read of the user's generator (model.ts). */
export type ModelView = {
  readonly prefix: string;
  readonly profile: Profile;
  /** the user's UTC offset, "+01:00" */
  readonly offset: string;
  readonly wear: NonNullable<GenerateOptions["wear"]>;
  readonly notWornDays: ReadonlySet<number>;
  /** planted nights without a sleep (GenerateOptions.nights) */
  readonly nights: ReadonlyMap<number, NightKind>;
  /** Smooth value noise (~N(0, 0.7)) over the day index with knots every `period` days. */
  smooth(name: string, idx: number, period: number): number;
  /** The day's base draws (memoized). */
  base(idx: number): DayBase;
  feverAt(idx: number): number;
  tempDev(idx: number, b?: DayBase): number;
  fitnessAt(idx: number): number;
  /** Night HRV (ms) implied by the day's draws and the previous day's training. */
  hrvNight(idx: number, b?: DayBase): number;
  approxSleep(b: DayBase): number | null;
  targetCalories(b: DayBase): number;
  /** Rough active calories of a day from its base draws. */
  approxActive(b: DayBase): number | null;
  /** A document's id, keyed by (seed, user, collection, day, slot). */
  id(collection: string, idx: number, slot?: string): string;
};
