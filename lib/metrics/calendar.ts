// The calendar heatmap's day states. A day with no value is one of three different things,
// and the heatmap tells them apart:
//   not_synced – after the newest day Ringside has synced (data may still come);
//   not_worn   – the ring was off: the activity document reports a long non-wear time, or no
//                collection has any document that day although later days have some;
//   missing    – other documents exist that day but none for this metric.
// Days before the person's first document are "before_history": the ring was not yet
// connected (or not yet owned), so they are neither missing nor unworn.
import { dayToIndex, indexToDay } from "@/lib/days";
import type { Num } from "@/lib/metrics/stats";

export type CalendarStatus = "value" | "not_worn" | "missing" | "not_synced" | "before_history";

/** Non-wear time (seconds, in the day's activity document) from which a day counts as not worn. */
export const NOT_WORN_NON_WEAR_S = 12 * 3600;

export type CalendarInput = {
  from: string;
  to: string;
  /** the metric, one slot per day from `from` */
  values: readonly Num[];
  /** whether any collection has a document, one slot per day from `from` */
  hasAnyDocument: readonly boolean[];
  /** the activity document's non_wear_time, one slot per day from `from` */
  nonWearS: readonly Num[];
  /** the newest day that has any document at all */
  newestDocumentDay: string | null;
  /** the oldest day that has any document at all */
  oldestDocumentDay?: string | null;
  /** the newest day the sync reports as synced (may be later than newestDocumentDay) */
  newestSyncedDay: string | null;
};

export type CalendarDay = { day: string; status: CalendarStatus; value: number | null };

export function classifyCalendarDays(input: CalendarInput): CalendarDay[] {
  const start = dayToIndex(input.from);
  const end = dayToIndex(input.to);
  const newestDoc = input.newestDocumentDay;
  const newest =
    newestDoc && input.newestSyncedDay ? (newestDoc > input.newestSyncedDay ? newestDoc : input.newestSyncedDay) : (newestDoc ?? input.newestSyncedDay);
  const out: CalendarDay[] = [];
  for (let idx = start; idx <= end; idx++) {
    const i = idx - start;
    const day = indexToDay(idx);
    const value = input.values[i] ?? null;
    let status: CalendarStatus;
    if (newest === null || day > newest) status = "not_synced";
    else if (input.oldestDocumentDay && day < input.oldestDocumentDay) status = "before_history";
    else if (value !== null) status = "value";
    else if ((input.nonWearS[i] ?? 0) >= NOT_WORN_NON_WEAR_S) status = "not_worn";
    else if (!input.hasAnyDocument[i] && newestDoc !== null && day < newestDoc) status = "not_worn";
    else status = "missing";
    out.push({ day, status, value });
  }
  return out;
}

/** Score bands (the ring app's): below 60 pay attention, 60–69 fair, 70–84 good, 85+ optimal. */
export const SCORE_THRESHOLDS = [60, 70, 85] as const;

/** Value at quantile p (0..1) of sorted numbers, linear between neighbours. */
export function quantile(sorted: readonly number[], p: number): number | null {
  if (!sorted.length) return null;
  const pos = (sorted.length - 1) * p;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

/**
 * The three thresholds that split values into four heatmap levels: the score bands for
 * scores, else the quartiles of the values shown.
 */
export function heatThresholds(kind: string, unit: string, values: readonly (number | null)[]): number[] {
  if (kind === "score" && unit === "score") return [...SCORE_THRESHOLDS];
  const sorted = values.filter((v): v is number => v !== null).sort((a, b) => a - b);
  const qs = [0.25, 0.5, 0.75].map((p) => quantile(sorted, p));
  return qs.every((v) => v !== null) ? (qs as number[]) : [];
}

/**
 * The heatmap level of a value, 0–3. For a metric where lower is better the scale is turned
 * round, so level 3 is always the best; neutral metrics go by size.
 */
export function heatLevel(value: number, thresholds: readonly number[], direction: "higher" | "lower" | "neutral"): number {
  let level = 0;
  for (const t of thresholds) if (value >= t) level++;
  level = Math.min(3, level);
  return direction === "lower" ? 3 - level : level;
}

/** Counts of each state and the mean of the values, for the heatmap's text summary. */
export function summarizeCalendar(days: ReadonlyArray<{ status: CalendarStatus; value: number | null }>): {
  counts: Record<CalendarStatus, number>;
  mean: number | null;
} {
  const counts: Record<CalendarStatus, number> = { value: 0, not_worn: 0, missing: 0, not_synced: 0, before_history: 0 };
  let sum = 0;
  for (const d of days) {
    counts[d.status]++;
    if (d.status === "value" && d.value !== null) sum += d.value;
  }
  return { counts, mean: counts.value ? sum / counts.value : null };
}
