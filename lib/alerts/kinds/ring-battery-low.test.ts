// The ring_battery_low kind through its registry entry: the newest fresh reading at or under the
// level, off the charger; its words (the level only with values). The cycle maths:
// lib/alerts/evaluate-ring.test.ts.
import { describe, expect, it } from "vitest";
import { ringBatteryLow } from "@/lib/alerts/kinds/ring-battery-low";
import { messageContext, ruleEnv } from "@/lib/test/alert-kit";

describe("ring_battery_low", () => {
  const params = ringBatteryLow.params.parse({ level: "20" });
  const now = "2026-11-23T12:00:00Z";
  const reading = (level: number, hoursAgo: number) => ({ t: Date.parse(now) - hoursAgo * 3_600_000, level, charging: false, inCharger: false });

  it("is active at or under the level, unknown when the newest reading is stale", async () => {
    if (ringBatteryLow.watch.type !== "condition") throw new Error("a condition kind");
    const env = (levels: Array<[number, number]>) => ruleEnv(now, { batterySamples: async () => levels.map(([l, h]) => reading(l, h)) });
    const c = await ringBatteryLow.watch.evaluate(
      params,
      env([
        [40, 5],
        [19, 1],
      ]),
    );
    expect(c).toMatchObject({ state: "active", facts: { level: 19, threshold: 20 } });
    expect((await ringBatteryLow.watch.evaluate(params, env([[30, 1]]))).state).toBe("inactive");
    expect((await ringBatteryLow.watch.evaluate(params, env([[10, 4]]))).state).toBe("unknown");
    if (c.state !== "active") return;
    expect(ringBatteryLow.message(c.facts, messageContext(false), params).title).toBe("Ring battery low");
    expect(ringBatteryLow.message(c.facts, messageContext(true), params).title).toBe("Ring battery at 19 %");
  });

  it("takes 5–50 %", () => {
    expect(ringBatteryLow.params.safeParse({ level: 60 }).success).toBe(false);
    expect(ringBatteryLow.describe(params)).toBe("Ring battery at or under 20 %, not charging");
  });
});
