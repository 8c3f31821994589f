"use client";
import { CartesianGrid, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { TOOLTIP_STYLE } from "@/components/charts/tooltip-style";
import { describeSeries } from "@/lib/metrics/describe";
import { niceTicks } from "@/components/charts/scale";
import { useRechartsReady } from "@/components/charts/use-recharts-ready";
import { ChartFigure, chartFocusClass, CursorHint, LiveReadout, useChartCursor } from "@/components/charts/chart-a11y";

const mmss = (s: number) => `${Math.floor(s / 60)}:${String(Math.round(s % 60)).padStart(2, "0")}`;

/**
 * A workout's heart rate, from its start (minutes:seconds) to its end, with its summary and
 * its samples as a table. Focus it and read the samples with the arrow keys.
 */
export function WorkoutCurve({ points, label }: { points: Array<{ s: number; bpm: number }>; label: string }) {
  const ref = useRechartsReady<HTMLDivElement>(points.length > 0);
  const { cursor, hintId, focusProps } = useChartCursor(points.length, 10);
  if (!points.length) return <p className="text-sm text-slate-500 dark:text-slate-400">No heart-rate samples during this workout.</p>;
  const bpm = points.map((p) => p.bpm);
  const axis = niceTicks(Math.min(...bpm), Math.max(...bpm), 4);
  const last = points[points.length - 1]!.s;
  const step = Math.max(60, Math.ceil(last / 6 / 60) * 60);
  const ticks: number[] = [];
  for (let t = 0; t <= last; t += step) ticks.push(t);
  const at = cursor !== null ? points[cursor] : undefined;
  const summary = describeSeries(
    "Heart rate",
    points.map((p) => ({ at: mmss(p.s), value: p.bpm })),
    (v) => `${Math.round(v)} bpm`,
  );
  return (
    <ChartFigure
      summary={summary}
      table={{
        caption: label,
        columns: [{ label: "Time from start" }, { label: "Heart rate (bpm)", numeric: true }],
        rows: () => points.map((p) => ({ key: String(p.s), cells: [mmss(p.s), Math.round(p.bpm)] })),
      }}
    >
      <div ref={ref} {...focusProps} role="group" aria-label={label} className={`h-[200px] w-full ${chartFocusClass}`} data-testid="workout-curve">
        <CursorHint id={hintId} unit="sample" />
        <ResponsiveContainer width="100%" height="100%">
          <LineChart data={points} margin={{ top: 8, right: 12, bottom: 0, left: -12 }} accessibilityLayer={false}>
            <CartesianGrid stroke="var(--chart-grid)" vertical={false} />
            <XAxis
              dataKey="s"
              type="number"
              domain={[0, last]}
              ticks={ticks}
              tickFormatter={mmss}
              tick={{ fill: "var(--chart-text)", fontSize: 11 }}
              stroke="var(--chart-grid)"
            />
            <YAxis tick={{ fill: "var(--heart)", fontSize: 11 }} stroke="var(--chart-grid)" domain={axis.domain} ticks={axis.ticks} width={44} />
            <Tooltip {...TOOLTIP_STYLE} labelFormatter={(s) => mmss(Number(s))} formatter={(v) => [`${Math.round(Number(v))} bpm`, "Heart rate"]} />
            <Line dataKey="bpm" stroke="var(--heart)" dot={{ r: 1.5, fill: "var(--heart)" }} strokeWidth={1.5} isAnimationActive={false} />
            {at ? <ReferenceLine x={at.s} stroke="var(--chart-cursor)" strokeDasharray="3 3" /> : null}
          </LineChart>
        </ResponsiveContainer>
      </div>
      <LiveReadout text={at ? `${mmss(at.s)} from the start: ${Math.round(at.bpm)} bpm` : ""} visible />
    </ChartFigure>
  );
}
