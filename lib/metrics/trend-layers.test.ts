import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { NORMAL_RANGE } from "@/lib/signals/normal-range";
import { PRIOR_MEAN_DAYS, ROLLING_WINDOWS } from "@/lib/metrics/stats";
import { isLayerShown, SEVEN_DAY_MEAN, TOGGLE_LAYER_IDS, TREND_LAYER, TREND_LAYERS } from "@/lib/metrics/trend-layers";

/** Product source files (no tests) under the given folders. */
function sourceFiles(...dirs: string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== "node_modules" && e.name !== "generated") walk(p);
      } else if (/\.(ts|tsx|mjs)$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)) out.push(p);
    }
  };
  for (const d of dirs) walk(path.resolve(d));
  return out;
}

describe("Trends layers", () => {
  it("each has a unique id, a label, a legend line and a colour the stylesheet defines", () => {
    const css = fs.readFileSync(path.resolve("app/globals.css"), "utf8");
    const defined = (v: string) => new RegExp(`^\\s*${v.replace(/^var\((.*)\)$/, "$1")}:`, "m").test(css);
    expect(new Set(TREND_LAYERS.map((l) => l.id)).size).toBe(TREND_LAYERS.length);
    for (const l of TREND_LAYERS) {
      expect(l.label.trim(), l.id).not.toBe("");
      expect(l.legend.trim(), l.id).not.toBe("");
      expect(l.color, l.id).toMatch(/^var\(--[\w-]+\)$/);
      expect(defined(l.color), `${l.color} in app/globals.css`).toBe(true);
      if ("lineColor" in l) expect(defined(l.lineColor), `${l.lineColor} in app/globals.css`).toBe(true);
      expect(TREND_LAYER[l.id]).toBe(l);
    }
  });

  it("the switches are the layers the URL carries, in the legend's order; the flags are always shown", () => {
    expect(TOGGLE_LAYER_IDS).toEqual(["avg7", "avg30", "band", "normal", "tags"]);
    const allOff = { avg7: false, avg30: false, band: false, normal: false, tags: false };
    expect(TREND_LAYERS.filter((l) => isLayerShown(l, allOff)).map((l) => l.id)).toEqual(["flags"]);
    expect(TREND_LAYERS.filter((l) => isLayerShown(l, { ...allOff, normal: true })).map((l) => l.id)).toEqual(["flags", "normal"]);
  });

  it("keeps the names the pages and their specs read", () => {
    expect(TOGGLE_LAYER_IDS.map((id) => TREND_LAYER[id].label)).toEqual(["7-day mean", "30-day mean", "Usual range", "Normal range", "Tags"]);
    expect(TREND_LAYER.band.legend).toBe("usual range (90-day mean ± 2 sd)");
    expect(TREND_LAYER.flags.legend).toBe("outside usual range (bar: 3+ days in a row)");
  });

  it("the normal range's legend says the method's numbers", () => {
    expect(TREND_LAYER.normal.legend).toContain(`${NORMAL_RANGE.windowDays} nights, ± ${NORMAL_RANGE.k} sd`);
    expect(TREND_LAYER.normal.legend).toContain(`its ${SEVEN_DAY_MEAN.label}`);
  });
});

describe('the label "7-day mean"', () => {
  it("names three means that are each 7 days long", () => {
    expect(SEVEN_DAY_MEAN.label).toBe("7-day mean");
    expect(SEVEN_DAY_MEAN.label.startsWith(SEVEN_DAY_MEAN.short)).toBe(true);
    expect([ROLLING_WINDOWS[0], PRIOR_MEAN_DAYS, NORMAL_RANGE.baseDays]).toEqual([7, 7, 7]);
  });

  it("is written once in the product's code (comments aside)", () => {
    const writers = sourceFiles("app", "components", "lib").filter((f) =>
      fs
        .readFileSync(f, "utf8")
        .split("\n")
        .some((line) => line.includes("7-day mean") && !/^\s*(\/\/|\*|\/\*)/.test(line)),
    );
    expect(writers.map((f) => path.relative(process.cwd(), f))).toEqual([path.join("lib", "metrics", "trend-layers.ts")]);
  });
});
