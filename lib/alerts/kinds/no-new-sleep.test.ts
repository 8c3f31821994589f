// The no_new_sleep kind through its registry entry: active once the newest night is the rule's
// days old, unknown without any night; its words.
import { describe, expect, it } from "vitest";
import { noNewSleep } from "@/lib/alerts/kinds/no-new-sleep";
import { messageContext, ruleEnv } from "@/lib/test/alert-kit";

describe("no_new_sleep", () => {
  const params = noNewSleep.params.parse({ days: "2" });
  const at = (night: string | null) => ruleEnv("2026-11-23T09:00:00Z", { newestNight: async () => night });

  it("is active from the rule's days without a new night; unknown without any night", async () => {
    if (noNewSleep.watch.type !== "condition") throw new Error("a condition kind");
    const c = await noNewSleep.watch.evaluate(params, at("2026-11-21"));
    expect(c).toEqual({ state: "active", key: "no_sleep", facts: { newestNight: "2026-11-21", daysWithout: 2 } });
    expect((await noNewSleep.watch.evaluate(params, at("2026-11-22"))).state).toBe("inactive");
    expect((await noNewSleep.watch.evaluate(params, at(null))).state).toBe("unknown");
    if (c.state !== "active") return;
    const m = noNewSleep.message(c.facts, messageContext(false), params);
    expect(m.title).toBe("No new night of sleep for 2 days");
    expect(m.link).toBe("https://ring.example/sync");
    expect(m.data).toEqual({ newest_night: "2026-11-21", days_without: 2 });
  });

  it("takes 2–14 days", () => {
    expect(noNewSleep.params.safeParse({ days: 1 }).success).toBe(false);
    expect(noNewSleep.describe(params)).toBe("No new night of sleep for 2 days");
  });
});
