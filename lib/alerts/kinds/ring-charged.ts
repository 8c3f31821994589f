// "The ring is charged": the newest reading (recent enough) is on the charger at or over the
// level. One episode per charge: its key is the charge's first reading on the charger; it ends
// when the ring comes off. On the charger under the level changes nothing.
import { z } from "zod";
import type { Condition } from "@/lib/alerts/condition";
import { BATTERY_LOOKBACK_MS, batteryMessage, freshReadings, isOnCharger, type BatteryFacts, type BatterySample } from "@/lib/alerts/battery";
import { clockTime, type AlertMessage, type MessageContext } from "@/lib/alerts/messages";
import { defineAlertKind, intIn } from "@/lib/alerts/kinds/define";

/** Ring charging and at or over this level (%). */
export const BATTERY_CHARGED = { min: 50, max: 100, default: 100 };

export const chargedRuleParamsSchema = z.object({ level: intIn(BATTERY_CHARGED, "Charged level") });
export type ChargedRuleParams = z.infer<typeof chargedRuleParamsSchema>;

export function evaluateChargedRule(params: ChargedRuleParams, samples: readonly BatterySample[], now: number): Condition<BatteryFacts> {
  const r = freshReadings(samples, now);
  if (!r) return { state: "unknown" };
  const last = r.length - 1;
  if (!isOnCharger(r, last)) return { state: "inactive" };
  const newest = r[last]!;
  if (newest.level < params.level) return { state: "unknown" };
  let first = last;
  while (first > 0 && isOnCharger(r, first - 1)) first--;
  return { state: "active", key: `charge:${new Date(r[first]!.t).toISOString()}`, facts: { level: newest.level, threshold: params.level, at: newest.t } };
}

export function chargedMessage(facts: BatteryFacts, ctx: MessageContext): AlertMessage {
  return batteryMessage(facts, ctx, {
    title: ctx.includeValues ? `Ring charged to ${facts.level} %` : "Ring charged",
    body: ctx.includeValues
      ? `Your ring was at ${facts.level} % on the charger at ${clockTime(facts.at, ctx.timeZone)}. Put it back on so it keeps measuring.`
      : `Your ring has reached ${facts.threshold} % on the charger. Put it back on so it keeps measuring.`,
  });
}

export const ringCharged = defineAlertKind({
  kind: "ring_charged",
  label: "The ring is charged",
  params: chargedRuleParamsSchema,
  form: {
    fields: [{ type: "number", name: "level", label: "Charged to", range: BATTERY_CHARGED, hint: `% (${BATTERY_CHARGED.min}–${BATTERY_CHARGED.max})` }],
    note: "Once each time the ring charges: it reaches the level on the charger, so you can put it back on.",
  },
  describe: (params) => `Ring charged to ${params.level} % on the charger`,
  watch: {
    type: "condition",
    evaluate: async (params, env) => evaluateChargedRule(params, await env.facts.batterySamples(env.userId, env.now - BATTERY_LOOKBACK_MS, env.now), env.now),
  },
  message: (facts: BatteryFacts, ctx) => chargedMessage(facts, ctx),
  digest: null,
});
