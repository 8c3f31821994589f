// What the cycle alert rules read about a person (dbAlertFacts.cycle, lib/services/alerts.ts), on
// a real (temporary) database: nothing while cycle tracking is off or paused, so no cycle rule
// fires then; with tracking on and logged starts, the predicted window and the newest start, and
// the rules fire on them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock, setClock } from "@/lib/clock";
import { addDays } from "@/lib/days";
import { seedPerson } from "@/lib/test/people";
import { evaluatePeriodExpectedRule } from "@/lib/alerts/kinds/period-expected";
import { evaluateCycleLateRule } from "@/lib/alerts/kinds/cycle-late";

const USER = "u-alert-cycle";
const TODAY = "2024-06-30";
const STARTS = ["2024-03-10", "2024-04-07", "2024-05-05", "2024-06-02"];

beforeAll(async () => {
  setClock(new ManualClock(Date.parse(`${TODAY}T12:00:00Z`)));
  await seedPerson({ userId: USER, seed: "alert-cycle", from: "2024-03-01", to: TODAY });
});
afterAll(() => setClock(undefined));

describe("the cycle alerts' facts", () => {
  it("are null while tracking is off, whatever is logged: no cycle rule fires", async () => {
    const { dbAlertFacts } = await import("@/lib/services/alerts");
    const { logCycleEntry } = await import("@/lib/services/cycle-entries");
    for (const day of STARTS) await logCycleEntry(USER, { day, kind: "period_start" });
    expect(await dbAlertFacts.cycle!(USER, TODAY)).toBeNull();
    // nor are the cycle's kinds offered in Settings → Alerts
    const { getAlertsOverview } = await import("@/lib/services/alerts");
    const offered = (await getAlertsOverview(USER)).ruleKinds.map((k) => k.kind);
    expect(offered).toContain("early_warning");
    expect(offered.filter((k) => k === "period_expected" || k === "cycle_late")).toEqual([]);
    expect(evaluatePeriodExpectedRule({ daysBefore: 14 }, null, TODAY).state).toBe("inactive");
    expect(evaluateCycleLateRule({ daysAfter: 1 }, null, TODAY).state).toBe("inactive");
  });

  it("with tracking on: the next window after the newest start, and the rules fire around it", async () => {
    const { saveCycleSettings } = await import("@/lib/services/cycle-entries");
    const { dbAlertFacts } = await import("@/lib/services/alerts");
    await saveCycleSettings(USER, { tracking: true });
    const { getAlertsOverview } = await import("@/lib/services/alerts");
    expect((await getAlertsOverview(USER)).ruleKinds.map((k) => k.kind)).toEqual(expect.arrayContaining(["period_expected", "cycle_late"]));
    const fact = await dbAlertFacts.cycle!(USER, TODAY);
    expect(fact?.lastStart).toBe("2024-06-02");
    const p = fact!.prediction!;
    // four cycles of 28 days: the next start is expected about 28 days after the newest
    expect(p.from <= "2024-06-30" && p.to >= "2024-06-30").toBe(true);
    expect(evaluatePeriodExpectedRule({ daysBefore: 2 }, fact, addDays(p.from, -2)).state).toBe("active");
    expect(evaluateCycleLateRule({ daysAfter: 1 }, fact, addDays(p.to, 1)).state).toBe("active");
    expect(evaluateCycleLateRule({ daysAfter: 1 }, fact, p.to).state).toBe("inactive");
  });

  it("are null again on hormonal contraception", async () => {
    const { saveCycleSettings } = await import("@/lib/services/cycle-entries");
    const { dbAlertFacts } = await import("@/lib/services/alerts");
    await saveCycleSettings(USER, { hormonalContraception: true });
    expect(await dbAlertFacts.cycle!(USER, TODAY)).toBeNull();
  });
});
