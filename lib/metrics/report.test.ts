// The report's pure builders: each figure from the series and days it is given.
import { describe, expect, it } from "vitest";
import { reportFileName } from "@/lib/metrics/report";
import {
  clockHoursOn,
  countByType,
  flaggedNights,
  gapsOf,
  lineChart,
  reportFigure,
  reportMean,
  tagsWithDays,
  type ReportSeriesInput,
} from "@/lib/metrics/report-build";

const series = (over: Partial<ReportSeriesInput> = {}): ReportSeriesInput => ({
  value: [60, null, 62],
  avg7: [null, null, 61],
  baseLow: [50, 50, 51],
  baseHigh: [70, 70, 71],
  summary: { n: 2, mean: 61, min: 60, max: 62, days: 3, anomalies: 0 },
  ...over,
});
const HR = { id: "night.lowest_heart_rate" as const, label: "Lowest heart rate", unit: "bpm" as const, decimals: 0 };

describe("reportMean", () => {
  it("takes the series' mean and count, the compared series' mean, and the change", () => {
    const m = reportMean(HR, series(), series({ summary: { n: 3, mean: 58.5, min: 57, max: 60, days: 3, anomalies: 0 } }));
    expect(m).toMatchObject({ metric: "night.lowest_heart_rate", mean: 61, n: 2, compared: { mean: 58.5, n: 3, delta: 2.5 } });
    expect(reportMean(HR, series(), null).compared).toBeNull();
  });

  it("reads the mean against the first day's range: the normal range where there is one, else the baseline band", () => {
    expect(reportMean(HR, series(), null).range).toEqual({ source: "baseline", low: 50, high: 70, state: "within" });
    const normal = { transform: "none" as const, windowDays: 60, baseDays: 7, minNights: 21, k: 0.5, low: [62, 62, 62], high: [66, 66, 66] };
    const withNormal = series({ normal: { ...normal, base7: [null, null, null], state: [null, null, null], nights: 60 } });
    expect(reportMean(HR, withNormal, null).range).toEqual({ source: "normal_range", low: 62, high: 66, state: "below" });
    expect(reportMean(HR, series({ baseLow: [null, 50, 50] }), null).range).toBeNull();
    expect(reportMean(HR, series({ summary: { n: 0, mean: null, min: null, max: null, days: 3, anomalies: 0 } }), series()).compared).toEqual({
      mean: 61,
      n: 2,
      delta: null,
    });
  });
});

describe("flaggedNights", () => {
  it("lists the watch and likely nights, counts each, and the nights judged", () => {
    const ew = flaggedNights([
      { day: "2026-01-01", level: null, flags: 0, muted: false, flagged: [] },
      { day: "2026-01-02", level: "none", flags: 0, muted: false, flagged: [] },
      { day: "2026-01-03", level: "watch", flags: 1, muted: true, flagged: ["hrv"] },
      { day: "2026-01-04", level: "likely", flags: 2, muted: false, flagged: ["hrv", "resting_heart_rate"] },
    ]);
    expect(ew).toEqual({
      nights: [
        { day: "2026-01-03", level: "watch", flags: 1, muted: true, markers: ["hrv"] },
        { day: "2026-01-04", level: "likely", flags: 2, muted: false, markers: ["hrv", "resting_heart_rate"] },
      ],
      watch: 1,
      likely: 1,
      judged: 3,
    });
  });
});

describe("reportFigure", () => {
  it("is the mean of the days with a value, their count and the last one", () => {
    const days = [
      { day: "2026-01-01", value: 1.25 },
      { day: "2026-01-02", value: null },
      { day: "2026-01-03", value: 2.5 },
      { day: "2026-01-04", value: null },
    ];
    expect(reportFigure(days, 1)).toEqual({ mean: 1.9, n: 2, last: { day: "2026-01-03", value: 2.5 } });
    expect(reportFigure([{ day: "2026-01-01", value: null }], 1)).toEqual({ mean: null, n: 0, last: null });
  });
});

describe("lineChart", () => {
  it("carries the values, the 7-day mean and the band; durations in hours", () => {
    const c = lineChart({
      id: "night.total_sleep_duration",
      group: "sleep",
      metric: "night.total_sleep_duration",
      title: "Total sleep",
      unit: "s",
      decimals: 0,
      series: series({ value: [27000, null, 28800], avg7: [null, null, 27900], baseLow: [null, null, 25200], baseHigh: [null, null, 30600] }),
      caption: "…",
      hours: true,
    });
    expect(c).toMatchObject({
      unit: "h",
      value: [7.5, null, 8],
      avg7: [null, null, 7.75],
      low: [null, null, 7],
      high: [null, null, 8.5],
      rangeSource: "baseline",
    });
    const bare = lineChart({
      id: "x",
      group: "scores",
      metric: "sleep.score",
      title: "",
      unit: "score",
      decimals: 0,
      series: series({ baseLow: [null, null, null] }),
      caption: "",
    });
    expect(bare.rangeSource).toBeNull();
  });
});

describe("clockHoursOn", () => {
  it("counts hours from the midnight that starts the day, on the document's own clock", () => {
    expect(clockHoursOn("2026-01-02", "2026-01-01T22:30:00+01:00")).toBe(-1.5);
    expect(clockHoursOn("2026-01-02", "2026-01-02T07:15:00-05:00")).toBe(7.25);
    expect(clockHoursOn("2026-01-02", "2026-01-02T00:20:30.000+14:00")).toBe(0.34);
    expect(clockHoursOn("2026-01-02", null)).toBeNull();
    expect(clockHoursOn("2026-01-02", "yesterday")).toBeNull();
  });
});

describe("countByType", () => {
  it("counts, sums minutes and calories by type, most frequent first", () => {
    const out = countByType(
      [
        { type: "yoga", seconds: 1800, calories: null },
        { type: "running", seconds: 2700, calories: 450 },
        { type: "running", seconds: 1800, calories: 300.4 },
      ],
      (t) => t.toUpperCase(),
    );
    expect(out).toEqual([
      { type: "running", label: "RUNNING", count: 2, minutes: 75, calories: 750 },
      { type: "yoga", label: "YOGA", count: 1, minutes: 30, calories: null },
    ]);
  });
});

describe("tagsWithDays", () => {
  it("lists each tag once with its days, the person's own first", () => {
    const tags = tagsWithDays([
      { day: "2026-01-03", tags: [{ name: "travel" }], ringTags: [{ name: "Alcohol" }] },
      { day: "2026-01-01", tags: [{ name: "travel" }, { name: "alcohol" }], ringTags: [] },
    ]);
    expect(tags).toEqual([
      { name: "alcohol", source: "own", days: ["2026-01-01"] },
      { name: "travel", source: "own", days: ["2026-01-01", "2026-01-03"] },
      { name: "Alcohol", source: "ring", days: ["2026-01-03"] },
    ]);
  });
});

describe("gapsOf", () => {
  it("names runs of at least three days without data, at either end too", () => {
    const withData = new Set(["2026-01-04", "2026-01-05", "2026-01-07", "2026-01-08"]);
    expect(gapsOf(withData, "2026-01-01", "2026-01-12")).toEqual([
      { from: "2026-01-01", to: "2026-01-03", days: 3 },
      { from: "2026-01-09", to: "2026-01-12", days: 4 },
    ]);
    expect(gapsOf(new Set(), "2026-01-01", "2026-01-02")).toEqual([]);
  });
});

it("names the PDF for its period", () => {
  expect(reportFileName({ from: "2026-01-01", to: "2026-03-31" })).toBe("ringside-report-2026-01-01-to-2026-03-31.pdf");
});
