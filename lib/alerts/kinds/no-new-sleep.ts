// "No new night of sleep for N days": the newest night Ringside holds is N or more days before
// the person's today (the ring's day of a night is the day it ends). Without any night at all
// there is nothing to compare (a fresh connection): unknown.
import { z } from "zod";
import { diffDays, formatDay } from "@/lib/days";
import type { Condition } from "@/lib/alerts/condition";
import { link, plural, withLink, type AlertMessage, type MessageContext } from "@/lib/alerts/messages";
import { defineAlertKind, intIn } from "@/lib/alerts/kinds/define";

/** No new night for this many days (1 would fire every morning before the ring syncs). */
export const SLEEP_DAYS = { min: 2, max: 14, default: 2 };

export const noSleepRuleParamsSchema = z.object({ days: intIn(SLEEP_DAYS, "Days without a new night") });
export type NoSleepRuleParams = z.infer<typeof noSleepRuleParamsSchema>;

export type NoSleepFacts = { newestNight: string; daysWithout: number };

export function evaluateNoSleepRule(params: NoSleepRuleParams, newestNight: string | null, today: string): Condition<NoSleepFacts> {
  if (!newestNight) return { state: "unknown" };
  const daysWithout = diffDays(newestNight, today);
  return daysWithout >= params.days ? { state: "active", key: "no_sleep", facts: { newestNight, daysWithout } } : { state: "inactive" };
}

export function noSleepMessage(facts: NoSleepFacts, ctx: MessageContext): AlertMessage {
  const url = link(ctx, "/sync");
  return {
    title: `No new night of sleep for ${plural(facts.daysWithout, "day")}`,
    body: withLink(
      `The newest night Ringside has is ${formatDay(facts.newestNight)}. ` +
        "Open the ring app on your phone so the ring can sync; Ringside picks the nights up after that.",
      url,
    ),
    link: url,
    data: { newest_night: facts.newestNight, days_without: facts.daysWithout },
  };
}

export const noNewSleep = defineAlertKind({
  kind: "no_new_sleep",
  label: "No new night of sleep",
  params: noSleepRuleParamsSchema,
  form: {
    fields: [{ type: "number", name: "days", label: "Days without a new night", range: SLEEP_DAYS, hint: `${SLEEP_DAYS.min}–${SLEEP_DAYS.max}` }],
    note: "The ring syncs through the phone app: this reminds you to open it.",
  },
  describe: (params) => `No new night of sleep for ${plural(params.days, "day")}`,
  watch: {
    type: "condition",
    evaluate: async (params, env) => evaluateNoSleepRule(params, await env.facts.newestNight(env.userId), env.today),
  },
  message: (facts: NoSleepFacts, ctx) => noSleepMessage(facts, ctx),
  digest: null,
});
