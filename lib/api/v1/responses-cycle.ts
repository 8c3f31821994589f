import "server-only";
import { z } from "zod";
import { CYCLE_ENTRY_KINDS, CYCLE_PHASES } from "@/lib/cycle";

// The cycle's answers as zod schemas, for the OpenAPI document only (like lib/api/v1/responses.ts;
// lib/api/v1/responses.test.ts holds each type equal to its contract type).

const day = z.iso.date();
const window = z.object({ from: day, to: day });
export const cyclePhaseEnum = z.enum(CYCLE_PHASES);

/** Today's cycle in the state document (GET /api/v1/state): the keys of a cycle row. */
export const stateCycleSchema = z
  .object({
    day: day.describe("the person's today"),
    cycle_day: z.number().int().nullable().describe("1 on the day a period starts; null before the first known start"),
    phase: cyclePhaseEnum,
    next_period: window.nullable().describe("the predicted window of the next period's start"),
  })
  .optional()
  .describe("only for a token with the cycle kind and a person with cycle tracking on (absent otherwise)");

export const cycleResponseSchema = z.object({
  from: day,
  to: day,
  status: z.enum(["off", "not_applicable", "insufficient_data", "ok"]).describe("off: tracking is off; not_applicable: hormonal contraception or pregnancy"),
  message: z.string().nullable().describe("why the status is not ok, in words a person reads"),
  days: z
    .array(
      z.object({
        day,
        cycle_day: z.number().int().nullable(),
        phase: cyclePhaseEnum,
        ovulation: z.boolean().describe("ovulation detected on this night"),
        next_period: window.nullable(),
      }),
    )
    .describe("one row per day from `from` to `to`; none while tracking is off or paused"),
  cycles: z.array(z.object({ start: day, length: z.number().int().nullable(), ovulation: day.nullable() })),
  prediction: z.object({ from: day, to: day, sd_days: z.number() }).nullable(),
  entries: z.array(z.object({ id: z.string(), day, kind: z.enum(CYCLE_ENTRY_KINDS) })).describe("the period starts and ends the person logged"),
});

/** The report's cycle section (GET /api/v1/report with `cycle` among the sections). */
export const reportCycleSchema = z
  .discriminatedUnion("tracked", [
    z.object({ tracked: z.literal(false) }),
    z.object({
      tracked: z.literal(true),
      status: z.enum(["not_applicable", "insufficient_data", "ok"]),
      message: z.string().nullable(),
      cycles: z.array(z.object({ start: day, length: z.number().int().nullable(), ovulation: day.nullable() })),
      prediction: z.object({ from: day, to: day, sd_days: z.number() }).nullable(),
    }),
  ])
  .describe("not tracked while the person's cycle tracking is off; else the cycles that start in the period and the next period's window");
