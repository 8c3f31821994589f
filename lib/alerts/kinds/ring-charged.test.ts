// The ring_charged kind through its registry entry: on the charger at or over the level; its words.
import { describe, expect, it } from "vitest";
import { ringCharged } from "@/lib/alerts/kinds/ring-charged";
import { messageContext, ruleEnv } from "@/lib/test/alert-kit";

describe("ring_charged", () => {
  const params = ringCharged.params.parse({ level: "95" });
  const now = "2026-11-23T12:00:00Z";
  const env = (level: number, charging: boolean) =>
    ruleEnv(now, { batterySamples: async () => [{ t: Date.parse(now) - 600_000, level, charging, inCharger: charging }] });

  it("is active on the charger at or over the level; off the charger it is not", async () => {
    if (ringCharged.watch.type !== "condition") throw new Error("a condition kind");
    const c = await ringCharged.watch.evaluate(params, env(96, true));
    expect(c).toMatchObject({ state: "active", facts: { level: 96, threshold: 95 } });
    expect((await ringCharged.watch.evaluate(params, env(90, true))).state).toBe("unknown");
    expect((await ringCharged.watch.evaluate(params, env(96, false))).state).toBe("inactive");
    if (c.state !== "active") return;
    expect(ringCharged.message(c.facts, messageContext(false), params).title).toBe("Ring charged");
    expect(ringCharged.message(c.facts, messageContext(true), params).title).toBe("Ring charged to 96 %");
  });

  it("takes 50–100 %", () => {
    expect(ringCharged.params.safeParse({ level: 40 }).success).toBe(false);
    expect(ringCharged.describe(params)).toBe("Ring charged to 95 % on the charger");
  });
});
