import { describe, expect, it } from "vitest";
import type { SeriesResponse } from "@/lib/api/contract";
import { autoResolution, buckets, MAX_ROWS, summarizeSeries, summarizeState, unusualDays } from "@/lib/mcp/summaries";

function numeric(from: string, value: Array<number | null>, extra: Partial<Extract<SeriesResponse, { kind: "numeric" }>> = {}): SeriesResponse {
  const n = value.length;
  const nulls = () => new Array(n).fill(null);
  return {
    kind: "numeric",
    metric: "sleep.score",
    from,
    to: from,
    value,
    avg7: nulls(),
    avg30: nulls(),
    baseMean: nulls(),
    baseLow: nulls(),
    baseHigh: nulls(),
    flag: nulls(),
    run: new Array(n).fill(false),
    summary: { n: value.filter((v) => v !== null).length, mean: null, min: null, max: null, days: n, anomalies: 0 },
    comparison: { days: n, current: { mean: null, n: 0 }, previous: { mean: null, n: 0 }, delta: null, deltaPct: null, minCount: 3 },
    ...extra,
  };
}

describe("buckets", () => {
  it("weeks start on Monday and are clipped to the range", () => {
    // 2024-04-03 is a Wednesday
    const b = buckets("2024-04-03", [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], "week");
    expect(b.map((x) => [x.start, x.end, x.values.length])).toEqual([
      ["2024-04-03", "2024-04-07", 5],
      ["2024-04-08", "2024-04-12", 5],
    ]);
  });

  it("months follow the calendar, days are one each", () => {
    const b = buckets("2024-01-30", new Array(33).fill(0), "month");
    expect(b.map((x) => [x.start, x.end, x.values.length])).toEqual([
      ["2024-01-30", "2024-01-31", 2],
      ["2024-02-01", "2024-02-29", 29],
      ["2024-03-01", "2024-03-02", 2],
    ]);
    expect(buckets("2024-01-30", [1, 2], "day")).toHaveLength(2);
  });

  it("the automatic resolution keeps rows within the bound", () => {
    expect(autoResolution(90)).toBe("day");
    expect(autoResolution(MAX_ROWS + 1)).toBe("week");
    expect(autoResolution(MAX_ROWS * 7 + 1)).toBe("month");
  });
});

describe("summarizeSeries", () => {
  it("means per week skip gaps and state n; long answers keep the newest rows", () => {
    const s = summarizeSeries(numeric("2024-04-01", [80, null, 90, 70, null, null, 60, 100]), "week");
    expect(s.rows).toEqual([
      { start: "2024-04-01", end: "2024-04-07", n: 4, mean: 75, min: 60, max: 90 },
      { start: "2024-04-08", end: "2024-04-08", n: 1, mean: 100, min: 100, max: 100 },
    ]);
    expect(s.unit).toBe("score");
    const long = summarizeSeries(numeric("2024-01-01", new Array(200).fill(50)), "day");
    expect(long.rows).toHaveLength(MAX_ROWS);
    expect(long.rowsOmitted).toBe(80);
    expect(long.rows.at(-1)!.start).toBe("2024-07-18");
  });
});

describe("unusualDays", () => {
  it("ranks flagged days by distance from the usual mean, the clipped side of the band set aside", () => {
    const s = numeric("2024-04-01", [99, 70, 85], {
      baseMean: [90, 90, 90],
      baseLow: [80, 80, 80],
      baseHigh: [100, 100, 100], // clipped at 100: sd from the low side (5)
      flag: [null, "low", null],
      run: [false, false, false],
    });
    const hi = numeric("2024-04-01", [null, null, 40], {
      metric: "readiness.score",
      baseMean: [null, null, 60],
      baseLow: [null, null, 50],
      baseHigh: [null, null, 70],
      flag: [null, null, "low"],
    });
    const u = unusualDays([s, hi], 10);
    expect(u.flagged).toBe(2);
    expect(u.n).toBe(4);
    expect(u.days.map((d) => [d.day, d.metric, d.z])).toEqual([
      ["2024-04-03", "readiness.score", -4],
      ["2024-04-02", "sleep.score", -4],
    ]);
    expect(unusualDays([s, hi], 1).days).toHaveLength(1);
  });
});

describe("summarizeState", () => {
  const v = (value: number, unit: "score" | "bpm" | "ms" | "/min" | "°C", day = "2026-11-25") => ({ value, unit, day, ageDays: 0 });
  it("names each value with its unit and day, and leaves out what is null", () => {
    const text = summarizeState({
      today: "2026-11-25",
      timeZone: "Europe/Berlin",
      scores: { readiness: v(82, "score"), sleep: null, activity: v(64, "score", "2026-11-24") },
      night: { lowestHeartRate: v(48, "bpm"), averageHrv: v(52, "ms"), breathingRate: v(14.5, "/min"), temperatureDeviation: v(-0.12, "°C") },
      battery: { level: 18, charging: false, inCharger: true, at: "2026-11-25T09:00:00.000Z", freshUntil: "2026-11-25T12:00:00.000Z" },
      bedtime: {
        day: "2026-11-25",
        start: "2026-11-25T22:15:00+01:00",
        end: "2026-11-25T23:15:00+01:00",
        status: "optimal_found",
        recommendation: null,
        ageDays: 0,
      },
    });
    expect(text).toBe(
      "Today is 2026-11-25 (Europe/Berlin). Scores: readiness 82 (2026-11-25), activity 64 (2026-11-24). " +
        "Last night: lowest heart rate 48 bpm (2026-11-25), average HRV 52 ms (2026-11-25), breathing rate 14.5 /min (2026-11-25), temperature deviation -0.12 °C (2026-11-25). " +
        "Ring battery 18 % (on the charger), read at 2026-11-25T09:00:00.000Z, telling until 2026-11-25T12:00:00.000Z. " +
        "Bedtime window for the evening of 2026-11-25: 2026-11-25T22:15:00+01:00 to 2026-11-25T23:15:00+01:00.",
    );
    const empty = summarizeState({
      today: "2026-11-25",
      timeZone: "UTC",
      scores: { readiness: null, sleep: null, activity: null },
      night: { lowestHeartRate: null, averageHrv: null, breathingRate: null, temperatureDeviation: null },
      battery: null,
      bedtime: null,
    });
    expect(empty).toBe("Today is 2026-11-25 (UTC).");
  });
});
