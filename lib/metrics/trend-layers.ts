// The Trends page's layers, declared once: what a chart draws over a metric's daily values, each
// with its name, its legend line and its colour. The layer switches (app/(app)/trends), the URL
// state (components/dashboard/trends-state.ts), the legend and the panel's table
// (components/dashboard/trend-panel.tsx) and the chart with its tooltip
// (components/charts/trend-chart.tsx) all read this list. The numbers come with the series
// (lib/metrics/series.ts: avg7, avg30, baseLow/baseHigh, flag/run, normal); the tags from the
// notes. Pure, safe in the browser.
import { ANOMALY_RUN_LENGTH, BASELINE_BAND_SD, BASELINE_DAYS } from "@/lib/metrics/stats";

/**
 * "7-day mean", as every page names it: Trends' rolling mean (the day and the 6 before), the
 * normal range's (the same, of the nightly value) and Today's change against the 7 days before a
 * day (`short` where a chip has little room: "vs 7-day").
 */
export const SEVEN_DAY_MEAN = { label: "7-day mean", short: "7-day" } as const;

/** How the legend draws a layer's sample: a line, a dashed line, a filled band, a dot or a tag's marker. */
export type TrendSwatch = "line" | "dashed" | "band" | "dot" | "marker";

export type TrendLayerDef = {
  id: string;
  /** its name on the switch, in the tooltip and as the table's column */
  label: string;
  /** the legend's line: what it is and how it is made */
  legend: string;
  /** its colour, a CSS variable of app/globals.css (a band's fill) */
  color: string;
  /** a band's edges and its own mean, where it has them */
  lineColor?: string;
  swatch: TrendSwatch;
  /** a switch turns it on and off (the flags are always drawn) */
  toggle: boolean;
};

/** In the legend's order. */
export const TREND_LAYERS = [
  { id: "avg7", label: SEVEN_DAY_MEAN.label, legend: SEVEN_DAY_MEAN.label, color: "var(--chart-avg7)", swatch: "line", toggle: true },
  { id: "avg30", label: "30-day mean", legend: "30-day mean", color: "var(--chart-avg30)", swatch: "dashed", toggle: true },
  {
    id: "band",
    label: "Usual range",
    legend: `usual range (${BASELINE_DAYS}-day mean ± ${BASELINE_BAND_SD} sd)`,
    color: "var(--chart-band)",
    swatch: "band",
    toggle: true,
  },
  {
    id: "flags",
    label: "Outside usual range",
    legend: `outside usual range (bar: ${ANOMALY_RUN_LENGTH}+ days in a row)`,
    color: "var(--chart-anomaly)",
    swatch: "dot",
    toggle: false,
  },
  {
    id: "normal",
    label: "Normal range",
    // the method's numbers (lib/signals/normal-range.ts, NORMAL_RANGE; trend-layers.test.ts holds them equal)
    legend: `normal range (nightly physiology: 60 nights, ± 0.5 sd; dotted: its ${SEVEN_DAY_MEAN.label})`,
    color: "var(--chart-normal)",
    lineColor: "var(--chart-normal-line)",
    swatch: "band",
    toggle: true,
  },
  { id: "tags", label: "Tags", legend: "tagged day", color: "var(--chart-tag)", swatch: "marker", toggle: true },
] as const satisfies readonly TrendLayerDef[];

type AnyLayer = (typeof TREND_LAYERS)[number];
/** The layers a switch turns on and off. */
export type ToggleLayerId = Extract<AnyLayer, { toggle: true }>["id"];
/** Which switchable layers are on. */
export type TrendLayers = Record<ToggleLayerId, boolean>;

/** Each layer by its id. */
export const TREND_LAYER = Object.fromEntries(TREND_LAYERS.map((l) => [l.id, l])) as { [L in AnyLayer as L["id"]]: L };

/** The switchable layers' ids, in the legend's order (the URL's `layers=` and the switches). */
export const TOGGLE_LAYER_IDS: readonly ToggleLayerId[] = TREND_LAYERS.filter((l): l is Extract<AnyLayer, { toggle: true }> => l.toggle).map((l) => l.id);

/** Whether the legend shows a layer: a switchable one while it is on, the others always. */
export function isLayerShown(layer: TrendLayerDef, on: TrendLayers): boolean {
  return !layer.toggle || on[layer.id as ToggleLayerId];
}
