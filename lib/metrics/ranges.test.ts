import { describe, expect, it } from "vitest";
import { getMetric } from "@/lib/metrics/catalog";
import { describeCategorySeries, describeNumericSeries } from "@/lib/metrics/describe";
import { resolveRange } from "@/lib/metrics/ranges";
import { diffDays, MAX_RANGE_DAYS } from "@/lib/days";
import { buildCategorySeries, buildNumericSeries } from "@/lib/metrics/series";
import { dayRange } from "@/lib/days";

describe("ranges", () => {
  const data = { firstDay: "2022-01-10", lastDay: "2024-05-31" };
  it("ends presets on the newest day with data", () => {
    expect(resolveRange("7d", data, "2024-06-05")).toEqual({ from: "2024-05-25", to: "2024-05-31" });
    expect(resolveRange("1y", data, "2024-06-05")).toEqual({ from: "2023-06-02", to: "2024-05-31" });
    expect(resolveRange("all", data, "2024-06-05")).toEqual({ from: "2022-01-10", to: "2024-05-31" });
  });
  it("uses valid custom days and falls back otherwise", () => {
    expect(resolveRange("custom", data, "x", { from: "2023-01-01", to: "2023-01-31" })).toEqual({ from: "2023-01-01", to: "2023-01-31" });
    expect(resolveRange("custom", data, "x", { from: "2023-02-01", to: "2023-01-31" }).to).toBe("2024-05-31");
    expect(resolveRange("30d", { firstDay: null, lastDay: null }, "2024-06-05")).toEqual({ from: "2024-05-07", to: "2024-06-05" });
  });
});

describe("chart summaries", () => {
  it("says mean, coverage, extremes and the change in words", () => {
    const m = getMetric("sleep.score");
    const rows = dayRange("2024-03-01", "2024-03-14").map((day, i) => ({ day, value: i === 10 ? null : i < 7 ? 70 : 80 }));
    const s = buildNumericSeries(m, rows, "2024-03-08", "2024-03-14");
    expect(describeNumericSeries(m, s, "metric")).toBe(
      "Sleep score from 8 Mar 2024 to 14 Mar 2024: mean 80 over 6 of 7 days, lowest 80, highest 80; latest 80 (14 Mar 2024). Against the 7 days before, the mean rose by 10.",
    );
  });
  it("counts categories", () => {
    const m = getMetric("stress.day_summary");
    const s = buildCategorySeries(
      m,
      [
        { day: "2024-01-01", value: "normal" },
        { day: "2024-01-02", value: "normal" },
        { day: "2024-01-03", value: "restored" },
      ],
      "2024-01-01",
      "2024-01-04",
    );
    expect(describeCategorySeries(m, s)).toBe("Stress day summary from 1 Jan 2024 to 4 Jan 2024: Normal 2 days, Restored 1 day (3 of 4 days with a value).");
  });
});

describe("resolveRange: never longer than MAX_RANGE_DAYS", () => {
  const data = { firstDay: "2015-01-01", lastDay: "2026-01-31" };
  it("a custom range outside the day window or over the cap falls back to the default", () => {
    expect(resolveRange("custom", data, "2026-02-01", { from: "2000-01-01", to: "2099-12-31" })).toEqual({ from: "2025-11-03", to: "2026-01-31" });
    expect(resolveRange("custom", data, "2026-02-01", { from: "0001-01-01", to: "2026-01-01" })).toEqual({ from: "2025-11-03", to: "2026-01-31" });
    expect(resolveRange("custom", data, "2026-02-01", { from: "2026-01-01", to: "9999-12-31" })).toEqual({ from: "2025-11-03", to: "2026-01-31" });
    expect(resolveRange("custom", data, "2026-02-01", { from: "2026-01-01", to: "2026-01-10" })).toEqual({ from: "2026-01-01", to: "2026-01-10" });
  });
  it('"all" over data that spans more than the cap is cut to the newest MAX_RANGE_DAYS days', () => {
    const r = resolveRange("all", { firstDay: "2000-01-01", lastDay: "2099-12-31" }, "2026-02-01");
    expect(r.to).toBe("2099-12-31");
    expect(diffDays(r.from, r.to) + 1).toBe(MAX_RANGE_DAYS);
  });
});
