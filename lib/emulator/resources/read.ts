// Reading a day's generated documents: its activity classes and METs, its long sleep, local
// times, and the high-activity runs that become workouts.
import { dayToIndex } from "@/lib/days";
import { ACTIVITY_START_S, DAY_S, HOUR, MIN } from "../generator/local-time";
import type { DayDocs, RingDocument } from "../generator/types";

export const BLOCK_S = 300;
/** Activity blocks before local midnight (04:00 → 24:00); later ones belong to the next calendar day. */
export const BLOCKS_BEFORE_MIDNIGHT = 240;

export type Activity = { cls: string; met: number[]; steps: number };

export function activityOf(docs: DayDocs): Activity | null {
  const a = docs.daily_activity[0];
  if (!a || typeof a.class_5_min !== "string" || a.class_5_min.length !== 288) return null;
  const met = (a.met as { items?: unknown } | undefined)?.items;
  return { cls: a.class_5_min, met: Array.isArray(met) ? (met as number[]) : [], steps: typeof a.steps === "number" ? a.steps : 0 };
}

export function longSleep(docs: DayDocs): RingDocument | undefined {
  return docs.sleep.find((s) => s.type === "long_sleep");
}

/** The ring was worn through the night and day (a long sleep exists). */
export function worn(docs: DayDocs): boolean {
  return longSleep(docs) !== undefined;
}

export const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

/** kcal of the day's METs over [fromS, toS) seconds after local midnight. */
export function caloriesBetween(act: Activity, fromS: number, toS: number, weightKg: number): number {
  const kcalPerMet = (3.5 * weightKg) / 200;
  let kcal = 0;
  const first = Math.max(0, Math.floor((fromS - ACTIVITY_START_S) / MIN));
  const last = Math.min(act.met.length, Math.ceil((toS - ACTIVITY_START_S) / MIN));
  for (let m = first; m < last; m++) {
    const v = act.met[m];
    if (typeof v === "number" && v > 1) kcal += (v - 1) * kcalPerMet;
  }
  return Math.round(kcal * 10) / 10;
}

/** "2024-11-11T22:30:00+01:00" → seconds relative to local midnight of day `idx` (may be negative). */
export function localSecondsFrom(idx: number, text: unknown): number | null {
  if (typeof text !== "string") return null;
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})/.exec(text);
  if (!m) return null;
  return (dayToIndex(m[1]!) - idx) * DAY_S + Number(m[2]) * HOUR + Number(m[3]) * MIN + Number(m[4]);
}

export type WorkoutWindow = { from: number; to: number; intensity: "easy" | "moderate" | "hard"; walk: boolean };

/** High-activity runs of a day's class_5_min, before local midnight (block indices, [from, to)). */
export function workoutWindows(cls: string): WorkoutWindow[] {
  const out: WorkoutWindow[] = [];
  let longestWalk: { from: number; to: number } | null = null;
  let i = 0;
  while (i < BLOCKS_BEFORE_MIDNIGHT) {
    if (cls.charCodeAt(i) < 51) {
      i++;
      continue;
    }
    let j = i;
    let high = 0;
    while (j < BLOCKS_BEFORE_MIDNIGHT && cls.charCodeAt(j) >= 51) {
      if (cls.charCodeAt(j) >= 52) high++;
      j++;
    }
    let from = i;
    let to = j;
    while (from < to && cls[from] === "3") from++;
    while (to > from && cls[to - 1] === "3") to--;
    let c5 = 0;
    for (let k = from; k < to; k++) if (cls[k] === "5") c5++;
    const len = to - from;
    if (high >= 5 && high >= 0.6 * len) {
      out.push({ from, to, intensity: c5 * 2 >= len ? "hard" : "moderate", walk: false });
    } else if (j - i >= 10 && (!longestWalk || j - i > longestWalk.to - longestWalk.from)) {
      longestWalk = { from: i, to: j };
    }
    i = j;
  }
  if (out.length === 0 && longestWalk) out.push({ ...longestWalk, intensity: "easy", walk: true });
  return out;
}
