"use client";
// The frame shared by the charts drawn on the Trends page's one day axis (TrendChart,
// CategoryStrip): the margins, the box that is a keyboard stop moving the page's cursor, the
// SVG that turns the pointer into the nearest day, and the day labels under it.
import { useId, type PointerEvent, type ReactNode, type RefObject } from "react";
import type { TagRef } from "@/lib/api/contract";
import type { MetricDef } from "@/lib/metrics/catalog";
import { formatDay } from "@/lib/days";
import { dayTicks, nearestIndex, type DayTick, type Scale } from "@/components/charts/scale";
import { chartFocusClass, CursorHint, cursorKeyHandler } from "@/components/charts/chart-a11y";

/** What every chart on the shared day axis is given besides its series: the page's cursor and tags. */
export type DayAxisChartProps = {
  metric: MetricDef;
  tags: ReadonlyMap<string, TagRef[]>;
  cursor: number | null;
  onCursor: (i: number | null) => void;
  height?: number;
  showXAxis?: boolean;
};

export const MARGIN = { left: 44, right: 14, top: 12, bottom: 24 };

/** The day labels that fit a chart `width` wide (one per 64 px at the most, two at the least). */
export function dayAxisTicks(from: string, n: number, width: number): DayTick[] {
  return dayTicks(from, n, Math.max(2, Math.floor((width - MARGIN.left - MARGIN.right) / 64)));
}

/** A day-axis chart's accessible name: "<what>, <first day> to <last day>". */
export function dayRangeLabel(what: string, from: string, to: string): string {
  return `${what}, ${formatDay(from, { withYear: true, withWeekday: false })} to ${formatDay(to, { withYear: true, withWeekday: false })}`;
}

export type DayAxisBoxProps = {
  /** the element measured for the width (useWidth) */
  boxRef: RefObject<HTMLDivElement | null>;
  /** marks the element once drawn (useChartReady) */
  ready: (el: HTMLDivElement | null) => void;
  height: number;
  label: string;
  cursor: number | null;
  n: number;
  onCursor: (i: number | null) => void;
  children: ReactNode;
};

/** The chart's box: a focusable group whose arrow keys move the shared cursor, with its key hint. */
export function DayAxisBox({ boxRef, ready, height, label, cursor, n, onCursor, children }: DayAxisBoxProps) {
  const hintId = useId();
  return (
    <div
      ref={(el) => {
        boxRef.current = el;
        ready(el);
      }}
      className={`relative w-full select-none ${chartFocusClass}`}
      style={{ height }}
      tabIndex={0}
      role="group"
      aria-label={label}
      aria-describedby={hintId}
      onKeyDown={cursorKeyHandler(cursor, n, onCursor)}
      onBlur={() => onCursor(null)}
    >
      <CursorHint id={hintId} />
      {children}
    </div>
  );
}

/** The drawing: the pointer's x picks the nearest of the `n` days on scale `x`; leaving clears it. */
export function DayAxisSvg({
  width,
  height,
  x,
  n,
  onCursor,
  children,
}: {
  width: number;
  height: number;
  x: Scale;
  n: number;
  onCursor: (i: number | null) => void;
  children: ReactNode;
}) {
  const onMove = (e: PointerEvent<SVGSVGElement>) => {
    const rect = e.currentTarget.getBoundingClientRect();
    onCursor(nearestIndex(e.clientX - rect.left, x, n));
  };
  return (
    <svg width={width} height={height} aria-hidden onPointerMove={onMove} onPointerLeave={() => onCursor(null)} className="block touch-pan-y">
      {children}
    </svg>
  );
}

/** The day labels along the bottom (`height`: the chart's). */
export function DayAxisLabels({ ticks, xs, height }: { ticks: readonly DayTick[]; xs: readonly number[]; height: number }) {
  return ticks.map((t) => (
    <text key={t.index} x={xs[t.index]} y={height - 6} textAnchor="middle" fontSize={10.5} fill="var(--chart-text)">
      {t.label}
    </text>
  ));
}
