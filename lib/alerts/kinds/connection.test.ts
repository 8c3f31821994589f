// The connection kind through its registry entry: a needed reconnect at once, a failing sync after
// the rule's hours; its words.
import { describe, expect, it } from "vitest";
import { connection } from "@/lib/alerts/kinds/connection";
import { messageContext, ruleEnv } from "@/lib/test/alert-kit";

describe("connection", () => {
  const params = connection.params.parse({ hours: "12" });
  const now = "2026-11-23T12:00:00Z";
  const failingSince = (hours: number) =>
    ruleEnv(now, {
      connection: async () => ({
        status: "active",
        since: null,
        collections: [
          { collection: "daily_sleep", status: "error", lastSuccessAt: Date.parse(now) - hours * 3_600_000, lastAttemptAt: Date.parse(now), lastError: "x" },
        ],
      }),
    });

  it("is active after the rule's hours of failing sync, and at once when the access needs a reconnect", async () => {
    if (connection.watch.type !== "condition") throw new Error("a condition kind");
    expect((await connection.watch.evaluate(params, failingSince(11))).state).toBe("inactive");
    const c = await connection.watch.evaluate(params, failingSince(13));
    expect(c).toMatchObject({ state: "active", key: "failing", facts: { hours: 13, collections: ["daily_sleep"] } });
    if (c.state === "active") expect(connection.message(c.facts, messageContext(false), params).title).toBe("Sync failing for 13 hours");
    const reconnect = await connection.watch.evaluate(
      params,
      ruleEnv(now, { connection: async () => ({ status: "needs_reconnect", since: null, collections: [] }) }),
    );
    expect(reconnect).toMatchObject({ state: "active", key: "reconnect" });
    if (reconnect.state === "active") expect(connection.message(reconnect.facts, messageContext(false), params).title).toBe("Reconnect your ring to Ringside");
  });

  it("takes 1–168 hours", () => {
    expect(connection.params.safeParse({ hours: 169 }).success).toBe(false);
    expect(connection.describe(params)).toBe("Reconnect needed, or sync failing for 12 hours");
  });
});
