// "Your period is late": the predicted window of the next period has passed (N days after its
// last day) and no period start is known since the window opened. One message a cycle: a
// logged start moves the prediction on and ends the episode. Never for a person with cycle
// tracking off or for whom the cycle does not apply (the fact is null then).
import { z } from "zod";
import { addDays, diffDays, formatDay } from "@/lib/days";
import type { Condition } from "@/lib/alerts/condition";
import type { CycleFact } from "@/lib/alerts/facts";
import { link, plural, withLink, type AlertMessage, type MessageContext } from "@/lib/alerts/messages";
import { defineAlertKind, intIn } from "@/lib/alerts/kinds/define";

/** How many days after the window's last day the message comes. */
export const CYCLE_LATE_DAYS = { min: 1, max: 30, default: 1 };

export const cycleLateParamsSchema = z.object({ daysAfter: intIn(CYCLE_LATE_DAYS, "Days after") });
export type CycleLateParams = z.infer<typeof cycleLateParamsSchema>;

export type CycleLateFacts = { from: string; to: string; daysLate: number };

/** Tracking off (no fact): inactive, whatever else; no prediction yet: unknown. */
export function evaluateCycleLateRule(params: CycleLateParams, cycle: CycleFact | null, today: string): Condition<CycleLateFacts> {
  if (!cycle) return { state: "inactive" };
  const p = cycle.prediction;
  if (!p) return { state: "unknown" };
  if (cycle.lastStart !== null && cycle.lastStart >= p.from) return { state: "inactive" };
  if (today < addDays(p.to, params.daysAfter)) return { state: "inactive" };
  return { state: "active", key: "cycle_late", facts: { from: p.from, to: p.to, daysLate: diffDays(p.to, today) } };
}

export function cycleLateMessage(facts: CycleLateFacts, ctx: MessageContext): AlertMessage {
  const url = link(ctx, "/cycle");
  return {
    title: "Your period has not started in its expected window",
    body: withLink(
      `The window Ringside expected it in, ${formatDay(facts.from)} to ${formatDay(facts.to)}, ended ${plural(facts.daysLate, "day")} ago ` +
        "and no period start is logged. Cycles vary; if it has started, log it on Today or on its day's page. This is not a diagnosis.",
      url,
    ),
    link: url,
    data: ctx.includeValues ? { window: { from: facts.from, to: facts.to }, days_late: facts.daysLate } : {},
  };
}

export const cycleLate = defineAlertKind({
  kind: "cycle_late",
  label: "Your period is late",
  params: cycleLateParamsSchema,
  form: {
    fields: [
      {
        type: "number",
        name: "daysAfter",
        label: "Days after the window",
        range: CYCLE_LATE_DAYS,
        hint: `${CYCLE_LATE_DAYS.min}–${CYCLE_LATE_DAYS.max}`,
      },
    ],
    note: "Needs cycle tracking on (Settings → Your cycle) and a few logged or detected cycles; quiet while it is off.",
  },
  describe: (params) => `Period late: ${plural(params.daysAfter, "day")} after the expected window`,
  watch: {
    type: "condition",
    evaluate: async (params, env) => evaluateCycleLateRule(params, (await env.facts.cycle?.(env.userId, env.today)) ?? null, env.today),
  },
  message: (facts: CycleLateFacts, ctx) => cycleLateMessage(facts, ctx),
  digest: null,
});
