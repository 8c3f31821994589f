import { describe, expect, it } from "vitest";
import { nextCursor } from "@/components/charts/chart-a11y";
import { categoryRank } from "@/components/charts/scale";
import { getMetric } from "@/lib/metrics/catalog";

describe("nextCursor: the keyboard cursor of a chart", () => {
  it("lands on the last point first, then steps, a week with Shift, never past the ends", () => {
    expect(nextCursor("ArrowLeft", false, null, 30)).toBe(29);
    expect(nextCursor("ArrowRight", false, null, 30)).toBe(29);
    expect(nextCursor("ArrowLeft", false, 29, 30)).toBe(28);
    expect(nextCursor("ArrowLeft", true, 29, 30)).toBe(22);
    expect(nextCursor("ArrowLeft", true, 3, 30)).toBe(0);
    expect(nextCursor("ArrowRight", false, 29, 30)).toBe(29);
    expect(nextCursor("ArrowRight", true, 25, 30, 4)).toBe(29);
  });

  it("jumps to the ends, leaves with Escape, ignores other keys and empty charts", () => {
    expect(nextCursor("Home", false, 12, 30)).toBe(0);
    expect(nextCursor("End", false, 12, 30)).toBe(29);
    expect(nextCursor("Escape", false, 12, 30)).toBeNull();
    expect(nextCursor("a", false, 12, 30)).toBeUndefined();
    expect(nextCursor("Tab", false, 12, 30)).toBeUndefined();
    expect(nextCursor("ArrowLeft", false, null, 0)).toBeUndefined();
  });
});

describe("categoryRank: a category's level as a height, not only a colour", () => {
  it("grows from the lowest level to the highest, the lowest still visible", () => {
    const m = getMetric("resilience.level");
    const heights = ["limited", "adequate", "solid", "strong", "exceptional"].map((v) => categoryRank(m, v));
    expect(heights[0]).toBeCloseTo(0.35);
    expect(heights[4]).toBe(1);
    for (let i = 1; i < heights.length; i++) expect(heights[i]).toBeGreaterThan(heights[i - 1]!);
    expect(categoryRank(m, "something new")).toBe(1);
  });
});
