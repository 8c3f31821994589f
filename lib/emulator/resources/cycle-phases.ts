// daily_cycle_phases: one document a day for a woman with a cycle (the generator's cycleAt), none
// for anyone else. Not in the published OpenAPI document; its fields are the ones one public
// client reads (`cycle_day`, `phase`, `predicted`, cycle-facts.md), described in
// ../openapi-unpublished.json. `phase` is menstrual, follicular or luteal, consistent with the
// temperature the same person's readiness documents show (the luteal nights are the raised ones).
// `predicted`: a luteal day whose ovulation the temperature has not confirmed yet by the person's
// today (the shift has not held three nights); periods and follicular days are observed, never
// predicted. A flag changes at most three days back, inside any client's trailing re-read.
import { uuidFor } from "@/lib/emulator/prng";
import { indexToDay } from "@/lib/days";
import type { ResourceSource } from "./source";
import type { ResourceDocument } from "./types";

/** Nights of raised temperature after which a cycle's ovulation counts as confirmed. */
const CONFIRMING_NIGHTS = 3;

/** The day's document (a day index), as of the person's today (a day index). */
export function cyclePhases(src: ResourceSource, idx: number, today: number): ResourceDocument[] {
  const c = src.cycle(idx);
  if (!c) return [];
  return [
    {
      id: uuidFor(src.prefix, "ext", "daily_cycle_phases", idx),
      day: indexToDay(idx),
      cycle_day: c.cycleDay,
      phase: c.phase,
      predicted: idx > c.ovulation && today < c.shiftStart + CONFIRMING_NIGHTS - 1,
    },
  ];
}
