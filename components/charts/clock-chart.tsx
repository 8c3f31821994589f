"use client";
// The frame shared by the charts of one day's clock (ActivityTimeline, Hypnogram): a box as
// wide as its column that draws once it has a width, a labelled image for screen readers, the
// hour ticks, and the rows of their "Show as table".
import type { ReactNode } from "react";
import { formatClock } from "@/lib/metrics/day-detail";
import { formatDuration } from "@/lib/metrics/format";
import { useChartReady, useWidth } from "@/components/charts/use-chart-size";

/** The box and its SVG (role="img", named `label`); `draw` gets the measured width. */
export function ClockChartBox({ height, hasData, label, draw }: { height: number; hasData: boolean; label: string; draw: (width: number) => ReactNode }) {
  const [ref, width] = useWidth<HTMLDivElement>();
  const ready = useChartReady<HTMLDivElement>(width > 0 && hasData);
  return (
    <div
      ref={(el) => {
        ref.current = el;
        ready(el);
      }}
      style={{ height }}
      className="w-full"
    >
      {width > 0 ? (
        <svg width={width} height={height} role="img" aria-label={label}>
          {draw(width)}
        </svg>
      ) : null}
    </div>
  );
}

/** The whole multiples of `step` minutes from `start` to `end` (the hour ticks). */
export function clockTicks(start: number, end: number, step: number): number[] {
  const ticks: number[] = [];
  for (let t = Math.ceil(start / step) * step; t <= end; t += step) ticks.push(t);
  return ticks;
}

/** A table row of one stretch: from, to, what, how long. */
export function clockRow(key: number, start: number, end: number, what: string) {
  return { key: String(key), cells: [formatClock(start), formatClock(end), what, formatDuration((end - start) * 60)] };
}

/** The columns of those rows (`what`: the third column's heading). */
export function clockColumns(what: string) {
  return [{ label: "From" }, { label: "To" }, { label: what }, { label: "Duration", numeric: true }];
}
