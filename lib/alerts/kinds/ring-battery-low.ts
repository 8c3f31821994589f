// "The ring's battery is low": the newest reading (recent enough to trust) is at or under the
// threshold and the ring is off the charger. One episode per discharge cycle: its key is the
// cycle's first reading, and it ends when a charge is seen (on the charger, or the level jumped).
// A reading back over the threshold within the same cycle (the level wobbles) changes nothing.
import { z } from "zod";
import type { Condition } from "@/lib/alerts/condition";
import { BATTERY_LOOKBACK_MS, batteryMessage, dischargeStart, freshReadings, isOnCharger, type BatteryFacts, type BatterySample } from "@/lib/alerts/battery";
import { clockTime, type AlertMessage, type MessageContext } from "@/lib/alerts/messages";
import { defineAlertKind, intIn } from "@/lib/alerts/kinds/define";

/** Ring battery at or under this level (%), not charging. */
export const BATTERY_LOW = { min: 5, max: 50, default: 20 };

export const batteryLowRuleParamsSchema = z.object({ level: intIn(BATTERY_LOW, "Battery level") });
export type BatteryRuleParams = z.infer<typeof batteryLowRuleParamsSchema>;

export function evaluateBatteryLowRule(params: BatteryRuleParams, samples: readonly BatterySample[], now: number): Condition<BatteryFacts> {
  const r = freshReadings(samples, now);
  if (!r) return { state: "unknown" };
  const last = r.length - 1;
  if (isOnCharger(r, last)) return { state: "inactive" };
  const start = dischargeStart(r);
  const cycle = r.slice(start);
  const newest = r[last]!;
  if (newest.level <= params.level) {
    return {
      state: "active",
      key: `cycle:${new Date(cycle[0]?.t ?? newest.t).toISOString()}`,
      facts: { level: newest.level, threshold: params.level, at: newest.t },
    };
  }
  // over the threshold now, under it earlier in this cycle: the same discharge, nothing to say
  return cycle.some((s) => s.level <= params.level) ? { state: "unknown" } : { state: "inactive" };
}

/** The battery level is a reading of the ring: in the words only when values are included. */
export function batteryLowMessage(facts: BatteryFacts, ctx: MessageContext): AlertMessage {
  return batteryMessage(facts, ctx, {
    title: ctx.includeValues ? `Ring battery at ${facts.level} %` : "Ring battery low",
    body: ctx.includeValues
      ? `Your ring's battery was at ${facts.level} % at ${clockTime(facts.at, ctx.timeZone)} (your alert: ${facts.threshold} % or less) ` +
        "and it is not charging. Put it on the charger."
      : `Your ring's battery is at or under ${facts.threshold} % and it is not charging. Put it on the charger.`,
  });
}

export const ringBatteryLow = defineAlertKind({
  kind: "ring_battery_low",
  label: "The ring's battery is low",
  params: batteryLowRuleParamsSchema,
  form: {
    fields: [{ type: "number", name: "level", label: "Battery at or under", range: BATTERY_LOW, hint: `% (${BATTERY_LOW.min}–${BATTERY_LOW.max})` }],
    note: "Once each time the ring runs down: its newest reading (at most three hours old) is at or under the level and it is off the charger.",
  },
  describe: (params) => `Ring battery at or under ${params.level} %, not charging`,
  watch: {
    type: "condition",
    evaluate: async (params, env) =>
      evaluateBatteryLowRule(params, await env.facts.batterySamples(env.userId, env.now - BATTERY_LOOKBACK_MS, env.now), env.now),
  },
  message: (facts: BatteryFacts, ctx) => batteryLowMessage(facts, ctx),
  digest: null,
});
