// The report's chart geometry (./chart-geometry.ts): pure functions from the report's numbers to
// PDF path operators, checked on small made-up series.
import { describe, expect, it } from "vitest";
import type { ReportStagesChart } from "@/lib/metrics/report";
import { PLOT, anchored, axisMarks, chartFrame, lineOps, rangeOps, stageOps, stageTotals, tickAnchor } from "./chart-geometry";

const WIDTH = 200;

describe("the report's chart geometry", () => {
  it("fits the value axis to every series, from 0 when asked, and spans the days across the plot", () => {
    const f = chartFrame(
      "2026-01-01",
      5,
      WIDTH,
      [
        [50, 52, null],
        [49, 55],
      ],
      String,
    );
    expect(f.y.domain[0]).toBeLessThanOrEqual(49);
    expect(f.y.domain[1]).toBeGreaterThanOrEqual(55);
    expect(f.x(0)).toBe(PLOT.pad.left);
    expect(f.x(4)).toBe(WIDTH - PLOT.pad.right);
    expect(chartFrame("2026-01-01", 5, WIDTH, [[5, 7]], String, true).y.domain[0]).toBe(0);
    // no value at all: still a frame to draw
    expect(chartFrame("2026-01-01", 5, WIDTH, [[null, null]], String).ticks.length).toBeGreaterThan(0);
  });

  it("draws a series as one line per run of days with a value, lifted at a gap (never a line to 0)", () => {
    const f = chartFrame("2026-01-01", 5, WIDTH, [[1, 3]], String);
    const ops = lineOps(f, [1, 2, null, 3, 3]).trim().split("\n");
    expect(ops.map((o) => o.split(" ").at(-1))).toEqual(["m", "l", "m", "l"]);
    expect(ops[0]).toBe(`${f.x(0)} ${Math.round(f.y(1) * 100) / 100} m`);
    expect(lineOps(f, [null, null, null, null, null])).toBe("");
  });

  it("draws the normal range as one closed area per run of days with both edges", () => {
    const f = chartFrame("2026-01-01", 4, WIDTH, [[0, 10]], String);
    const ops = rangeOps(f, [2, 2, null, 3], [8, 8, 8, 9]);
    expect(ops.match(/ m\n/g)).toHaveLength(2);
    expect(ops.match(/^h$/gm)).toHaveLength(2);
    expect(rangeOps(f, [null], [null])).toBe("");
  });

  it("stacks a night's stages from the bottom, one rectangle per stage, none for a missing or zero stage", () => {
    const chart = { deep: [1, null], rem: [2, 0], light: [3, 4], awake: [0.5, null] } as unknown as ReportStagesChart;
    expect(stageTotals(chart)).toEqual([6.5, 4]);
    const f = chartFrame("2026-01-01", 2, WIDTH, [stageTotals(chart)], String, true);
    const ops = stageOps(chart, f);
    expect(ops.deep.split("\n").filter(Boolean)).toHaveLength(1);
    expect(ops.rem.split("\n").filter(Boolean)).toHaveLength(1);
    expect(ops.light.split("\n").filter(Boolean)).toHaveLength(2);
    // the REM bar of the first night sits on top of its deep bar
    const [, deepTop] = ops.deep.split(" ").map(Number);
    const [, remTop, , remHeight] = ops.rem.split(" ").map(Number);
    expect(remTop! + remHeight!).toBeCloseTo(deepTop!, 1);
  });

  it("keeps the day labels inside the chart at either end", () => {
    expect(tickAnchor(PLOT.pad.left, WIDTH)).toBe("start");
    expect(tickAnchor(WIDTH / 2, WIDTH)).toBe("middle");
    expect(tickAnchor(WIDTH - PLOT.pad.right, WIDTH)).toBe("end");
    expect([anchored(100, 20, "start"), anchored(100, 20, "middle"), anchored(100, 20, "end")]).toEqual([100, 90, 80]);
    const marks = axisMarks(chartFrame("2026-01-01", 90, WIDTH, [[1, 2]], String));
    expect(marks.days[0]!.anchor).toBe("start");
    expect(marks.rules.every((r) => r.y >= PLOT.pad.top && r.y <= marks.bottom)).toBe(true);
  });
});
