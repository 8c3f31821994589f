// The early_warning kind through its registry entry: active while the newest night is at the
// rule's level; its words; its line in the digest. More: lib/alerts/early-warning.test.ts.
import { describe, expect, it } from "vitest";
import { earlyWarning } from "@/lib/alerts/kinds/early-warning";
import type { EarlyWarningNightFact } from "@/lib/alerts/facts";
import { messageContext, ruleEnv } from "@/lib/test/alert-kit";

const TODAY = "2026-03-10";
const night = (day: string, level: EarlyWarningNightFact["level"]): EarlyWarningNightFact => ({
  day,
  level,
  muted: false,
  moved: level === "none" ? [] : [{ marker: "resting_heart_rate", delta: 7, value: 62, baseline: 55 }],
});

describe("early_warning", () => {
  const params = earlyWarning.params.parse({ level: "likely" });
  const env = (nights: EarlyWarningNightFact[]) => ruleEnv(`${TODAY}T08:00:00Z`, { earlyWarning: async () => nights });

  it("is active while the newest night is likely; its words say it is not a diagnosis", async () => {
    if (earlyWarning.watch.type !== "condition") throw new Error("a condition kind");
    const c = await earlyWarning.watch.evaluate(params, env([night(TODAY, "likely")]));
    expect(c).toMatchObject({ state: "active", key: "early_warning" });
    expect((await earlyWarning.watch.evaluate(params, env([night(TODAY, "watch")]))).state).toBe("inactive");
    expect((await earlyWarning.watch.evaluate(params, ruleEnv(`${TODAY}T08:00:00Z`))).state).toBe("unknown");
    if (c.state !== "active") return;
    const m = earlyWarning.message(c.facts, messageContext(false), params);
    expect(m.title).toBe("Early warning: your body may be fighting something");
    expect(m.body).toContain("This is not a diagnosis.");
  });

  it("has a line in the weekly digest", async () => {
    const section = await earlyWarning.digest!(env([night("2026-03-05", "watch")]), { from: "2026-03-02", to: "2026-03-08" });
    expect(section).toEqual({
      kind: "early_warning",
      line: "Early warning: watch on Thu 5 Mar (not a diagnosis).",
      data: [{ day: "2026-03-05", level: "watch" }],
    });
  });
});
