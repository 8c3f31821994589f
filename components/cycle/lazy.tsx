"use client";
// The Cycle view's recharts charts in their own chunk, loaded in the browser only (like the day
// curves: components/charts/lazy.tsx), so no other page pays for them.
import dynamic from "next/dynamic";

function box(height: number) {
  return function ChartLoading() {
    return <div aria-hidden style={{ height }} className="w-full animate-pulse rounded-lg bg-slate-100 motion-reduce:animate-none dark:bg-slate-800/60" />;
  };
}

export const LazyCycleTemperatureChart = dynamic(() => import("@/components/cycle/cycle-charts").then((m) => m.CycleTemperatureChart), {
  ssr: false,
  loading: box(240),
});
export const LazyCycleLengthsChart = dynamic(() => import("@/components/cycle/cycle-charts").then((m) => m.CycleLengthsChart), {
  ssr: false,
  loading: box(180),
});
