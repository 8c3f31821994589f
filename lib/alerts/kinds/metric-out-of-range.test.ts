// The metric_out_of_range kind through its registry entry: what it reads, when it is active, its
// words (values only when included). The run and band maths: lib/alerts/evaluate.test.ts.
import { describe, expect, it } from "vitest";
import { addDays } from "@/lib/days";
import { metricOutOfRange } from "@/lib/alerts/kinds/metric-out-of-range";
import { messageContext, ruleEnv } from "@/lib/test/alert-kit";

const TODAY = "2026-11-23";
/** 100 steady days around 70, then `low` days at 40 up to today. */
const rows = (low: number) => Array.from({ length: 100 }, (_, i) => ({ day: addDays(TODAY, i - 99), value: i >= 100 - low ? 40 : 70 + (i % 3) - 1 }));

describe("metric_out_of_range", () => {
  const params = metricOutOfRange.params.parse({ metric: "readiness.score", side: "below", days: "3" });

  it("is active after the rule's days in a row under the usual range, and reads the metric's rows", async () => {
    const asked: string[] = [];
    const env = (low: number) =>
      ruleEnv(`${TODAY}T09:00:00Z`, {
        metricRows: async (_u, metric, from, to) => {
          asked.push(metric);
          return rows(low).filter((r) => r.day >= from && r.day <= to);
        },
      });
    if (metricOutOfRange.watch.type !== "condition") throw new Error("a condition kind");
    const active = await metricOutOfRange.watch.evaluate(params, env(3));
    expect(active).toMatchObject({ state: "active", key: "low", facts: { side: "low", days: 3, from: addDays(TODAY, -2), to: TODAY } });
    expect((await metricOutOfRange.watch.evaluate(params, env(2))).state).toBe("inactive");
    expect(asked).toEqual(["readiness.score", "readiness.score"]);
    if (active.state !== "active") return;
    const plain = metricOutOfRange.message(active.facts, messageContext(false), params);
    expect(plain.title).toBe("Readiness score below your usual range");
    expect(plain.body).not.toContain("40");
    expect(metricOutOfRange.message(active.facts, messageContext(true), params).body).toContain("Latest: 40");
  });

  it("takes a metric with numbers, a side and 1–14 days; says so in one line", () => {
    expect(metricOutOfRange.params.safeParse({ metric: "no.such", side: "below", days: 3 }).success).toBe(false);
    expect(metricOutOfRange.params.safeParse({ metric: "readiness.score", side: "under", days: 3 }).success).toBe(false);
    expect(metricOutOfRange.params.safeParse({ metric: "readiness.score", side: "either", days: 15 }).success).toBe(false);
    expect(metricOutOfRange.describe(params)).toBe("Readiness score below the usual range 3 days in a row");
  });
});
