// "Your bedtime window opens": a moment, sent once a night, when the newest bedtime guidance has
// a window and now is inside it (from its start until its end; outside the person's quiet hours:
// then when they end, if the window still is). Nights without a recommendation send nothing.
import { z } from "zod";
import { bedtimeWindowOf, type BedtimeRow, type BedtimeWindow } from "@/lib/metrics/bedtime";
import { BEDTIME_RECOMMENDATIONS, labelOf } from "@/lib/metrics/sources";
import { clockTime, link, withLink, type AlertMessage, type MessageContext } from "@/lib/alerts/messages";
import { defineAlertKind } from "@/lib/alerts/kinds/define";

/** The bedtime window has no parameters: the ring's guidance sets the time. */
export const bedtimeRuleParamsSchema = z.object({});

export type BedtimeFacts = { day: string; window: BedtimeWindow; recommendation: string | null };

/**
 * The window open now, from the newest bedtime guidance. Null otherwise: a night without a
 * recommendation, guidance for another night (the window is past or not yet open), or none.
 */
export function openBedtimeWindow(newest: BedtimeRow | null, now: number): BedtimeFacts | null {
  if (!newest) return null;
  const window = bedtimeWindowOf(newest);
  if (!window || now < window.start || now >= window.end) return null;
  return { day: newest.day, window, recommendation: newest.recommendation };
}

/** The window is the ring's guidance, not a measurement: its times are always in the message. */
export function bedtimeMessage(facts: BedtimeFacts, ctx: MessageContext): AlertMessage {
  const url = link(ctx, `/day/${facts.day}`);
  const from = clockTime(facts.window.start, ctx.timeZone);
  const to = clockTime(facts.window.end, ctx.timeZone);
  const advice = facts.recommendation ? ` The ring's advice: ${labelOf(BEDTIME_RECOMMENDATIONS, facts.recommendation).toLowerCase()}.` : "";
  return {
    title: `Bedtime window open: ${from} – ${to}`,
    body: withLink(`Your recommended bedtime window is open from ${from} to ${to} tonight.${advice}`, url),
    link: url,
    data: {
      day: facts.day,
      start: new Date(facts.window.start).toISOString(),
      end: new Date(facts.window.end).toISOString(),
      recommendation: facts.recommendation,
    },
  };
}

export const bedtimeWindow = defineAlertKind({
  kind: "bedtime_window",
  label: "Your bedtime window opens",
  params: bedtimeRuleParamsSchema,
  form: {
    fields: [],
    note: "Once a night, when the bedtime window the ring recommends for tonight opens; nights without a recommendation send nothing.",
  },
  describe: () => "When tonight's recommended bedtime window opens",
  watch: {
    type: "moment",
    prefix: "bedtime",
    purpose: "alert",
    quiet: true,
    async due(_params, env) {
      const open = openBedtimeWindow(await env.facts.newestBedtime(env.userId), env.now);
      return open ? { key: open.day, facts: async () => open } : null;
    },
  },
  message: (facts: BedtimeFacts, ctx) => bedtimeMessage(facts, ctx),
  digest: null,
});
