// Workouts → what the Workouts page draws: the list's items and the weekly totals by activity and
// by intensity. Pure.
import { addDays, weekdayMon0 } from "@/lib/days";

export type WorkoutItem = {
  id: string;
  day: string;
  activity: string;
  intensity: string | null;
  source: string | null;
  start: string | null;
  end: string | null;
  /** seconds */
  duration: number | null;
  calories: number | null;
  /** metres */
  distance: number | null;
  label: string | null;
};

/** "strength_training" → "Strength training". */
export function activityName(activity: string): string {
  const s = activity.replace(/_/g, " ").trim();
  return s ? s.charAt(0).toUpperCase() + s.slice(1) : activity;
}

/** The Monday of a day's week (ISO weeks). */
export function weekOf(day: string): string {
  return addDays(day, -weekdayMon0(day));
}

export type WeeklyTotals = {
  week: string;
  /** minutes and kcal per activity, and per intensity */
  byActivity: Record<string, { minutes: number; calories: number }>;
  byIntensity: Record<string, { minutes: number; calories: number }>;
  minutes: number;
  calories: number;
  count: number;
};

/** Weekly totals (Monday weeks, every week from the first to the last, empty ones included). */
export function weeklyTotals(items: readonly WorkoutItem[], from: string, to: string): WeeklyTotals[] {
  const out = new Map<string, WeeklyTotals>();
  for (let w = weekOf(from); w <= to; w = addDays(w, 7)) out.set(w, { week: w, byActivity: {}, byIntensity: {}, minutes: 0, calories: 0, count: 0 });
  for (const it of items) {
    const bucket = out.get(weekOf(it.day));
    if (!bucket) continue;
    const minutes = (it.duration ?? 0) / 60;
    const calories = it.calories ?? 0;
    const add = (m: Record<string, { minutes: number; calories: number }>, k: string) => {
      const e = (m[k] ??= { minutes: 0, calories: 0 });
      e.minutes += minutes;
      e.calories += calories;
    };
    add(bucket.byActivity, it.activity);
    add(bucket.byIntensity, it.intensity ?? "unknown");
    bucket.minutes += minutes;
    bucket.calories += calories;
    bucket.count++;
  }
  const round = (v: number) => Math.round(v * 10) / 10;
  return [...out.values()].map((b) => ({
    ...b,
    minutes: round(b.minutes),
    calories: round(b.calories),
    byActivity: Object.fromEntries(Object.entries(b.byActivity).map(([k, v]) => [k, { minutes: round(v.minutes), calories: round(v.calories) }])),
    byIntensity: Object.fromEntries(Object.entries(b.byIntensity).map(([k, v]) => [k, { minutes: round(v.minutes), calories: round(v.calories) }])),
  }));
}
