import { describe, expect, it } from "vitest";
import { getMetric, type MetricDef } from "@/lib/metrics/catalog";
import { addDays } from "@/lib/days";
import { nextEpisodeStep, type Condition } from "@/lib/alerts/condition";
import { evaluateConnectionRule } from "@/lib/alerts/kinds/connection";
import { evaluateMetricRule } from "@/lib/alerts/kinds/metric-out-of-range";
import { evaluateNoSleepRule } from "@/lib/alerts/kinds/no-new-sleep";
import { isDigestDue } from "@/lib/alerts/kinds/weekly-digest";

const readiness = getMetric("readiness.score") as MetricDef;
const TODAY = "2026-11-23";

/** 150 days of readiness around 75 (70…80), then `tail` values for the newest days (null = a gap). */
function history(tail: Array<number | null>, end = TODAY): Array<{ day: string; value: number | null }> {
  const n = 150;
  const rows = [];
  for (let i = 0; i < n; i++) rows.push({ day: addDays(end, -(n - 1) + i - tail.length), value: 70 + ((i * 7) % 11) });
  tail.forEach((v, i) => rows.push({ day: addDays(end, -(tail.length - 1) + i), value: v }));
  return rows;
}

describe("metric outside its usual range for N days in a row", () => {
  const below3 = { metric: "readiness.score" as const, side: "below" as const, days: 3 };

  it("holds when the newest N days are below the band, with the run and the band", () => {
    const c = evaluateMetricRule(readiness, below3, history([40, 41, 39]), TODAY);
    expect(c.state).toBe("active");
    if (c.state !== "active") return;
    expect(c.key).toBe("low");
    expect(c.facts).toMatchObject({ side: "low", from: "2026-11-21", to: "2026-11-23", days: 3, latest: 39 });
    expect(c.facts.low).toBeGreaterThan(60);
    expect(c.facts.high).toBeLessThanOrEqual(100);
  });

  it("does not hold for N − 1 days, across a gap, or on the other side", () => {
    expect(evaluateMetricRule(readiness, below3, history([75, 40, 39]), TODAY).state).toBe("inactive");
    expect(evaluateMetricRule(readiness, below3, history([40, null, 40, 39]), TODAY).state).toBe("inactive");
    expect(evaluateMetricRule(readiness, below3, history([99, 99, 100]), TODAY).state).toBe("inactive");
    const above = evaluateMetricRule(readiness, { ...below3, side: "above" }, history([99, 99, 100]), TODAY);
    expect(above.state === "active" && above.key).toBe("high");
    const either = evaluateMetricRule(readiness, { ...below3, side: "either" }, history([40, 40, 40]), TODAY);
    expect(either.state === "active" && either.key).toBe("low");
  });

  it("today without a value yet still judges the newest day (a run stays a run overnight)", () => {
    const rows = history([40, 41, 39], addDays(TODAY, -1));
    const c = evaluateMetricRule(readiness, below3, rows, TODAY);
    expect(c.state === "active" && c.facts.to).toBe("2026-11-22");
  });

  it("data older than two days, or no baseline yet, tells nothing (unknown)", () => {
    expect(evaluateMetricRule(readiness, below3, history([40, 41, 39], addDays(TODAY, -3)), TODAY).state).toBe("unknown");
    expect(evaluateMetricRule(readiness, below3, [], TODAY).state).toBe("unknown");
    const short = [
      { day: addDays(TODAY, -2), value: 40 },
      { day: addDays(TODAY, -1), value: 40 },
      { day: TODAY, value: 40 },
    ];
    expect(evaluateMetricRule(readiness, below3, short, TODAY).state).toBe("unknown");
  });
});

describe("no new night of sleep for N days", () => {
  it("counts the days since the newest night", () => {
    expect(evaluateNoSleepRule({ days: 2 }, "2026-11-21", TODAY)).toEqual({
      state: "active",
      key: "no_sleep",
      facts: { newestNight: "2026-11-21", daysWithout: 2 },
    });
    expect(evaluateNoSleepRule({ days: 2 }, "2026-11-22", TODAY).state).toBe("inactive");
    expect(evaluateNoSleepRule({ days: 2 }, TODAY, TODAY).state).toBe("inactive");
    expect(evaluateNoSleepRule({ days: 2 }, null, TODAY).state).toBe("unknown");
  });
});

describe("the connection needs attention", () => {
  const H = 3_600_000;
  const now = Date.parse("2026-11-23T12:00:00Z");
  const ok = { collection: "daily_sleep", status: "idle", lastSuccessAt: now - H, lastAttemptAt: now - H, lastError: null };

  it("a refused access is a reconnect at once", () => {
    expect(evaluateConnectionRule({ hours: 12 }, { status: "needs_reconnect", since: null, collections: [ok] }, now)).toEqual({
      state: "active",
      key: "reconnect",
      facts: { reason: "reconnect" },
    });
  });

  it("failing for N hours since the last success (or since the access was granted)", () => {
    const failing = { collection: "daily_readiness", status: "idle", lastSuccessAt: now - 13 * H, lastAttemptAt: now - 60_000, lastError: "HTTP 503" };
    const c = evaluateConnectionRule({ hours: 12 }, { status: "active", since: now - 100 * H, collections: [ok, failing] }, now);
    expect(c).toEqual({ state: "active", key: "failing", facts: { reason: "failing", since: now - 13 * H, hours: 13, collections: ["daily_readiness"] } });
    expect(evaluateConnectionRule({ hours: 14 }, { status: "active", since: null, collections: [ok, failing] }, now).state).toBe("inactive");
    const never = { ...failing, lastSuccessAt: null };
    expect(evaluateConnectionRule({ hours: 12 }, { status: "active", since: now - 20 * H, collections: [never] }, now).state).toBe("active");
    expect(evaluateConnectionRule({ hours: 12 }, { status: "active", since: now - 2 * H, collections: [never] }, now).state).toBe("inactive");
  });

  it("not shared, an expired membership, a success after the error, or a disconnect raise nothing", () => {
    const base = { collection: "daily_spo2", lastSuccessAt: now - 50 * H, lastAttemptAt: now - H, lastError: "no" };
    for (const status of ["not_shared", "expired", "paused"]) {
      expect(evaluateConnectionRule({ hours: 1 }, { status: "active", since: null, collections: [{ ...base, status }] }, now).state).toBe("inactive");
    }
    expect(
      evaluateConnectionRule(
        { hours: 1 },
        { status: "active", since: null, collections: [{ ...base, status: "idle", lastSuccessAt: now - 60_000, lastAttemptAt: now - H }] },
        now,
      ).state,
    ).toBe("inactive");
    expect(evaluateConnectionRule({ hours: 1 }, { status: "disconnected", since: null, collections: [] }, now).state).toBe("inactive");
    expect(evaluateConnectionRule({ hours: 1 }, { status: null, since: null, collections: [] }, now).state).toBe("inactive");
  });
});

describe("episodes", () => {
  const active = (key: string): Condition => ({ state: "active", key, facts: {} });
  it("open once, keep while it holds, end when it clears, start over on the other side", () => {
    expect(nextEpisodeStep(null, active("low"))).toEqual({ action: "open", key: "low" });
    expect(nextEpisodeStep({ key: "low" }, active("low"))).toEqual({ action: "keep" });
    expect(nextEpisodeStep({ key: "low" }, { state: "inactive" })).toEqual({ action: "end" });
    expect(nextEpisodeStep({ key: "low" }, active("high"))).toEqual({ action: "end_and_open", key: "high" });
    expect(nextEpisodeStep(null, { state: "inactive" })).toEqual({ action: "none" });
  });
  it("unknown changes nothing", () => {
    expect(nextEpisodeStep({ key: "low" }, { state: "unknown" })).toEqual({ action: "keep" });
    expect(nextEpisodeStep(null, { state: "unknown" })).toEqual({ action: "none" });
  });
  it("a digest is due from its slot for six hours", () => {
    const slot = Date.parse("2026-11-23T07:00:00Z");
    expect(isDigestDue(slot, slot - 1)).toBe(false);
    expect(isDigestDue(slot, slot)).toBe(true);
    expect(isDigestDue(slot, slot + 6 * 3_600_000 - 1)).toBe(true);
    expect(isDigestDue(slot, slot + 6 * 3_600_000)).toBe(false);
  });
});
