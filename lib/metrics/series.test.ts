import { describe, expect, it } from "vitest";
import { getMetric } from "@/lib/metrics/catalog";
import { addDays, dayRange } from "@/lib/days";
import { buildCategorySeries, buildNumericSeries, pickMainSleep, sleepPeriodValues, toDense, warmupFrom, type SleepPeriodLike } from "@/lib/metrics/series";

const sleepScore = getMetric("sleep.score");

describe("dense series", () => {
  it("puts one slot per day and keeps missing days as null", () => {
    const d = toDense(
      [
        { day: "2024-03-01", value: 80 },
        { day: "2024-03-03", value: 70 },
        { day: "2024-03-09", value: 1 }, // outside
      ],
      "2024-03-01",
      "2024-03-04",
    );
    expect(d).toEqual([80, null, 70, null]);
  });

  it("lets the last row of a day win", () => {
    expect(
      toDense(
        [
          { day: "2024-03-01", value: 80 },
          { day: "2024-03-01", value: 82 },
        ],
        "2024-03-01",
        "2024-03-01",
      ),
    ).toEqual([82]);
  });
});

describe("numeric series", () => {
  it("reaches back for the baseline and a whole previous period", () => {
    expect(warmupFrom("2024-03-01", "2024-03-07")).toBe(addDays("2024-03-01", -90));
    expect(warmupFrom("2023-01-01", "2023-12-31")).toBe("2022-01-01");
  });

  it("computes summary and comparison on the shown days only", () => {
    // 14 days: first week 70, second week 80 with one gap
    const days = dayRange("2024-03-01", "2024-03-14");
    const rows = days.map((day, i) => ({ day, value: i === 10 ? null : i < 7 ? 70 : 80 }));
    const s = buildNumericSeries(sleepScore, rows, "2024-03-08", "2024-03-14");
    expect(s.value).toEqual([80, 80, 80, null, 80, 80, 80]);
    expect(s.summary).toMatchObject({ n: 6, mean: 80, min: 80, max: 80, days: 7 });
    expect(s.comparison.current).toEqual({ mean: 80, n: 6 });
    expect(s.comparison.previous).toEqual({ mean: 70, n: 7 });
    expect(s.comparison.delta).toBe(10);
    // the first shown day's 7-day mean uses the six days before it: (6×70 + 80)/7
    expect(s.avg7[0]).toBeCloseTo(500 / 7, 2);
    expect(s.baseMean.every((v) => v === null)).toBe(true); // not 30 days of history
  });
});

describe("category series", () => {
  it("counts this period and the previous one", () => {
    const m = getMetric("resilience.level");
    const rows = [
      { day: "2024-01-01", value: "solid" },
      { day: "2024-01-02", value: "limited" },
      { day: "2024-01-03", value: "solid" },
      { day: "2024-01-04", value: "strong" },
      { day: "2024-01-05", value: null },
    ];
    const s = buildCategorySeries(m, rows, "2024-01-04", "2024-01-06");
    expect(s.value).toEqual(["strong", null, null]);
    expect(s.counts).toEqual({ strong: 1 });
    expect(s.previousCounts).toEqual({ solid: 2, limited: 1 });
    expect(s.summary.mostCommon).toBe("strong");
  });
});

describe("main sleep and naps", () => {
  const p = (type: string | null, total: number | null, inBed: number, day = "2024-03-02"): SleepPeriodLike & { average_hrv: number } => ({
    day,
    type,
    total_sleep_duration: total,
    time_in_bed: inBed,
    average_hrv: total ?? 0,
  });

  it("picks the longest long_sleep, never a nap", () => {
    const nap = p("sleep", 9000, 9500);
    const main = p("long_sleep", 25000, 27000);
    const short = p("long_sleep", 12000, 13000);
    expect(pickMainSleep([nap, short, main])).toBe(main);
    expect(pickMainSleep([nap, p("late_nap", 7000, 7000)])).toBeNull();
  });

  it("falls back to a long untyped period and ignores deleted and rest periods", () => {
    const untyped = p(null, 20000, 22000);
    expect(pickMainSleep([p("deleted", 30000, 30000), untyped])).toBe(untyped);
    expect(pickMainSleep([p(null, 3000, 4000)])).toBeNull();
  });

  it("gives night values from the main sleep and nap totals per day", () => {
    const periods = [
      p("long_sleep", 25000, 27000, "2024-03-01"),
      p("sleep", 1800, 2000, "2024-03-01"),
      p("rest", 900, 900, "2024-03-01"),
      p("long_sleep", 26000, 28000, "2024-03-02"),
    ];
    expect(sleepPeriodValues(getMetric("night.average_hrv"), periods)).toEqual([
      { day: "2024-03-01", value: 25000 },
      { day: "2024-03-02", value: 26000 },
    ]);
    expect(sleepPeriodValues(getMetric("naps.total_sleep"), periods)).toEqual([
      { day: "2024-03-01", value: 1800 },
      { day: "2024-03-02", value: 0 },
    ]);
    expect(sleepPeriodValues(getMetric("naps.count"), periods).map((r) => r.value)).toEqual([1, 0]);
  });
});
