"use client";
import { formatClock, SLEEP_PHASES, type Segment, type SleepPhase } from "@/lib/metrics/day-detail";
import { formatDuration } from "@/lib/metrics/format";
import { linearScale } from "@/components/charts/scale";
import { ClockChartBox, clockColumns, clockRow, clockTicks } from "@/components/charts/clock-chart";
import { ChartTable } from "@/components/charts/chart-table";

const PHASE_LABEL: Record<SleepPhase, string> = { awake: "Awake", rem: "REM", light: "Light", deep: "Deep" };

export function describePhases(minutes: Record<SleepPhase, number>): string {
  return (["deep", "rem", "light", "awake"] as const).map((p) => `${PHASE_LABEL[p]} ${formatDuration(minutes[p] * 60)}`).join(", ");
}

/** The sleep stages of one period over the night (rows: awake, REM, light, deep). */
export function Hypnogram({
  segments,
  minutes,
  start,
  end,
  height = 132,
  label,
}: {
  segments: Segment<SleepPhase>[];
  minutes: Record<SleepPhase, number>;
  start: number;
  end: number;
  height?: number;
  label: string;
}) {
  const left = 46;
  const right = 8;
  const top = 4;
  const bottom = 20;
  const rowH = (height - top - bottom) / 4;
  const ticks = clockTicks(start, end, end - start > 8 * 60 ? 120 : 60);
  return (
    <figure className="m-0">
      <ClockChartBox
        height={height}
        hasData={segments.length > 0}
        label={`${label}. ${describePhases(minutes)}.`}
        draw={(width) => {
          const x = linearScale([start, Math.max(end, start + 5)], [left, Math.max(left + 10, width - right)]);
          return (
            <>
              {SLEEP_PHASES.map((p, i) => (
                <g key={p}>
                  <rect
                    x={left}
                    y={top + i * rowH}
                    width={width - left - right}
                    height={rowH}
                    fill={i % 2 ? "transparent" : "var(--chart-grid)"}
                    opacity={0.35}
                  />
                  <text x={left - 6} y={top + i * rowH + rowH / 2} dy="0.32em" textAnchor="end" fontSize={10.5} fill="var(--chart-text)">
                    {PHASE_LABEL[p]}
                  </text>
                </g>
              ))}
              {segments.map((s, i) => {
                const row = SLEEP_PHASES.indexOf(s.kind);
                return (
                  <rect
                    key={i}
                    x={x(s.start)}
                    y={top + row * rowH + 2}
                    width={Math.max(1, x(s.end) - x(s.start))}
                    height={rowH - 4}
                    rx={2}
                    fill={`var(--phase-${s.kind})`}
                  />
                );
              })}
              {ticks.map((t) => (
                <text key={t} x={x(t)} y={height - 5} textAnchor="middle" fontSize={10.5} fill="var(--chart-text)">
                  {formatClock(t)}
                </text>
              ))}
            </>
          );
        }}
      />
      <figcaption className="mt-1 flex flex-wrap gap-x-3 gap-y-1 text-xs text-slate-600 dark:text-slate-400">
        {(["deep", "rem", "light", "awake"] as const).map((p) => (
          <span key={p} className="inline-flex items-center gap-1.5">
            <span aria-hidden className="h-2.5 w-2.5 rounded-sm" style={{ background: `var(--phase-${p})` }} />
            {PHASE_LABEL[p]} <span className="font-medium tabular-nums text-slate-800 dark:text-slate-200">{formatDuration(minutes[p] * 60)}</span>
          </span>
        ))}
      </figcaption>
      <ChartTable
        caption={`${label}: the stages in order`}
        columns={clockColumns("Stage")}
        rows={() => segments.map((seg, i) => clockRow(i, seg.start, seg.end, PHASE_LABEL[seg.kind]))}
      />
    </figure>
  );
}
