"use client";
import { useMemo } from "react";
import { formatDay } from "@/lib/days";
import { dayAt, type CategorySeries } from "@/lib/metrics/series";
import { categoryRank, linearScale } from "@/components/charts/scale";
import { Tooltip } from "@/components/charts/trend-chart";
import { dayAxisTicks, type DayAxisChartProps, DayAxisBox, DayAxisLabels, DayAxisSvg, dayRangeLabel, MARGIN } from "@/components/charts/day-axis";
import { useChartReady, useWidth } from "@/components/charts/use-chart-size";
import { LiveReadout } from "@/components/charts/chart-a11y";

/**
 * A category metric (resilience level, stress day summary) as a coloured strip, one cell per
 * day on the same time axis as the line charts; missing days stay blank.
 */
export function CategoryStrip({
  metric,
  series,
  tags,
  showTags,
  cursor,
  onCursor,
  height = 64,
  showXAxis = true,
}: DayAxisChartProps & { series: CategorySeries; showTags: boolean }) {
  const [wrapRef, width] = useWidth<HTMLDivElement>();
  const n = series.value.length;
  const bottom = showXAxis ? MARGIN.bottom : 6;
  const colors = useMemo(() => new Map((metric.categories ?? []).map((c) => [c.value, c])), [metric]);
  const geo = useMemo(() => {
    if (width <= 0 || n === 0) return null;
    const x = linearScale([0, Math.max(1, n - 1)], [MARGIN.left, width - MARGIN.right]);
    const cell = n > 1 ? (width - MARGIN.left - MARGIN.right) / (n - 1) : 8;
    const xs = Array.from({ length: n }, (_, i) => x(i));
    return { x, xs, cell, xTicks: dayAxisTicks(series.from, n, width) };
  }, [width, n, series.from]);
  const ready = useChartReady<HTMLDivElement>(!!geo);
  const top = MARGIN.top;
  const bandH = height - top - bottom;
  const cursorDay = cursor !== null && cursor < n ? dayAt(series.from, cursor) : null;
  const cursorValue = cursor !== null ? (series.value[cursor] ?? null) : null;
  const label = dayRangeLabel(`${metric.label} by day`, series.from, series.to);
  return (
    <DayAxisBox boxRef={wrapRef} ready={ready} height={height} label={label} cursor={cursor} n={n} onCursor={onCursor}>
      {geo ? (
        <DayAxisSvg width={width} height={height} x={geo.x} n={n} onCursor={onCursor}>
          <rect x={MARGIN.left} y={top} width={width - MARGIN.left - MARGIN.right} height={bandH} rx={4} fill="var(--chart-grid)" opacity={0.35} />
          {series.value.map((v, i) => {
            if (v === null) return null;
            const c = colors.get(v);
            // the level's height tells the categories apart as well as their colour (lowest: shortest)
            const h = bandH * categoryRank(metric, v);
            return (
              <rect
                key={i}
                data-category={v}
                x={geo.xs[i]! - geo.cell / 2}
                y={top + bandH - h}
                width={Math.max(1, geo.cell + 0.3)}
                height={h}
                fill={c?.color ?? "var(--chart-grid)"}
              />
            );
          })}
          {showXAxis ? <DayAxisLabels ticks={geo.xTicks} xs={geo.xs} height={height} /> : null}
          {showTags
            ? geo.xs.map((x, i) => {
                const t = tags.get(dayAt(series.from, i));
                if (!t?.length) return null;
                return <path key={i} d={`M${x - 3.5} ${top - 9}L${x + 3.5} ${top - 9}L${x} ${top - 3}Z`} fill={t[0]?.color ?? "var(--chart-tag)"} />;
              })
            : null}
          {cursor !== null && geo.xs[cursor] !== undefined ? (
            <line
              x1={geo.xs[cursor]}
              x2={geo.xs[cursor]}
              y1={top - 2}
              y2={top + bandH + 2}
              stroke="var(--chart-cursor)"
              strokeWidth={1.5}
              pointerEvents="none"
            />
          ) : null}
        </DayAxisSvg>
      ) : null}
      {geo && cursorDay ? (
        <Tooltip
          x={geo.xs[cursor!] ?? 0}
          width={width}
          day={cursorDay}
          lines={[
            {
              label: metric.short,
              value: cursorValue ? (colors.get(cursorValue)?.label ?? cursorValue) : "—",
              color: cursorValue ? (colors.get(cursorValue)?.color ?? "transparent") : "transparent",
            },
          ]}
          tags={tags.get(cursorDay)}
        />
      ) : null}
      <LiveReadout
        text={cursorDay ? `${formatDay(cursorDay, { withYear: true })}: ${cursorValue ? (colors.get(cursorValue)?.label ?? cursorValue) : "no value"}` : ""}
      />
    </DayAxisBox>
  );
}
