// daily_cycle_phases: one document a day for a woman with a cycle (the generator's cycleAt), none
// for anyone else. Not in the published OpenAPI document; its fields are the ones one public
// client reads (`cycle_day`, `phase`, `predicted`, cycle-facts.md), described in
// ../openapi-unpublished.json. `phase` is menstrual, follicular or luteal, consistent with the
// temperature the same person's readiness documents show (the luteal nights are the raised ones).
// `predicted`: the phase is the service's guess until the temperature shift after ovulation has
// held for three nights by the person's today (a day whose cycle is not confirmed yet).
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
      predicted: today < c.shiftStart + CONFIRMING_NIGHTS - 1,
    },
  ];
}
