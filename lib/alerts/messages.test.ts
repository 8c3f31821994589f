import { describe, expect, it } from "vitest";
import { getMetric, type MetricDef } from "@/lib/metrics/catalog";
import { addDays } from "@/lib/days";
import { buildDigestFacts, digestRowsFrom, digestWeek } from "@/lib/alerts/digest";
import { ruleTestMessage, testMessage, type MessageContext } from "@/lib/alerts/messages";
import { alertKind, describeRule } from "@/lib/alerts/kinds";
import { bedtimeMessage } from "@/lib/alerts/kinds/bedtime-window";
import { connectionMessage } from "@/lib/alerts/kinds/connection";
import { metricAlertMessage } from "@/lib/alerts/kinds/metric-out-of-range";
import { noSleepMessage } from "@/lib/alerts/kinds/no-new-sleep";
import { batteryLowMessage } from "@/lib/alerts/kinds/ring-battery-low";
import { chargedMessage } from "@/lib/alerts/kinds/ring-charged";
import { digestMessage } from "@/lib/alerts/kinds/weekly-digest";
import { DIGEST_METRICS } from "@/lib/alerts/catalog";

const ctx = (includeValues: boolean, linkBase: string | null = "https://ring.example"): MessageContext => ({
  includeValues,
  units: "metric",
  timeZone: "Europe/Berlin",
  linkBase,
});

// A digest sent on Monday 2026-11-23 covers Mon 16 – Sun 22 Nov.
const week = digestWeek("2026-11-23");

function rows(id: string, value: (day: string, i: number) => number | null) {
  const from = digestRowsFrom(week);
  const out = [];
  for (let i = 0; addDays(from, i) <= week.to; i++) out.push({ day: addDays(from, i), value: value(addDays(from, i), i) });
  return { id, rows: out };
}

function facts() {
  const r: Record<string, Array<{ day: string; value: number | null }>> = {};
  // readiness: 70…76 for months, 80s this week (83 on Wed, 61 on Sat)
  r["readiness.score"] = rows("readiness.score", (d, i) => (d >= week.from ? (d === "2026-11-18" ? 93 : d === "2026-11-21" ? 61 : 82) : 70 + (i % 7))).rows;
  r["sleep.score"] = rows("sleep.score", (_d, i) => 77 + (i % 3)).rows;
  r["activity.steps"] = rows("activity.steps", (d) => (d >= week.from ? null : 8000)).rows;
  return buildDigestFacts({
    week,
    rows: r,
    tags: [
      { day: "2026-11-17", name: "late dinner" },
      { day: "2026-11-19", name: "late dinner" },
      { day: "2026-11-19", name: "travel" },
      { day: "2026-11-10", name: "not this week" },
    ],
  });
}

describe("weekly digest", () => {
  it("covers the week before its day, against the week before and the usual range", () => {
    expect(week).toEqual({ from: "2026-11-16", to: "2026-11-22" });
    const f = facts();
    expect(f.metrics.map((m) => m.metric)).toEqual([...DIGEST_METRICS]);
    const readiness = f.metrics[0]!;
    expect(readiness.trend).toBe("up");
    expect(readiness.days).toBe(7);
    expect(readiness.above).toBeGreaterThanOrEqual(1); // 93 lies above 70…76's band
    expect(readiness.below).toBeGreaterThanOrEqual(1); // 61 lies below it
    expect(f.metrics.find((m) => m.metric === "activity.steps")!.days).toBe(0);
    expect(f.best).toEqual({ day: "2026-11-18", metric: "readiness.score", value: 93 });
    expect(f.worst).toEqual({ day: "2026-11-21", metric: "readiness.score", value: 61 });
    expect(f.tags).toEqual([
      { name: "late dinner", days: 2 },
      { name: "travel", days: 1 },
    ]);
    expect(f.taggedDays).toBe(2);
  });

  it("without 'include values': directions and day names, no measured number and no tag name", () => {
    const m = digestMessage(facts(), ctx(false));
    expect(m.title).toBe("Your week: Mon 16 Nov – Sun 22 Nov");
    expect(m.body).toContain("Readiness score: higher than the week before;");
    expect(m.body).toContain("Best day: Wed 18 Nov (by readiness score).");
    expect(m.body).toContain("Worst day: Sat 21 Nov (by readiness score).");
    expect(m.body).toContain("Tagged days this week: 2.");
    expect(m.body).toContain("Total sleep: no data this week.".replace("Total sleep", getMetric("night.total_sleep_duration").label));
    expect(m.body).toContain("Trends: https://ring.example/trends?m=readiness.score,sleep.score,activity.score&range=custom&from=2026-11-16&to=2026-11-22");
    for (const v of ["93", "61", "82", "late dinner", "travel"]) expect(m.body).not.toContain(v);
    expect(JSON.stringify(m.data)).not.toMatch(/"values"|"value"|late dinner/);
  });

  it("with 'include values': the week's means, the usual range, the best and worst values and the tags", () => {
    const m = digestMessage(facts(), ctx(true));
    expect(m.body).toMatch(/Readiness score: \d+ on average \(week before \d+\); usual range \d+ – \d+;/);
    expect(m.body).toContain("Best day: Wed 18 Nov, readiness score 93.");
    expect(m.body).toContain("Tags this week: late dinner (2 days), travel (1 day).");
    expect((m.data as { tags: unknown }).tags).toEqual([
      { name: "late dinner", days: 2 },
      { name: "travel", days: 1 },
    ]);
  });
});

describe("alert messages", () => {
  const readiness = getMetric("readiness.score") as MetricDef;
  const facts = { side: "low" as const, from: "2026-11-21", to: "2026-11-23", days: 3, latest: 42, low: 61.5, high: 88.2 };

  it("a metric alert names the metric, the side and the days; values only when included", () => {
    const without = metricAlertMessage(readiness, facts, ctx(false));
    expect(without.title).toBe("Readiness score below your usual range");
    expect(without.body).toBe(
      "Readiness score has been below your usual range for 3 days in a row (Sat 21 Nov – Mon 23 Nov).\n\nhttps://ring.example/trends?m=readiness.score&range=30d",
    );
    expect(without.data).toEqual({ metric: "readiness.score", side: "below", from: "2026-11-21", to: "2026-11-23", days: 3 });
    const withValues = metricAlertMessage(readiness, facts, ctx(true));
    expect(withValues.body).toContain("Latest: 42; usual range 62 – 88.");
    expect(withValues.data).toMatchObject({ values: { latest: 42, usual_low: 61.5, usual_high: 88.2 } });
  });

  it("no link when Ringside does not know its address", () => {
    const m = metricAlertMessage(readiness, facts, ctx(false, null));
    expect(m.link).toBeNull();
    expect(m.body).not.toContain("http");
  });

  it("no sleep, reconnect and failing sync say what to do", () => {
    expect(noSleepMessage({ newestNight: "2026-11-20", daysWithout: 3 }, ctx(false))).toMatchObject({
      title: "No new night of sleep for 3 days",
      link: "https://ring.example/sync",
    });
    expect(noSleepMessage({ newestNight: "2026-11-20", daysWithout: 3 }, ctx(false)).body).toContain("Open the ring app");
    expect(connectionMessage({ reason: "reconnect" }, ctx(false)).title).toBe("Reconnect your ring to Ringside");
    const failing = connectionMessage(
      { reason: "failing", since: Date.parse("2026-11-23T01:00:00Z"), hours: 11, collections: ["daily_sleep", "sleep"] },
      ctx(false),
    );
    expect(failing.title).toBe("Sync failing for 11 hours");
    expect(failing.body).toContain("daily_sleep, sleep since Mon 23 Nov, 02:00"); // Berlin time
    expect(testMessage(ctx(false)).title).toBe("Test from Ringside");
  });

  it("rules describe themselves", () => {
    expect(describeRule("metric_out_of_range", { metric: "readiness.score", side: "below", days: 3 })).toBe(
      "Readiness score below the usual range 3 days in a row",
    );
    expect(describeRule("no_new_sleep", { days: 2 })).toBe("No new night of sleep for 2 days");
    expect(describeRule("connection", { hours: 1 })).toBe("Reconnect needed, or sync failing for 1 hour");
    expect(describeRule("weekly_digest", { weekday: 1, hour: 8 })).toBe("Weekly digest on Monday at 08:00");
    expect(describeRule("ring_battery_low", { level: 20 })).toBe("Ring battery at or under 20 %, not charging");
    expect(describeRule("ring_charged", { level: 100 })).toBe("Ring charged to 100 % on the charger");
    expect(describeRule("bedtime_window", {})).toBe("When tonight's recommended bedtime window opens");
    expect(ruleTestMessage(alertKind("ring_charged")!, "Ring charged to 100 % on the charger", ctx(false))).toMatchObject({
      title: "Test from Ringside: the ring is charged",
      link: "https://ring.example/settings/alerts",
      data: { rule: "ring_charged" },
    });
  });
});

describe("the ring's battery and bedtime", () => {
  const reading = { level: 17, threshold: 20, at: Date.parse("2026-11-23T21:05:00Z") };

  it("a battery message names the level read only with values included", () => {
    const plain = batteryLowMessage(reading, ctx(false));
    expect(plain.title).toBe("Ring battery low");
    expect(JSON.stringify(plain)).not.toContain("17");
    expect(plain.data).toEqual({ threshold: 20, at: "2026-11-23T21:05:00.000Z" });
    const valued = batteryLowMessage(reading, ctx(true));
    expect(valued.title).toBe("Ring battery at 17 %");
    expect(valued.body).toContain("at 17 % at 22:05"); // Berlin time
    expect(valued.data).toMatchObject({ values: { level: 17 } });
    expect(chargedMessage({ level: 100, threshold: 95, at: reading.at }, ctx(false)).title).toBe("Ring charged");
    expect(chargedMessage({ level: 100, threshold: 95, at: reading.at }, ctx(true)).title).toBe("Ring charged to 100 %");
  });

  it("a bedtime message shows the window on the person's clock, with the ring's advice", () => {
    const window = { start: Date.parse("2026-11-23T21:15:00Z"), end: Date.parse("2026-11-23T22:15:00Z"), offsetSeconds: 3600 };
    const m = bedtimeMessage({ day: "2026-11-23", window, recommendation: "earlier_bedtime" }, ctx(false));
    expect(m.title).toBe("Bedtime window open: 22:15 – 23:15");
    expect(m.body).toContain("The ring's advice: go to bed earlier.");
    expect(m.link).toBe("https://ring.example/day/2026-11-23");
    expect(bedtimeMessage({ day: "2026-11-23", window, recommendation: null }, { ...ctx(false), timeZone: "Pacific/Kiritimati" }).title).toBe(
      "Bedtime window open: 11:15 – 12:15",
    );
  });
});
