import { describe, expect, it } from "vitest";
import { getMetric } from "@/lib/metrics/catalog";
import { dayRange } from "@/lib/days";
import { describeNumericSeries, describeSeries } from "@/lib/metrics/describe";
import { buildNumericSeries } from "@/lib/metrics/series";

const fmt = (v: number) => `${Math.round(v)}`;

describe("describeSeries: a chart's range, latest value and change in words", () => {
  it("names the range, the latest value and the change since the first", () => {
    const points = [
      { at: "1 Nov", value: 70 },
      { at: "2 Nov", value: 62 },
      { at: "3 Nov", value: null },
      { at: "4 Nov", value: 88 },
      { at: "5 Nov", value: 75 },
    ];
    expect(describeSeries("Sleep score", points, fmt)).toBe("Sleep score: lowest 62, highest 88; latest 75 (5 Nov), up 5 since 1 Nov.");
  });

  it("skips gaps at either end (a gap is not a zero)", () => {
    const points = [
      { at: "a", value: null },
      { at: "b", value: 50 },
      { at: "c", value: 40 },
      { at: "d", value: null },
    ];
    expect(describeSeries("HRV", points, (v) => `${v} ms`)).toBe("HRV: lowest 40 ms, highest 50 ms; latest 40 ms (c), down 10 ms since b.");
  });

  it("says unchanged when the change rounds to nothing, and handles one or no value", () => {
    expect(
      describeSeries(
        "x",
        [
          { at: "a", value: 60.2 },
          { at: "b", value: 59.9 },
        ],
        fmt,
      ),
    ).toBe("x: lowest 60, highest 60; latest 60 (b), unchanged since a.");
    expect(describeSeries("x", [{ at: "a", value: 3 }], fmt)).toBe("x: one value, 3 (a).");
    expect(describeSeries("x", [{ at: "a", value: null }], fmt)).toBe("x: no values.");
    expect(describeSeries("x", [], fmt)).toBe("x: no values.");
  });
});

describe("describeNumericSeries: the Trends panel's summary", () => {
  it("names the latest day with a value (an unworn last day is a gap, not the latest)", () => {
    const m = getMetric("sleep.score");
    const rows = dayRange("2024-03-01", "2024-03-14").map((day, i) => ({ day, value: i === 13 ? null : 60 + i }));
    const s = buildNumericSeries(m, rows, "2024-03-08", "2024-03-14");
    expect(describeNumericSeries(m, s, "metric")).toContain("latest 72 (13 Mar 2024)");
  });
});
