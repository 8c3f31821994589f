// The heart-rate sources and workout intensities as the pages show them (label, colour, order),
// from the registry's closed lists (lib/resources). Pure, safe in the browser.
import { sampleSpecOf, getResource } from "@/lib/resources";
import type { CategoryDef } from "@/lib/resources/define";

/** sleep, rest, awake, session, workout, live: the heart-rate samples' sources. */
export const HEART_RATE_SOURCES: readonly CategoryDef[] = sampleSpecOf("heartrate").fields.find((f) => f.name === "source")?.categories ?? [];

/** easy, moderate, hard. */
export const WORKOUT_INTENSITIES: readonly CategoryDef[] = getResource("workout").columns.find((c) => c.name === "intensity")?.categories ?? [];

/** A closed list's label of a value (the value itself when the list does not know it). */
export function labelOf(list: readonly CategoryDef[], value: string | null | undefined): string {
  if (!value) return "—";
  return list.find((c) => c.value === value)?.label ?? value.replace(/_/g, " ");
}

/** breathing, meditation, nap, relaxation, rest, body status: the sessions' types. */
export const SESSION_TYPES: readonly CategoryDef[] = getResource("session").columns.find((c) => c.name === "type")?.categories ?? [];

/** The bedtime guidance's statuses and recommendations. */
export const BEDTIME_STATUSES: readonly CategoryDef[] = getResource("sleep_time").columns.find((c) => c.name === "status")?.categories ?? [];
export const BEDTIME_RECOMMENDATIONS: readonly CategoryDef[] = getResource("sleep_time").columns.find((c) => c.name === "recommendation")?.categories ?? [];
