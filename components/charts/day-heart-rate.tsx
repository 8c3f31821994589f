"use client";
import { CartesianGrid, ReferenceArea, ResponsiveContainer, Scatter, ScatterChart, Tooltip, XAxis, YAxis } from "recharts";
import { formatClock } from "@/lib/metrics/day-detail";
import { HEART_RATE_SOURCES } from "@/lib/metrics/sources";
import { niceTicks } from "@/components/charts/scale";
import { useRechartsReady } from "@/components/charts/use-recharts-ready";

type Point = { t: number; bpm: number; source: string | null };
type Band = { start: number; end: number; kind: "workout" | "session"; label: string };

/**
 * A whole day's heart rate on the local clock (00:00–24:00), one dot per sample coloured by its
 * source (sleep, rest, awake, session, workout), with the day's workouts and sessions as bands.
 */
export function DayHeartRate({ points, bands, label }: { points: Point[]; bands: Band[]; label: string }) {
  const ref = useRechartsReady<HTMLDivElement>(points.length > 0);
  const bpm = points.map((p) => p.bpm);
  const axis = niceTicks(Math.min(...bpm), Math.max(...bpm), 4);
  const known = new Set(HEART_RATE_SOURCES.map((s) => s.value));
  const series = [
    ...HEART_RATE_SOURCES.map((s) => ({ key: s.value, name: s.label, color: s.color ?? "var(--heart)", data: points.filter((p) => p.source === s.value) })),
    { key: "other", name: "Other", color: "var(--chart-cursor)", data: points.filter((p) => !p.source || !known.has(p.source)) },
  ].filter((s) => s.data.length > 0);
  return (
    <div ref={ref} role="img" aria-label={label} className="h-[220px] w-full" data-testid="day-heart-rate-chart">
      <ResponsiveContainer width="100%" height="100%">
        <ScatterChart margin={{ top: 8, right: 12, bottom: 0, left: -12 }}>
          <CartesianGrid stroke="var(--chart-grid)" vertical={false} />
          {bands.map((b, i) => (
            <ReferenceArea key={i} x1={b.start} x2={b.end} fill={b.kind === "workout" ? "var(--workout)" : "var(--session)"} fillOpacity={0.12} strokeOpacity={0} ifOverflow="hidden" />
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
          <YAxis dataKey="bpm" type="number" tick={{ fill: "var(--chart-text)", fontSize: 11 }} stroke="var(--chart-grid)" domain={axis.domain} ticks={axis.ticks} width={44} />
          <Tooltip
            isAnimationActive={false}
            cursor={{ stroke: "var(--chart-cursor)" }}
            formatter={(v, name) => (name === "t" ? [formatClock(Number(v)), "Time"] : [`${Math.round(Number(v))} bpm`, "Heart rate"])}
            contentStyle={{ background: "var(--tooltip-bg)", color: "var(--tooltip-text)", borderRadius: 8, border: "1px solid var(--chart-grid)", fontSize: 12 }}
          />
          {series.map((s) => (
            <Scatter key={s.key} name={s.name} data={s.data} fill={s.color} shape="circle" isAnimationActive={false} legendType="circle" r={2} />
          ))}
        </ScatterChart>
      </ResponsiveContainer>
    </div>
  );
}
