"use client";
import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { niceTicks } from "@/components/charts/scale";
import { useRechartsReady } from "@/components/charts/use-recharts-ready";

const mmss = (s: number) => `${Math.floor(s / 60)}:${String(Math.round(s % 60)).padStart(2, "0")}`;

/** A workout's heart rate, from its start (minutes:seconds) to its end. */
export function WorkoutCurve({ points, label }: { points: Array<{ s: number; bpm: number }>; label: string }) {
  const ref = useRechartsReady<HTMLDivElement>(points.length > 0);
  if (!points.length) return <p className="text-sm text-slate-500 dark:text-slate-400">No heart-rate samples during this workout.</p>;
  const bpm = points.map((p) => p.bpm);
  const axis = niceTicks(Math.min(...bpm), Math.max(...bpm), 4);
  const last = points[points.length - 1]!.s;
  const step = Math.max(60, Math.ceil(last / 6 / 60) * 60);
  const ticks: number[] = [];
  for (let t = 0; t <= last; t += step) ticks.push(t);
  return (
    <div ref={ref} role="img" aria-label={label} className="h-[200px] w-full" data-testid="workout-curve">
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={points} margin={{ top: 8, right: 12, bottom: 0, left: -12 }}>
          <CartesianGrid stroke="var(--chart-grid)" vertical={false} />
          <XAxis dataKey="s" type="number" domain={[0, last]} ticks={ticks} tickFormatter={mmss} tick={{ fill: "var(--chart-text)", fontSize: 11 }} stroke="var(--chart-grid)" />
          <YAxis tick={{ fill: "var(--heart)", fontSize: 11 }} stroke="var(--chart-grid)" domain={axis.domain} ticks={axis.ticks} width={44} />
          <Tooltip
            isAnimationActive={false}
            labelFormatter={(s) => mmss(Number(s))}
            formatter={(v) => [`${Math.round(Number(v))} bpm`, "Heart rate"]}
            contentStyle={{ background: "var(--tooltip-bg)", color: "var(--tooltip-text)", borderRadius: 8, border: "1px solid var(--chart-grid)", fontSize: 12 }}
            labelStyle={{ color: "var(--tooltip-text)", fontWeight: 600 }}
          />
          <Line dataKey="bpm" stroke="var(--heart)" dot={{ r: 1.5, fill: "var(--heart)" }} strokeWidth={1.5} isAnimationActive={false} />
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
