// The heart-rate sources as a chart draws them: each its colour and its marker shape, so the
// day's heart-rate chart and its legend tell sleep, rest, awake, session and workout apart
// without colour. (No charting library here: the legend imports it without recharts.)
import { HEART_RATE_SOURCES } from "@/lib/metrics/sources";
import { MARKER_SHAPES, type MarkerShape } from "@/components/charts/chart-a11y";

type Point = { source: string | null };

const HEART_RATE_STYLES: ReadonlyArray<{ key: string; name: string; color: string; shape: MarkerShape }> = [
  ...HEART_RATE_SOURCES.map((s, i) => ({
    key: s.value,
    name: s.label,
    color: s.color ?? "var(--heart)",
    shape: MARKER_SHAPES[i % (MARKER_SHAPES.length - 1)]!,
  })),
  { key: "other", name: "Other", color: "var(--chart-cursor)", shape: "star" },
];

/** The samples split by source, each with its style (sources without samples left out). */
export function heartRateSeries<P extends Point>(points: readonly P[]) {
  const known = new Set(HEART_RATE_SOURCES.map((s) => s.value));
  return HEART_RATE_STYLES.map((s) => ({
    ...s,
    data: points.filter((p) => (s.key === "other" ? !p.source || !known.has(p.source) : p.source === s.key)),
  })).filter((s) => s.data.length > 0);
}
