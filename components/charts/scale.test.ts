import { describe, expect, it } from "vitest";
import { bandPath, dayTicks, linearScale, linePath, nearestIndex, niceTicks, pixelPoints } from "@/components/charts/scale";

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
    // with the axis's labels, no two ticks read the same (an empty night's stages read 1, 1, 0, −1, −1 before)
    const whole = (v: number) => String(Math.round(v));
    for (const [lo, hi] of [
      [0, 0],
      [0, 1],
      [7.2, 7.9],
      [-0.4, 0.4],
      [55, 58],
    ] as const) {
      const labels = niceTicks(lo, hi, 4, whole).ticks.map(whole);
      expect(new Set(labels).size, `${lo}…${hi}: ${labels.join(", ")}`).toBe(labels.length);
      expect(labels.length).toBeGreaterThanOrEqual(1);
    }
    expect(niceTicks(0, 0, 4, whole).ticks).toEqual([-1, 0, 1]);
    expect(niceTicks(61, 94, 4, whole)).toEqual(niceTicks(61, 94, 4));
  });

  it("breaks lines at gaps instead of drawing to zero", () => {
    expect(linePath([0, 10, 20, 30], [5, null, 7, 8])).toBe("M0 5M20 7L30 8");
    expect(linePath([0, 10], [null, null])).toBe("");
  });

  it("thins a long series to its pixel columns, keeping each column's first, lowest, highest and last point", () => {
    // five years of days on 400 pixels: about 4.6 days a column
    const n = 1826;
    const xs = Array.from({ length: n }, (_, i) => (i * 400) / (n - 1));
    const ys = Array.from({ length: n }, (_, i) => 50 + 30 * Math.sin(i / 7) + (i === 900 ? 40 : 0));
    const kept = pixelPoints(xs, ys, 0, n);
    expect(kept.length).toBeLessThanOrEqual(4 * 401);
    expect(kept.length).toBeLessThan(n);
    expect(kept).toEqual([...kept].sort((a, b) => a - b)); // in order, none twice
    expect(new Set(kept).size).toBe(kept.length);
    expect(kept).toContain(900); // the one-day spike survives
    expect(kept[0]).toBe(0);
    expect(kept.at(-1)).toBe(n - 1);
    // every column keeps its extremes: the drawn range of each column is the data's range
    for (let c = 0; c <= 400; c++) {
      const inColumn = ys.filter((_, i) => Math.floor(xs[i]!) === c);
      if (inColumn.length === 0) continue;
      const keptInColumn = kept.filter((i) => Math.floor(xs[i]!) === c).map((i) => ys[i]!);
      expect(Math.max(...keptInColumn)).toBe(Math.max(...inColumn));
      expect(Math.min(...keptInColumn)).toBe(Math.min(...inColumn));
    }
    // a series with room to spare is drawn whole
    expect(pixelPoints([0, 10, 20, 30], [1, 2, 3, 4], 0, 4)).toEqual([0, 1, 2, 3]);
    expect(linePath(xs, ys).split(/[ML]/).length - 1).toBe(kept.length);
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
