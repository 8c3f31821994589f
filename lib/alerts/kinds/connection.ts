// "The connection needs attention": the ring service refused the stored access (needs a
// reconnect) — at once; or a collection's sync has been failing, with no success since, for N
// hours. A disconnected account raises nothing (the person chose it).
import { z } from "zod";
import type { Condition } from "@/lib/alerts/condition";
import type { ConnectionFactsInput } from "@/lib/alerts/facts";
import { formatInstant, link, plural, withLink, type AlertMessage, type MessageContext } from "@/lib/alerts/messages";
import { defineAlertKind, intIn } from "@/lib/alerts/kinds/define";
import { settingsHref } from "@/lib/settings-sections";

/** Sync failing for this many hours. */
export const FAILING_HOURS = { min: 1, max: 168, default: 12 };

export const connectionRuleParamsSchema = z.object({ hours: intIn(FAILING_HOURS, "Hours of failing sync") });
export type ConnectionRuleParams = z.infer<typeof connectionRuleParamsSchema>;

export type ConnectionFacts = { reason: "reconnect" } | { reason: "failing"; since: number; hours: number; collections: string[] };

/** Collection states that are the person's choice or the membership, not a failing sync. */
const NOT_FAILING = new Set(["not_shared", "expired", "paused"]);

export function evaluateConnectionRule(params: ConnectionRuleParams, input: ConnectionFactsInput, now: number): Condition<ConnectionFacts> {
  if (!input.status || input.status === "disconnected") return { state: "inactive" };
  if (input.status === "needs_reconnect") return { state: "active", key: "reconnect", facts: { reason: "reconnect" } };
  const limit = params.hours * 3_600_000;
  let since = Number.POSITIVE_INFINITY;
  const failing: string[] = [];
  for (const c of input.collections) {
    if (!c.lastError || NOT_FAILING.has(c.status)) continue;
    if ((c.lastAttemptAt ?? 0) < (c.lastSuccessAt ?? 0)) continue;
    const start = c.lastSuccessAt ?? input.since;
    if (start === null || now - start < limit) continue;
    failing.push(c.collection);
    since = Math.min(since, start);
  }
  if (failing.length === 0) return { state: "inactive" };
  return { state: "active", key: "failing", facts: { reason: "failing", since, hours: Math.floor((now - since) / 3_600_000), collections: failing.sort() } };
}

export function connectionMessage(facts: ConnectionFacts, ctx: MessageContext): AlertMessage {
  if (facts.reason === "reconnect") {
    const url = link(ctx, settingsHref("account"));
    return {
      title: "Reconnect your ring to Ringside",
      body: withLink(
        "The ring service no longer accepts Ringside's access, so syncing is paused. Reconnect in Settings → You and your ring; all your stored data is kept.",
        url,
      ),
      link: url,
      data: { reason: "reconnect" },
    };
  }
  const url = link(ctx, "/sync");
  return {
    title: `Sync failing for ${plural(facts.hours, "hour")}`,
    body: withLink(
      `Ringside has not been able to sync ${facts.collections.join(", ")} since ${formatInstant(facts.since, ctx.timeZone)}. ` +
        "It keeps retrying; the Sync page says why.",
      url,
    ),
    link: url,
    data: { reason: "failing", since: new Date(facts.since).toISOString(), hours: facts.hours, collections: facts.collections },
  };
}

export const connection = defineAlertKind({
  kind: "connection",
  label: "The connection needs attention",
  params: connectionRuleParamsSchema,
  form: {
    fields: [{ type: "number", name: "hours", label: "Hours of failing sync", range: FAILING_HOURS, hint: "A needed reconnect is told at once." }],
    note: "When the ring service stops accepting Ringside's access, or syncing keeps failing.",
  },
  describe: (params) => `Reconnect needed, or sync failing for ${plural(params.hours, "hour")}`,
  watch: {
    type: "condition",
    evaluate: async (params, env) => evaluateConnectionRule(params, await env.facts.connection(env.userId), env.now),
  },
  message: (facts: ConnectionFacts, ctx) => connectionMessage(facts, ctx),
  digest: null,
});
