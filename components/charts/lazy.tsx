"use client";
// Chart components in their own chunks (next/dynamic). The recharts-based charts (day curves:
// ~100 kB gzip) load on demand, client-side only, so no page that does not draw one pays for
// it. Ringside's own SVG charts (trend line, category strip, scatter) keep SSR on: Next then
// preloads their chunk with the page instead of asking for it after hydration, which saves a
// round trip before the Trends page's first chart (they render an empty box of the right
// height on the server, where there is no width to draw to).
import dynamic from "next/dynamic";

/** The placeholder shown while a chart's code loads: a box of the chart's height. */
function box(height: number) {
  return function ChartLoading() {
    return <div aria-hidden style={{ height }} className="w-full animate-pulse rounded-lg bg-slate-100 motion-reduce:animate-none dark:bg-slate-800/60" />;
  };
}

export const LazyTrendChart = dynamic(() => import("@/components/charts/trend-chart").then((m) => m.TrendChart), {
  loading: box(200),
});
export const LazyCategoryStrip = dynamic(() => import("@/components/charts/category-strip").then((m) => m.CategoryStrip), {
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
  loading: box(340),
});
export const LazyDayHeartRate = dynamic(() => import("@/components/charts/day-heart-rate").then((m) => m.DayHeartRate), {
  ssr: false,
  loading: box(220),
});
export const LazyWorkoutCurve = dynamic(() => import("@/components/charts/workout-curve").then((m) => m.WorkoutCurve), {
  ssr: false,
  loading: box(200),
});
export const LazyWeeklyWorkouts = dynamic(() => import("@/components/charts/weekly-workouts").then((m) => m.WeeklyWorkouts), {
  ssr: false,
  loading: box(240),
});
