"use client";
import { CartesianGrid, ComposedChart, Line, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { TOOLTIP_STYLE } from "@/components/charts/tooltip-style";
import { formatClock, type SamplePoint } from "@/lib/metrics/day-detail";
import { describeSeries } from "@/lib/metrics/describe";
import { niceTicks } from "@/components/charts/scale";
import { useRechartsReady } from "@/components/charts/use-recharts-ready";
import { ChartFigure, chartFocusClass, CursorHint, LiveReadout, useChartCursor } from "@/components/charts/chart-a11y";

type Row = { t: number; hr: number | null; hrv: number | null };

/**
 * The night's heart rate (solid line, left axis) and HRV (dashed, right axis): 5-minute samples
 * from the sleep period on the local clock. Focus it and read the samples with the arrow keys.
 */
export function NightCurves({ heartRate, hrv, label }: { heartRate: SamplePoint[]; hrv: SamplePoint[]; label: string }) {
  const rows = new Map<number, Row>();
  for (const p of heartRate) rows.set(p.t, { t: p.t, hr: p.value, hrv: null });
  for (const p of hrv) {
    const r = rows.get(p.t);
    if (r) r.hrv = p.value;
    else rows.set(p.t, { t: p.t, hr: null, hrv: p.value });
  }
  const data = [...rows.values()].sort((a, b) => a.t - b.t);
  const ref = useRechartsReady<HTMLDivElement>(data.length > 0);
  const { cursor, hintId, focusProps } = useChartCursor(data.length, 12);
  if (!data.length) return <p className="text-sm text-slate-500 dark:text-slate-400">No heart-rate samples for this period.</p>;
  const t0 = data[0]!.t;
  const t1 = data[data.length - 1]!.t;
  const ticks: number[] = [];
  for (let t = Math.ceil(t0 / 60) * 60; t <= t1; t += 60) ticks.push(t);
  const hasHrv = hrv.some((p) => p.value !== null);
  const axis = (pts: SamplePoint[]) => {
    const v = pts.map((p) => p.value).filter((x): x is number => x !== null);
    return v.length ? niceTicks(Math.min(...v), Math.max(...v), 4) : { ticks: [], domain: [0, 1] as [number, number] };
  };
  const hrAxis = axis(heartRate);
  const hrvAxis = axis(hrv);
  const at = cursor !== null ? data[cursor] : undefined;
  const v = (x: number | null | undefined, unit: string) => (x === null || x === undefined ? "—" : `${Math.round(x)} ${unit}`);
  const readout = at ? `${formatClock(at.t)}: heart rate ${v(at.hr, "bpm")}${hasHrv ? `, HRV ${v(at.hrv, "ms")}` : ""}` : "";
  const summary = [
    describeSeries(
      "Heart rate",
      data.map((r) => ({ at: formatClock(r.t), value: r.hr })),
      (x) => `${Math.round(x)} bpm`,
    ),
    hasHrv
      ? describeSeries(
          "HRV",
          data.map((r) => ({ at: formatClock(r.t), value: r.hrv })),
          (x) => `${Math.round(x)} ms`,
        )
      : "",
  ].join(" ");
  return (
    <ChartFigure
      summary={summary}
      table={{
        caption: label,
        columns: [{ label: "Time" }, { label: "Heart rate (bpm)", numeric: true }, ...(hasHrv ? [{ label: "HRV (ms)", numeric: true }] : [])],
        rows: () =>
          data.map((r) => ({
            key: String(r.t),
            cells: [formatClock(r.t), r.hr === null ? "—" : Math.round(r.hr), ...(hasHrv ? [r.hrv === null ? "—" : Math.round(r.hrv)] : [])],
          })),
      }}
    >
      <div ref={ref} {...focusProps} role="group" aria-label={label} className={`h-[200px] w-full ${chartFocusClass}`}>
        <CursorHint id={hintId} unit="sample" />
        <ResponsiveContainer width="100%" height="100%">
          <ComposedChart data={data} margin={{ top: 8, right: hasHrv ? 4 : 12, bottom: 0, left: -12 }} accessibilityLayer={false}>
            <CartesianGrid stroke="var(--chart-grid)" vertical={false} />
            <XAxis
              dataKey="t"
              type="number"
              domain={[t0, t1]}
              ticks={ticks.length > 8 ? ticks.filter((_, i) => i % 2 === 0) : ticks}
              tickFormatter={formatClock}
              tick={{ fill: "var(--chart-text)", fontSize: 11 }}
              stroke="var(--chart-grid)"
            />
            <YAxis
              yAxisId="hr"
              tick={{ fill: "var(--heart)", fontSize: 11 }}
              stroke="var(--chart-grid)"
              domain={hrAxis.domain}
              ticks={hrAxis.ticks}
              width={44}
            />
            {hasHrv ? (
              <YAxis
                yAxisId="hrv"
                orientation="right"
                tick={{ fill: "var(--sleep)", fontSize: 11 }}
                stroke="var(--chart-grid)"
                domain={hrvAxis.domain}
                ticks={hrvAxis.ticks}
                width={40}
              />
            ) : null}
            <Tooltip
              {...TOOLTIP_STYLE}
              labelFormatter={(t) => formatClock(Number(t))}
              formatter={(v, name) => [
                v === null || v === undefined ? "—" : `${Math.round(Number(v))} ${name === "hr" ? "bpm" : "ms"}`,
                name === "hr" ? "Heart rate" : "HRV",
              ]}
            />
            <Line yAxisId="hr" dataKey="hr" name="hr" stroke="var(--heart)" dot={false} strokeWidth={1.75} isAnimationActive={false} connectNulls={false} />
            {hasHrv ? (
              <Line
                yAxisId="hrv"
                dataKey="hrv"
                name="hrv"
                stroke="var(--sleep)"
                strokeDasharray="5 3"
                dot={false}
                strokeWidth={1.5}
                isAnimationActive={false}
                connectNulls={false}
              />
            ) : null}
            {at ? <ReferenceLine yAxisId="hr" x={at.t} stroke="var(--chart-cursor)" strokeDasharray="3 3" /> : null}
          </ComposedChart>
        </ResponsiveContainer>
      </div>
      <LiveReadout text={readout} visible />
    </ChartFigure>
  );
}
