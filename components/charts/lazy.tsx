"use client";
// Chart components loaded on demand (next/dynamic, no SSR): a page's first paint carries only
// its layout and numbers, the drawing code follows in its own chunk. The recharts-based
// charts (day curves, scatter) are only ever reached through here.
import dynamic from "next/dynamic";

/** The placeholder shown while a chart's code loads: a box of the chart's height. */
function box(height: number) {
  return function ChartLoading() {
    return <div aria-hidden style={{ height }} className="w-full animate-pulse rounded-lg bg-slate-100 motion-reduce:animate-none dark:bg-slate-800/60" />;
  };
}

/**
 * Starts loading the trend chart's chunk now instead of after the first render (call at the
 * top of a page module that is sure to draw one): saves a round trip on the way to the chart.
 */
export function preloadTrendChart(): void {
  void import("@/components/charts/trend-chart");
}

export const LazyTrendChart = dynamic(() => import("@/components/charts/trend-chart").then((m) => m.TrendChart), {
  ssr: false,
  loading: box(200),
});
export const LazyCategoryStrip = dynamic(() => import("@/components/charts/category-strip").then((m) => m.CategoryStrip), {
  ssr: false,
  loading: box(64),
});
export const LazyYearHeatmap = dynamic(() => import("@/components/charts/year-heatmap").then((m) => m.YearHeatmap), {
  ssr: false,
  loading: box(320),
});
export const LazyNightCurves = dynamic(() => import("@/components/charts/night-curves").then((m) => m.NightCurves), {
  ssr: false,
  loading: box(180),
});
export const LazyScatterPlot = dynamic(() => import("@/components/charts/scatter-plot").then((m) => m.ScatterPlot), {
  ssr: false,
  loading: box(320),
});
