"use client";
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatDay } from "@/lib/metrics/days";
import type { WeeklyTotals } from "@/lib/metrics/workouts";
import { useRechartsReady } from "@/components/charts/use-recharts-ready";

export type WeeklySeries = { key: string; name: string; color: string };

/** Weekly minutes or calories of workouts, stacked by activity or by intensity. */
export function WeeklyWorkouts({
  weeks,
  by,
  measure,
  series,
  label,
}: {
  weeks: WeeklyTotals[];
  by: "byActivity" | "byIntensity";
  measure: "minutes" | "calories";
  series: WeeklySeries[];
  label: string;
}) {
  const ref = useRechartsReady<HTMLDivElement>(weeks.length > 0);
  const data = weeks.map((w) => ({ week: w.week, ...Object.fromEntries(series.map((s) => [s.key, Math.round(w[by][s.key]?.[measure] ?? 0)])) }));
  const unit = measure === "minutes" ? "min" : "kcal";
  return (
    <div ref={ref} role="img" aria-label={label} className="h-[260px] w-full" data-testid="weekly-workouts-chart">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: -8 }}>
          <CartesianGrid stroke="var(--chart-grid)" vertical={false} />
          <XAxis dataKey="week" tickFormatter={(w: string) => formatDay(w, { withWeekday: false })} tick={{ fill: "var(--chart-text)", fontSize: 11 }} stroke="var(--chart-grid)" minTickGap={24} />
          <YAxis tick={{ fill: "var(--chart-text)", fontSize: 11 }} stroke="var(--chart-grid)" width={48} />
          <Tooltip
            isAnimationActive={false}
            labelFormatter={(w) => `Week of ${formatDay(String(w), { withYear: true })}`}
            formatter={(v, name) => [`${v} ${unit}`, name]}
            contentStyle={{ background: "var(--tooltip-bg)", color: "var(--tooltip-text)", borderRadius: 8, border: "1px solid var(--chart-grid)", fontSize: 12 }}
            labelStyle={{ color: "var(--tooltip-text)", fontWeight: 600 }}
          />
          <Legend wrapperStyle={{ fontSize: 12, color: "var(--chart-text)" }} />
          {series.map((s) => (
            <Bar key={s.key} dataKey={s.key} name={s.name} stackId="w" fill={s.color} isAnimationActive={false} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
