// The report's charts as geometry, in points inside a chart's own box (0, 0 at its top left):
// the scales, the value rules and day ticks with their labels, and the paths of the daily
// values, the 7-day mean, the normal range and the night's stages, written as PDF path operators
// ("x y m", "x y l", "h", "x y w h re"), one string per mark. Pure functions over the report's
// numbers (./charts.ts draws them); the scales and ticks are components/charts/scale.ts's, the
// same as the app's own SVG charts. The paths are written here rather than as SVG for pdfkit's
// doc.path(): parsing them back, and pdfkit writing each segment as a chunk of its own, made most
// of a render's allocations (docs/performance.md#report-pdf).
import { dayTicks, linearScale, niceTicks, type Scale } from "@/components/charts/scale";
import type { Num } from "@/lib/metrics/stats";
import type { ReportStagesChart } from "@/lib/metrics/report";

/** A chart's plot: its height, the room left for the value labels and below for the day labels, and the labels' size. */
export const PLOT = { height: 112, pad: { left: 34, right: 4, top: 5, bottom: 14 }, tickFont: 6.5, dayTicks: 8 } as const;

export type Frame = { from: string; days: number; width: number; x: Scale; y: Scale; ticks: number[]; formatTick: (v: number) => string };

/** The scales of a chart `width` points wide over `days` days from `from`, its value axis fitted to every series (from 0 with `zero`). */
export function chartFrame(
  from: string,
  days: number,
  width: number,
  values: ReadonlyArray<readonly Num[]>,
  formatTick: (v: number) => string,
  zero = false,
): Frame {
  let lo = Infinity;
  let hi = -Infinity;
  for (const series of values)
    for (const v of series) {
      if (v === null || !Number.isFinite(v)) continue;
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  if (zero && lo > 0) lo = 0;
  if (zero && hi <= lo) hi = lo + 1;
  const { ticks, domain } = Number.isFinite(lo) ? niceTicks(lo, hi, 4, formatTick) : { ticks: [0, 1], domain: [0, 1] as [number, number] };
  const x = linearScale([0, Math.max(1, days - 1)], [PLOT.pad.left, width - PLOT.pad.right]);
  const y = linearScale(domain, [PLOT.height - PLOT.pad.bottom, PLOT.pad.top]);
  return { from, days, width, x, y, ticks, formatTick };
}

const drawn = (v: Num | undefined): v is number => v !== null && v !== undefined && Number.isFinite(v);
const r2 = (v: number) => Math.round(v * 100) / 100;

/** A series as a line through its days, lifted at every day without a value (a gap is a gap, never a line to 0). */
export function lineOps(f: Frame, series: readonly Num[]): string {
  let ops = "";
  let pen = false;
  for (let i = 0; i < f.days; i++) {
    const v = series[i];
    if (!drawn(v)) {
      pen = false;
      continue;
    }
    ops += `${r2(f.x(i))} ${r2(f.y(v))} ${pen ? "l" : "m"}\n`;
    pen = true;
  }
  return ops;
}

/** The normal range: one closed area per run of days that have both edges, along the high edge and back along the low ("" for none). */
export function rangeOps(f: Frame, low: readonly Num[], high: readonly Num[]): string {
  let ops = "";
  let i = 0;
  const n = Math.min(f.days, low.length, high.length);
  while (i < n) {
    while (i < n && !(drawn(low[i]) && drawn(high[i]))) i++;
    const s = i;
    while (i < n && drawn(low[i]) && drawn(high[i])) i++;
    if (i === s) continue;
    for (let j = s; j < i; j++) ops += `${r2(f.x(j))} ${r2(f.y(high[j] as number))} ${j === s ? "m" : "l"}\n`;
    for (let j = i - 1; j >= s; j--) ops += `${r2(f.x(j))} ${r2(f.y(low[j] as number))} l\n`;
    ops += "h\n";
  }
  return ops;
}

export type Anchor = "start" | "middle" | "end";

/** A day label's anchor: centred under its tick, but kept inside the chart at either end. */
export const tickAnchor = (x: number, width: number): Anchor => (x < PLOT.pad.left + 12 ? "start" : x > width - PLOT.pad.right - 12 ? "end" : "middle");

/** Where a label's left edge goes for its anchor at x. */
export const anchored = (x: number, textWidth: number, anchor: Anchor): number =>
  anchor === "start" ? x : anchor === "end" ? x - textWidth : x - textWidth / 2;

export type AxisMarks = {
  /** the value rules across the plot, each with its label (right-aligned before the plot) */
  rules: Array<{ y: number; label: string }>;
  /** the day ticks below the plot, each with its label and anchor */
  days: Array<{ x: number; label: string; anchor: Anchor }>;
  /** the plot's bottom edge, where the day ticks start */
  bottom: number;
};

/** The axes: horizontal rules at the value ticks with their labels, and the day ticks below. */
export function axisMarks(f: Frame): AxisMarks {
  return {
    rules: f.ticks.map((t) => ({ y: f.y(t), label: f.formatTick(t) })),
    days: dayTicks(f.from, f.days, PLOT.dayTicks).map((t) => ({ x: f.x(t.index), label: t.label, anchor: tickAnchor(f.x(t.index), f.width) })),
    bottom: PLOT.height - PLOT.pad.bottom,
  };
}

export const STAGES = [
  { key: "deep", label: "Deep" },
  { key: "rem", label: "REM" },
  { key: "light", label: "Light" },
  { key: "awake", label: "Awake" },
] as const;

export type StageKey = (typeof STAGES)[number]["key"];

/** Each night's stages added up (the stages chart's value axis). */
export const stageTotals = (chart: ReportStagesChart): number[] =>
  Array.from({ length: chart.deep.length }, (_, i) => STAGES.reduce((s, st) => s + (chart[st.key][i] ?? 0), 0));

/** One bar per night, its stages stacked from the bottom (deep, REM, light, awake): one run of rectangles per stage ("" for none). */
export function stageOps(chart: ReportStagesChart, f: Frame): Record<StageKey, string> {
  const width = r2(Math.max(0.3, Math.min(6, ((f.width - PLOT.pad.left - PLOT.pad.right) / Math.max(1, f.days)) * 0.75)));
  const ops: Record<StageKey, string> = { deep: "", rem: "", light: "", awake: "" };
  for (let i = 0; i < f.days; i++) {
    let base = 0;
    for (const st of STAGES) {
      const v = chart[st.key][i];
      if (!drawn(v) || !(v > 0)) continue;
      const top = f.y(base + v);
      ops[st.key] += `${r2(f.x(i) - width / 2)} ${r2(top)} ${width} ${r2(f.y(base) - top)} re\n`;
      base += v;
    }
  }
  return ops;
}
