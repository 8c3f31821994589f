// The cycle_late kind through its registry entry: active once the predicted window has passed
// by N days with no start since it opened; never with tracking off; its words.
import { describe, expect, it } from "vitest";
import { cycleLate } from "@/lib/alerts/kinds/cycle-late";
import type { CycleFact } from "@/lib/alerts/facts";
import { messageContext, ruleEnv } from "@/lib/test/alert-kit";

describe("cycle_late", () => {
  const params = cycleLate.params.parse({ daysAfter: "1" });
  const window = { from: "2026-12-10", to: "2026-12-14" };
  const evaluate = async (today: string, cycle: CycleFact | null | undefined) => {
    if (cycleLate.watch.type !== "condition") throw new Error("a condition kind");
    return await cycleLate.watch.evaluate(params, ruleEnv(`${today}T09:00:00Z`, cycle === undefined ? {} : { cycle: async () => cycle }));
  };

  it("is active from N days after the window's last day while no start is known", async () => {
    const cycle = { prediction: window, lastStart: "2026-11-12" };
    expect((await evaluate("2026-12-14", cycle)).state).toBe("inactive");
    expect(await evaluate("2026-12-15", cycle)).toEqual({ state: "active", key: "cycle_late", facts: { ...window, daysLate: 1 } });
    expect(await evaluate("2026-12-20", cycle)).toEqual({ state: "active", key: "cycle_late", facts: { ...window, daysLate: 6 } });
  });

  it("is quiet once a start is logged in or after the window", async () => {
    expect((await evaluate("2026-12-20", { prediction: window, lastStart: "2026-12-16" })).state).toBe("inactive");
  });

  it("never fires with tracking off; unknown without a prediction", async () => {
    expect((await evaluate("2026-12-20", null)).state).toBe("inactive");
    expect((await evaluate("2026-12-20", undefined)).state).toBe("inactive");
    expect((await evaluate("2026-12-20", { prediction: null, lastStart: "2026-11-12" })).state).toBe("unknown");
  });

  it("says the window and how late; the JSON carries them only when values are included", () => {
    const facts = { ...window, daysLate: 3 };
    const m = cycleLate.message(facts, messageContext(false), params);
    expect(m.title).toBe("Your period has not started in its expected window");
    expect(m.body).toContain("3 days ago");
    expect(m.link).toBe("https://ring.example/cycle");
    expect(m.data).toEqual({});
    expect(cycleLate.message(facts, messageContext(true), params).data).toEqual({ window, days_late: 3 });
  });

  it("takes 1–30 days", () => {
    expect(cycleLate.params.safeParse({ daysAfter: 0 }).success).toBe(false);
    expect(cycleLate.params.safeParse({ daysAfter: 31 }).success).toBe(false);
    expect(cycleLate.describe(params)).toBe("Period late: 1 day after the expected window");
  });
});
