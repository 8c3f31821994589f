"use client";
import { useId } from "react";
import { Bar, BarChart, CartesianGrid, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { TOOLTIP_STYLE } from "@/components/charts/tooltip-style";
import { formatDay } from "@/lib/days";
import { describeSeries } from "@/lib/metrics/describe";
import type { WeeklyTotals } from "@/lib/metrics/workouts";
import { useRechartsReady } from "@/components/charts/use-recharts-ready";
import { ChartFigure, chartFocusClass, CursorHint, LiveReadout, PatternDefs, patternFill, useChartCursor } from "@/components/charts/chart-a11y";

export type WeeklySeries = { key: string; name: string; color: string };

/**
 * Weekly minutes or calories of workouts, stacked by activity or by intensity; each part of a
 * stack has its colour and its own fill pattern (and the legend shows both). Focus it and read
 * the weeks with the arrow keys.
 */
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
  const { cursor, hintId, focusProps } = useChartCursor(weeks.length, 4);
  const patterns = useId().replace(/[^a-zA-Z0-9_-]/g, "");
  const data = weeks.map((w) => ({ week: w.week, ...Object.fromEntries(series.map((s) => [s.key, Math.round(w[by][s.key]?.[measure] ?? 0)])) }));
  const unit = measure === "minutes" ? "min" : "kcal";
  const total = (row: (typeof data)[number]) => series.reduce((a, s) => a + Number((row as Record<string, unknown>)[s.key] ?? 0), 0);
  const at = cursor !== null ? data[cursor] : undefined;
  const parts = (row: (typeof data)[number]) =>
    series
      .map((s) => [s.name, Number((row as Record<string, unknown>)[s.key] ?? 0)] as const)
      .filter(([, v]) => v > 0)
      .map(([n, v]) => `${n} ${v} ${unit}`)
      .join(", ");
  const readout = at ? `Week of ${formatDay(at.week, { withYear: true })}: ${total(at)} ${unit}${total(at) ? ` (${parts(at)})` : ""}` : "";
  const summary = describeSeries(
    `Weekly total (${unit})`,
    data.map((row) => ({ at: `week of ${formatDay(row.week, { withWeekday: false })}`, value: total(row) })),
    (v) => `${Math.round(v)} ${unit}`,
  );
  return (
    <ChartFigure
      summary={summary}
      table={{
        caption: label,
        columns: [{ label: "Week of" }, ...series.map((s) => ({ label: s.name, numeric: true })), { label: `Total (${unit})`, numeric: true }],
        rows: () =>
          data.map((row) => ({
            key: row.week,
            cells: [formatDay(row.week, { withYear: true }), ...series.map((s) => Number((row as Record<string, unknown>)[s.key] ?? 0)), total(row)],
          })),
      }}
    >
      <div ref={ref} {...focusProps} role="group" aria-label={label} className={`h-[260px] w-full ${chartFocusClass}`} data-testid="weekly-workouts-chart">
        <CursorHint id={hintId} unit="week" />
        <PatternDefs prefix={patterns} colors={series.map((s) => s.color)} />
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: -8 }} accessibilityLayer={false}>
            <CartesianGrid stroke="var(--chart-grid)" vertical={false} />
            <XAxis
              dataKey="week"
              tickFormatter={(w: string) => formatDay(w, { withWeekday: false })}
              tick={{ fill: "var(--chart-text)", fontSize: 11 }}
              stroke="var(--chart-grid)"
              minTickGap={24}
            />
            <YAxis tick={{ fill: "var(--chart-text)", fontSize: 11 }} stroke="var(--chart-grid)" width={48} />
            <Tooltip
              {...TOOLTIP_STYLE}
              labelFormatter={(w) => `Week of ${formatDay(String(w), { withYear: true })}`}
              formatter={(v, name) => [`${v} ${unit}`, name]}
            />
            {series.map((s, i) => (
              <Bar
                key={s.key}
                dataKey={s.key}
                name={s.name}
                stackId="w"
                fill={patternFill(patterns, i)}
                stroke={s.color}
                strokeWidth={0.5}
                isAnimationActive={false}
              />
            ))}
            {at ? <ReferenceLine x={at.week} stroke="var(--chart-cursor)" strokeDasharray="3 3" /> : null}
          </BarChart>
        </ResponsiveContainer>
      </div>
      {/* the legend shows each part's colour and its pattern, as the bars do */}
      <ul aria-label="Legend" className="mt-1 flex flex-wrap justify-center gap-x-3 gap-y-1 text-xs text-slate-600 dark:text-slate-300">
        {series.map((s, i) => (
          <li key={s.key} className="inline-flex items-center gap-1.5">
            <svg aria-hidden width={14} height={10} className="shrink-0">
              <rect x={0.5} y={0.5} width={13} height={9} fill={patternFill(patterns, i)} stroke={s.color} />
            </svg>
            {s.name}
          </li>
        ))}
      </ul>
      <LiveReadout text={readout} visible />
    </ChartFigure>
  );
}
