"use client";
import { ACTIVITY_CLASS_LABELS, ACTIVITY_CLASSES, formatClock, type ActivityClass, type Segment } from "@/lib/metrics/day-detail";
import { formatDuration } from "@/lib/metrics/format";
import { linearScale } from "@/components/charts/scale";
import { ClockChartBox, clockColumns, clockRow, clockTicks } from "@/components/charts/clock-chart";
import { ChartTable } from "@/components/charts/chart-table";

/** Each class's bar height (of 28 px): the level reads from the height as well as the colour. */
const LEVEL_HEIGHT: Record<ActivityClass, number> = { non_wear: 4, rest: 8, inactive: 12, low: 18, medium: 23, high: 28 };

/** A workout or session on the timeline (minutes on the same clock as the segments). */
export type TimelineEvent = { start: number; end: number; kind: "workout" | "session"; label: string };

/**
 * The activity day (04:00 to 04:00) as a strip of 5-minute activity classes, with the day's
 * workouts and sessions marked above it.
 */
export function ActivityTimeline({
  segments,
  minutes,
  label,
  events = [],
}: {
  segments: Segment<ActivityClass>[];
  minutes: Record<ActivityClass, number>;
  label: string;
  events?: TimelineEvent[];
}) {
  const top = events.length ? 14 : 0;
  const height = 58 + top;
  const left = 4;
  const right = 4;
  const start = segments[0]?.start ?? 240;
  const end = Math.max(segments[segments.length - 1]?.end ?? start + 1440, start + 1440);
  const ticks = clockTicks(start, end, 180);
  const summary = [
    ...ACTIVITY_CLASSES.filter((c) => minutes[c] > 0).map((c) => `${ACTIVITY_CLASS_LABELS[c]} ${formatDuration(minutes[c] * 60)}`),
    ...events.map((e) => `${e.label} ${formatClock(e.start)}–${formatClock(e.end)}`),
  ].join(", ");
  return (
    <figure className="m-0">
      <ClockChartBox
        height={height}
        hasData={segments.length > 0}
        label={`${label}. ${summary}.`}
        draw={(width) => {
          const x = linearScale([start, end], [left, Math.max(left + 10, width - right)]);
          return (
            <>
              {events.map((e, i) => (
                // workouts solid, sessions outlined: told apart by more than colour
                <rect
                  key={`e${i}`}
                  data-event={e.kind}
                  x={x(e.start)}
                  y={3}
                  width={Math.max(3, x(e.end) - x(e.start))}
                  height={8}
                  rx={3}
                  fill={e.kind === "workout" ? "var(--workout)" : "none"}
                  stroke={e.kind === "workout" ? "none" : "var(--session)"}
                  strokeWidth={1.75}
                >
                  <title>{`${e.label} ${formatClock(e.start)}–${formatClock(e.end)}`}</title>
                </rect>
              ))}
              <rect x={left} y={6 + top} width={width - left - right} height={28} rx={6} fill="var(--chart-grid)" opacity={0.4} />
              {segments.map((s, i) => (
                <rect
                  key={i}
                  data-class={s.kind}
                  x={x(s.start)}
                  y={6 + top + 28 - LEVEL_HEIGHT[s.kind]}
                  width={Math.max(0.8, x(s.end) - x(s.start))}
                  height={LEVEL_HEIGHT[s.kind]}
                  fill={`var(--act-${s.kind})`}
                />
              ))}
              {ticks.map((t) => (
                <g key={t}>
                  <line x1={x(t)} x2={x(t)} y1={34 + top} y2={38 + top} stroke="var(--chart-text)" opacity={0.5} />
                  <text x={x(t)} y={height - 6} textAnchor="middle" fontSize={10.5} fill="var(--chart-text)">
                    {formatClock(t)}
                  </text>
                </g>
              ))}
            </>
          );
        }}
      />
      <figcaption className="mt-1 flex flex-wrap gap-x-3 gap-y-1 text-xs text-slate-600 dark:text-slate-400">
        {events.some((e) => e.kind === "workout") ? (
          <span className="inline-flex items-center gap-1.5">
            <span aria-hidden className="h-2.5 w-2.5 rounded-sm" style={{ background: "var(--workout)" }} />
            Workout
          </span>
        ) : null}
        {events.some((e) => e.kind === "session") ? (
          <span className="inline-flex items-center gap-1.5">
            <span aria-hidden className="h-2.5 w-2.5 rounded-sm border-2" style={{ borderColor: "var(--session)" }} />
            Session (outlined)
          </span>
        ) : null}
        {ACTIVITY_CLASSES.map((c) => (
          <span key={c} className="inline-flex items-center gap-1.5">
            <span aria-hidden className="inline-flex h-3 w-2.5 items-end">
              <span
                className="w-full rounded-[2px] ring-1 ring-inset ring-slate-400/60 dark:ring-slate-500/60"
                style={{ background: `var(--act-${c})`, height: `${(LEVEL_HEIGHT[c] / 28) * 100}%` }}
              />
            </span>
            {ACTIVITY_CLASS_LABELS[c]} <span className="font-medium tabular-nums text-slate-800 dark:text-slate-200">{formatDuration(minutes[c] * 60)}</span>
          </span>
        ))}
      </figcaption>
      <ChartTable
        caption={`${label}: each stretch of one level, and the workouts and sessions`}
        columns={clockColumns("Level")}
        rows={() =>
          [
            ...segments.map((seg) => ({ start: seg.start, end: seg.end, what: ACTIVITY_CLASS_LABELS[seg.kind] })),
            ...events.map((e) => ({ start: e.start, end: e.end, what: e.label })),
          ]
            .sort((a, b) => a.start - b.start)
            .map((r, i) => clockRow(i, r.start, r.end, r.what))
        }
      />
    </figure>
  );
}
