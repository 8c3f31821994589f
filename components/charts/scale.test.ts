import { describe, expect, it } from "vitest";
import { bandPath, dayTicks, linearScale, linePath, nearestIndex, niceTicks } from "@/components/charts/scale";

describe("chart geometry", () => {
  it("maps a domain onto a range", () => {
    const s = linearScale([0, 100], [200, 0]);
    expect(s(0)).toBe(200);
    expect(s(25)).toBe(150);
    expect(linearScale([5, 5], [0, 10])(5)).toBe(5);
  });

  it("picks round ticks that cover the data", () => {
    expect(niceTicks(61, 94, 4)).toEqual({ ticks: [60, 70, 80, 90, 100], domain: [60, 100] });
    expect(niceTicks(0.12, 0.47, 4).ticks).toEqual([0.1, 0.2, 0.3, 0.4, 0.5]);
    expect(niceTicks(50, 50, 4).domain[0]).toBeLessThan(50);
  });

  it("breaks lines at gaps instead of drawing to zero", () => {
    expect(linePath([0, 10, 20, 30], [5, null, 7, 8])).toBe("M0 5M20 7L30 8");
    expect(linePath([0, 10], [null, null])).toBe("");
  });

  it("draws one closed band per run of days with a baseline", () => {
    expect(bandPath([0, 10, 20, 30], [1, 2, null, 4], [5, 6, null, 8])).toBe("M0 5L10 6L10 2L0 1ZM30 8L30 4Z");
  });

  it("labels days, weeks, months or years depending on the span", () => {
    expect(dayTicks("2024-03-01", 7, 8).map((t) => t.label)).toEqual(["1", "2", "3", "4", "5", "6", "7"]);
    const weeks = dayTicks("2024-03-01", 30, 6);
    expect(weeks.every((t) => t.label.endsWith("Mar"))).toBe(true);
    expect(weeks[0]).toEqual({ index: 3, label: "4 Mar" }); // the first Monday
    const months = dayTicks("2024-01-01", 366, 12);
    expect(months.map((t) => t.label).slice(0, 3)).toEqual(["Jan 24", "Feb", "Mar"]);
    const years = dayTicks("2020-01-01", 5 * 365, 6);
    expect(years.map((t) => t.label)).toEqual(["2020", "2021", "2022", "2023", "2024"]);
  });

  it("finds the slot under the pointer", () => {
    const s = linearScale([0, 9], [0, 90]);
    expect(nearestIndex(44, s, 10)).toBe(4);
    expect(nearestIndex(-5, s, 10)).toBe(0);
    expect(nearestIndex(500, s, 10)).toBe(9);
  });
});
