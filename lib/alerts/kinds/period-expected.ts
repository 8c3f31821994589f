// "Your period is expected soon": N days before the predicted window of the next period opens
// (the cycle service's prediction, from the person's own cycle lengths), one message a cycle.
// Active from N days before the window until its last day, while no newer period start is known;
// a logged start moves the prediction on to the next cycle and ends the episode. Never for a
// person with cycle tracking off or for whom the cycle does not apply (the fact is null then).
import { z } from "zod";
import { addDays, formatDay } from "@/lib/days";
import type { Condition } from "@/lib/alerts/condition";
import type { CycleFact } from "@/lib/alerts/facts";
import { link, plural, withLink, type AlertMessage, type MessageContext } from "@/lib/alerts/messages";
import { defineAlertKind, intIn } from "@/lib/alerts/kinds/define";

/** How many days before the window opens the message comes (0: on its first day). */
export const PERIOD_NOTICE_DAYS = { min: 0, max: 14, default: 2 };

export const periodExpectedParamsSchema = z.object({ daysBefore: intIn(PERIOD_NOTICE_DAYS, "Days before") });
export type PeriodExpectedParams = z.infer<typeof periodExpectedParamsSchema>;

export type PeriodExpectedFacts = { from: string; to: string };

/** Tracking off (no fact): inactive, whatever else; no prediction yet: unknown. */
export function evaluatePeriodExpectedRule(params: PeriodExpectedParams, cycle: CycleFact | null, today: string): Condition<PeriodExpectedFacts> {
  if (!cycle) return { state: "inactive" };
  const p = cycle.prediction;
  if (!p) return { state: "unknown" };
  if (cycle.lastStart !== null && cycle.lastStart >= addDays(p.from, -params.daysBefore)) return { state: "inactive" };
  const active = today >= addDays(p.from, -params.daysBefore) && today <= p.to;
  return active ? { state: "active", key: "period_expected", facts: { from: p.from, to: p.to } } : { state: "inactive" };
}

export function periodExpectedMessage(facts: PeriodExpectedFacts, ctx: MessageContext): AlertMessage {
  const url = link(ctx, "/cycle");
  return {
    title: "Your period is expected soon",
    body: withLink(
      `Ringside expects your next period between ${formatDay(facts.from)} and ${formatDay(facts.to)}, from your own cycle lengths. ` +
        'Tap "Log period start" on Today when it begins.',
      url,
    ),
    link: url,
    data: ctx.includeValues ? { window: { from: facts.from, to: facts.to } } : {},
  };
}

export const periodExpected = defineAlertKind({
  kind: "period_expected",
  label: "Your period is expected soon",
  params: periodExpectedParamsSchema,
  form: {
    fields: [
      {
        type: "number",
        name: "daysBefore",
        label: "Days before the window",
        range: PERIOD_NOTICE_DAYS,
        hint: `${PERIOD_NOTICE_DAYS.min}–${PERIOD_NOTICE_DAYS.max}`,
      },
    ],
    note: "Needs cycle tracking on (Settings → Your cycle) and a few logged or detected cycles; quiet while it is off.",
  },
  describe: (params) =>
    params.daysBefore === 0 ? "Period expected: on the window's first day" : `Period expected: ${plural(params.daysBefore, "day")} before the window`,
  watch: {
    type: "condition",
    evaluate: async (params, env) => evaluatePeriodExpectedRule(params, (await env.facts.cycle?.(env.userId, env.today)) ?? null, env.today),
  },
  message: (facts: PeriodExpectedFacts, ctx) => periodExpectedMessage(facts, ctx),
  digest: null,
});
