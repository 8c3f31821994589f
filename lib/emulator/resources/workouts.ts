// workout: on the day's high-activity runs of daily_activity.class_5_min, calories from that
// day's minute METs; now and then a long walk is an autodetected walk.
import { rngFor, uuidFor } from "@/lib/emulator/prng";
import { indexToDay } from "@/lib/days";
import { ACTIVITY_START_S, localDateTime } from "../generator/local-time";
import type { DayDocs } from "../generator/types";
import { BLOCK_S, activityOf, caloriesBetween, worn } from "./read";
import type { ResourceSource } from "./source";
import type { ResourceDocument } from "./types";

const SPEED: Record<string, [number, number]> = {
  running: [2.5, 3.4],
  cycling: [5.5, 7.5],
  walking: [1.25, 1.5],
  hiking: [1.0, 1.3],
  swimming: [0.45, 0.65],
};

export function workouts(src: ResourceSource, idx: number, current: DayDocs): ResourceDocument[] {
  const structure = activityOf(src.base(idx));
  const act = activityOf(current) ?? structure;
  if (!structure || !act || !worn(src.base(idx))) return [];
  const h = src.habits;
  const out: ResourceDocument[] = [];
  src.workoutWindows(idx, structure.cls).forEach((w, k) => {
    const r = rngFor(src.prefix, "ext", "workout", idx, k);
    // A long walk becomes a workout only now and then (autodetected walking).
    const keepWalk = r.chance(0.15);
    if (w.walk && !keepWalk) return;
    const activity = w.walk
      ? "walking"
      : w.intensity === "hard"
        ? h.hardActivities[r.chance(0.7) ? 0 : 1]!
        : h.moderateActivities[r.int(0, h.moderateActivities.length - 1)]!;
    const startS = ACTIVITY_START_S + w.from * BLOCK_S + r.int(0, 120);
    const endS = ACTIVITY_START_S + w.to * BLOCK_S - r.int(0, 120);
    const u = r.next();
    const source = w.walk ? "autodetected" : u < 0.82 ? "confirmed" : u < 0.92 ? "autodetected" : u < 0.97 ? "manual" : "workout_heart_rate";
    const speed = SPEED[activity];
    const gps = r.chance(0.6);
    const distance = speed && gps ? Math.round((endS - startS) * (speed[0] + (speed[1] - speed[0]) * r.next())) : null;
    const label = source === "manual" && r.chance(0.4) ? "Commute" : null;
    out.push({
      id: uuidFor(src.prefix, "ext", "workout", idx, k),
      activity,
      calories: caloriesBetween(act, startS, endS, src.weightKg),
      day: indexToDay(idx),
      distance,
      end_datetime: localDateTime(idx, endS, src.offset),
      intensity: w.walk ? "easy" : w.intensity,
      label,
      source,
      start_datetime: localDateTime(idx, startS, src.offset),
    });
  });
  return out;
}
