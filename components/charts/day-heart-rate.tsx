"use client";
import { CartesianGrid, ReferenceArea, ReferenceLine, ResponsiveContainer, Scatter, ScatterChart, Tooltip, XAxis, YAxis } from "recharts";
import { TOOLTIP_STYLE } from "@/components/charts/tooltip-style";
import { formatClock } from "@/lib/metrics/day-detail";
import { describeSeries } from "@/lib/metrics/describe";
import { HEART_RATE_SOURCES, labelOf } from "@/lib/metrics/sources";
import { niceTicks } from "@/components/charts/scale";
import { useRechartsReady } from "@/components/charts/use-recharts-ready";
import { ChartFigure, chartFocusClass, CursorHint, LiveReadout, useChartCursor } from "@/components/charts/chart-a11y";
import { heartRateSeries } from "@/components/charts/heart-rate-sources";

type Point = { t: number; bpm: number; source: string | null };
type Band = { start: number; end: number; kind: "workout" | "session"; label: string };

/**
 * A whole day's heart rate on the local clock (00:00–24:00), one marker per sample, its colour
 * and shape by source (sleep, rest, awake, session, workout), with the day's workouts and
 * sessions as bands. Focus it and move through the samples with the arrow keys.
 */
export function DayHeartRate({ points, bands, label }: { points: Point[]; bands: Band[]; label: string }) {
  const ref = useRechartsReady<HTMLDivElement>(points.length > 0);
  const sorted = [...points].sort((a, b) => a.t - b.t);
  const { cursor, hintId, focusProps } = useChartCursor(sorted.length, 12);
  const bpm = points.map((p) => p.bpm);
  const axis = niceTicks(Math.min(...bpm), Math.max(...bpm), 4);
  const series = heartRateSeries(points);
  const at = cursor !== null ? sorted[cursor] : undefined;
  const readout = at ? `${formatClock(at.t)}: ${Math.round(at.bpm)} bpm, ${labelOf(HEART_RATE_SOURCES, at.source).toLowerCase()}` : "";
  const summary = describeSeries(
    "Heart rate",
    sorted.map((p) => ({ at: formatClock(p.t), value: p.bpm })),
    (v) => `${Math.round(v)} bpm`,
  );
  return (
    <ChartFigure summary={summary} table={{ caption: `${label} By hour`, columns: HOUR_COLUMNS, rows: () => hourRows(sorted) }}>
      <div ref={ref} {...focusProps} role="group" aria-label={label} className={`h-[220px] w-full ${chartFocusClass}`} data-testid="day-heart-rate-chart">
        <CursorHint id={hintId} unit="sample" />
        <ResponsiveContainer width="100%" height="100%">
          <ScatterChart margin={{ top: 8, right: 12, bottom: 0, left: -12 }} accessibilityLayer={false}>
            <CartesianGrid stroke="var(--chart-grid)" vertical={false} />
            {bands.map((b, i) => (
              <ReferenceArea
                key={i}
                x1={b.start}
                x2={b.end}
                fill={b.kind === "workout" ? "var(--workout)" : "var(--session)"}
                fillOpacity={0.12}
                strokeOpacity={0}
                ifOverflow="hidden"
              />
            ))}
            <XAxis
              dataKey="t"
              type="number"
              domain={[0, 1440]}
              ticks={[0, 180, 360, 540, 720, 900, 1080, 1260, 1440]}
              tickFormatter={formatClock}
              tick={{ fill: "var(--chart-text)", fontSize: 11 }}
              stroke="var(--chart-grid)"
            />
            <YAxis
              dataKey="bpm"
              type="number"
              tick={{ fill: "var(--chart-text)", fontSize: 11 }}
              stroke="var(--chart-grid)"
              domain={axis.domain}
              ticks={axis.ticks}
              width={44}
            />
            <Tooltip
              {...TOOLTIP_STYLE}
              cursor={{ stroke: "var(--chart-cursor)" }}
              formatter={(v, name) => (name === "t" ? [formatClock(Number(v)), "Time"] : [`${Math.round(Number(v))} bpm`, "Heart rate"])}
            />
            {series.map((s) => (
              <Scatter key={s.key} name={s.name} data={s.data} fill={s.color} shape={s.shape} isAnimationActive={false} legendType={s.shape} />
            ))}
            {at ? <ReferenceLine x={at.t} stroke="var(--chart-cursor)" strokeDasharray="3 3" /> : null}
          </ScatterChart>
        </ResponsiveContainer>
      </div>
      <LiveReadout text={readout} visible />
    </ChartFigure>
  );
}

const HOUR_COLUMNS = [
  { label: "Hour" },
  { label: "Samples", numeric: true },
  { label: "Lowest", numeric: true },
  { label: "Mean", numeric: true },
  { label: "Highest", numeric: true },
  { label: "Mostly" },
];

/** The day's samples hour by hour: count, lowest, mean, highest (bpm) and the commonest source. */
function hourRows(sorted: readonly Point[]) {
  const hours = new Map<number, Point[]>();
  for (const p of sorted) {
    const h = Math.floor(p.t / 60);
    hours.set(h, [...(hours.get(h) ?? []), p]);
  }
  return [...hours].map(([h, ps]) => {
    const v = ps.map((p) => p.bpm);
    const counts = new Map<string, number>();
    for (const p of ps) counts.set(p.source ?? "", (counts.get(p.source ?? "") ?? 0) + 1);
    const top = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? "";
    return {
      key: String(h),
      cells: [
        `${formatClock(h * 60)}–${formatClock(h * 60 + 59)}`,
        ps.length,
        Math.min(...v),
        Math.round(v.reduce((a, b) => a + b, 0) / v.length),
        Math.max(...v),
        labelOf(HEART_RATE_SOURCES, top || null),
      ],
    };
  });
}
