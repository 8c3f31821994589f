// The period_expected kind through its registry entry: active from N days before the predicted
// window until its end, unless a newer start is known; never with tracking off; its words.
import { describe, expect, it } from "vitest";
import { periodExpected } from "@/lib/alerts/kinds/period-expected";
import type { CycleFact } from "@/lib/alerts/facts";
import { messageContext, ruleEnv } from "@/lib/test/alert-kit";

describe("period_expected", () => {
  const params = periodExpected.params.parse({ daysBefore: "2" });
  const window = { from: "2026-12-10", to: "2026-12-14" };
  const on = (today: string, cycle: CycleFact | null | undefined) => ruleEnv(`${today}T09:00:00Z`, cycle === undefined ? {} : { cycle: async () => cycle });
  const evaluate = async (today: string, cycle: CycleFact | null | undefined) => {
    if (periodExpected.watch.type !== "condition") throw new Error("a condition kind");
    return await periodExpected.watch.evaluate(params, on(today, cycle));
  };

  it("is active from N days before the window to its last day, once (one key)", async () => {
    const cycle = { prediction: window, lastStart: "2026-11-12" };
    expect((await evaluate("2026-12-07", cycle)).state).toBe("inactive");
    const c = await evaluate("2026-12-08", cycle);
    expect(c).toEqual({ state: "active", key: "period_expected", facts: window });
    expect(await evaluate("2026-12-14", cycle)).toEqual(c);
    expect((await evaluate("2026-12-15", cycle)).state).toBe("inactive");
  });

  it("ends when a start is known in the notice days or the window", async () => {
    expect((await evaluate("2026-12-11", { prediction: window, lastStart: "2026-12-09" })).state).toBe("inactive");
  });

  it("never fires with tracking off (no fact, or no cycle facts at all); unknown without a prediction", async () => {
    expect((await evaluate("2026-12-10", null)).state).toBe("inactive");
    expect((await evaluate("2026-12-10", undefined)).state).toBe("inactive");
    expect((await evaluate("2026-12-10", { prediction: null, lastStart: null })).state).toBe("unknown");
  });

  it("says the window; the JSON carries it only when values are included", () => {
    const m = periodExpected.message(window, messageContext(false), params);
    expect(m.title).toBe("Your period is expected soon");
    expect(m.body).toContain("10 Dec");
    expect(m.link).toBe("https://ring.example/cycle");
    expect(m.data).toEqual({});
    expect(periodExpected.message(window, messageContext(true), params).data).toEqual({ window });
  });

  it("takes 0–14 days", () => {
    expect(periodExpected.params.safeParse({ daysBefore: 15 }).success).toBe(false);
    expect(periodExpected.params.safeParse({ daysBefore: -1 }).success).toBe(false);
    expect(periodExpected.describe(params)).toBe("Period expected: 2 days before the window");
    expect(periodExpected.describe({ daysBefore: 0 })).toBe("Period expected: on the window's first day");
  });
});
