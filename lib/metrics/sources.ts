// The heart-rate sources and workout intensities as the pages show them (label, colour, order),
// from the registry's closed lists (lib/resources), as the metric catalog's generated data
// carries them (catalog-data.ts). Pure, safe in the browser.
import type { CategoryDef } from "@/lib/resources/define";
import { CLOSED_LISTS } from "@/lib/metrics/catalog-data";

/** sleep, rest, awake, session, workout, live: the heart-rate samples' sources. */
export const HEART_RATE_SOURCES: readonly CategoryDef[] = CLOSED_LISTS.heartRateSources;

/** easy, moderate, hard. */
export const WORKOUT_INTENSITIES: readonly CategoryDef[] = CLOSED_LISTS.workoutIntensities;

/** A closed list's label of a value (the value itself when the list does not know it). */
export function labelOf(list: readonly CategoryDef[], value: string | null | undefined): string {
  if (!value) return "—";
  return list.find((c) => c.value === value)?.label ?? value.replace(/_/g, " ");
}

/** breathing, meditation, nap, relaxation, rest, body status: the sessions' types. */
export const SESSION_TYPES: readonly CategoryDef[] = CLOSED_LISTS.sessionTypes;

/** The bedtime guidance's statuses and recommendations. */
export const BEDTIME_STATUSES: readonly CategoryDef[] = CLOSED_LISTS.bedtimeStatuses;
export const BEDTIME_RECOMMENDATIONS: readonly CategoryDef[] = CLOSED_LISTS.bedtimeRecommendations;
