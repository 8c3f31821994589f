"use client";
import { useMemo } from "react";
import { formatDay } from "@/lib/days";
import { displayScale, formatTick, formatValue, type Units } from "@/lib/metrics/format";
import { dayAt, type NumericSeries } from "@/lib/metrics/series";
import { bandPath, linearScale, linePath, niceTicks } from "@/components/charts/scale";
import { LiveReadout } from "@/components/charts/chart-a11y";
import { dayAxisTicks, type DayAxisChartProps, DayAxisBox, DayAxisLabels, DayAxisSvg, dayRangeLabel, MARGIN } from "@/components/charts/day-axis";
import { useChartReady, useWidth } from "@/components/charts/use-chart-size";
import { SEVEN_DAY_MEAN, TREND_LAYER as L, type TrendLayers } from "@/lib/metrics/trend-layers";
import type { TagRef } from "@/lib/api/contract";
import { cn } from "@/components/ui/cn";
import { NO_DATA_IN_PERIOD } from "@/lib/metrics/describe";
import type { CyclePhase } from "@/lib/cycle";
import { PHASE_FILL, PHASE_LABEL, phaseRuns } from "@/components/cycle/phase";

/**
 * One numeric metric over time: the daily values (gaps left open) and the layers of
 * lib/metrics/trend-layers.ts: the 7- and 30-day rolling means, the 90-day baseline band, the
 * personal normal range of the nightly physiology metrics (with its 7-day mean), out-of-band days
 * and tag markers, each in its declared colour. Everything it draws
 * comes computed from lib/metrics (through the API); it only scales and renders. The cursor is
 * shared with the other panels on the page, so several metrics read on one time axis.
 */
export function TrendChart({
  metric,
  series,
  units,
  color,
  layers,
  tags,
  cursor,
  onCursor,
  height = 200,
  showXAxis = true,
  phases = null,
  emptyReason = null,
}: DayAxisChartProps & {
  series: NumericSeries;
  units: Units;
  color: string;
  layers: TrendLayers;
  /** each slot's cycle phase (cycle tracking on, the markers the cycle moves): period and luteal days shaded */
  phases?: ReadonlyArray<CyclePhase | null> | null;
  /** why it may have no value in its period, when known (said under "No data in this period") */
  emptyReason?: string | null;
}) {
  const [wrapRef, width] = useWidth<HTMLDivElement>();
  const n = series.value.length;
  const scale = useMemo(() => displayScale(metric, units), [metric, units]);
  const bottom = showXAxis ? MARGIN.bottom : 6;

  const geo = useMemo(() => {
    if (width <= 0 || n === 0) return null;
    const conv = (v: number | null) => (v === null ? null : v * scale.factor + scale.offset);
    const values = series.value.map(conv);
    const avg7 = series.avg7.map(conv);
    const avg30 = series.avg30.map(conv);
    const lows = series.baseLow.map(conv);
    const highs = series.baseHigh.map(conv);
    const normal = layers.normal && series.normal ? series.normal : null;
    const nLows = normal ? normal.low.map(conv) : [];
    const nHighs = normal ? normal.high.map(conv) : [];
    const nBase = normal ? normal.base7.map(conv) : [];
    let lo = Infinity;
    let hi = -Infinity;
    const take = (arr: Array<number | null>) => {
      for (const v of arr) {
        if (v === null) continue;
        if (v < lo) lo = v;
        if (v > hi) hi = v;
      }
    };
    take(values);
    if (layers.avg7) take(avg7);
    if (layers.avg30) take(avg30);
    if (layers.band) {
      take(lows);
      take(highs);
    }
    take(nLows);
    take(nHighs);
    if (!Number.isFinite(lo)) return { empty: true as const };
    const nice = niceTicks(lo, hi, height < 150 ? 3 : 4, (t) => formatTick(scale, t));
    const x = linearScale([0, Math.max(1, n - 1)], [MARGIN.left, width - MARGIN.right]);
    const y = linearScale(nice.domain, [height - bottom, MARGIN.top]);
    const xs = Array.from({ length: n }, (_, i) => x(i));
    const py = (arr: Array<number | null>) => arr.map((v) => (v === null ? null : y(v)));
    const dots: Array<{ cx: number; cy: number; flag: string | null; run: boolean }> = [];
    const showDots = n <= 45;
    for (let i = 0; i < n; i++) {
      const v = values[i];
      if (v === null || v === undefined) continue;
      const f = series.flag[i] ?? null;
      if (showDots || f) dots.push({ cx: xs[i]!, cy: y(v), flag: f, run: series.run[i] ?? false });
    }
    return {
      empty: false as const,
      x,
      y,
      xs,
      ticks: nice.ticks,
      values,
      line: linePath(xs, py(values)),
      avg7: layers.avg7 ? linePath(xs, py(avg7)) : "",
      avg30: layers.avg30 ? linePath(xs, py(avg30)) : "",
      band: layers.band ? bandPath(xs, py(lows), py(highs)) : "",
      normal: normal ? bandPath(xs, py(nLows), py(nHighs)) : "",
      normalEdges: normal ? `${linePath(xs, py(nLows))} ${linePath(xs, py(nHighs))}` : "",
      normalBase: normal ? linePath(xs, py(nBase)) : "",
      dots,
      xTicks: dayAxisTicks(series.from, n, width),
      runs: runSegments(series.run, xs),
      phaseRects: phases
        ? phaseRuns(phases).map((r) => {
            const half = n > 1 ? (xs[1]! - xs[0]!) / 2 : 4;
            return { x: xs[r.start]! - half, w: xs[r.end]! - xs[r.start]! + 2 * half, phase: r.phase };
          })
        : [],
    };
  }, [width, n, series, layers, scale, height, bottom, phases]);

  const ready = useChartReady<HTMLDivElement>(!!geo && !geo.empty);
  const label = dayRangeLabel(metric.label, series.from, series.to);

  const cursorDay = cursor !== null && cursor >= 0 && cursor < n ? dayAt(series.from, cursor) : null;
  const cursorTags = cursorDay ? tags.get(cursorDay) : undefined;
  const cursorPhase = cursor !== null ? (phases?.[cursor] ?? null) : null;
  /** A range at the cursor (low – high), its unit written once, after the high end. */
  const range = (low: number | null | undefined, high: number | null | undefined) =>
    `${formatValue(metric, low ?? null, units, { unit: false })} – ${formatValue(metric, high ?? null, units)}`;

  return (
    <DayAxisBox boxRef={wrapRef} ready={ready} height={height} label={label} cursor={cursor} n={n} onCursor={onCursor}>
      {geo && !geo.empty ? (
        <DayAxisSvg width={width} height={height} x={geo.x} n={n} onCursor={onCursor}>
          {geo.ticks.map((t) => (
            <g key={t}>
              <line x1={MARGIN.left} x2={width - MARGIN.right} y1={geo.y(t)} y2={geo.y(t)} stroke="var(--chart-grid)" strokeWidth={1} />
              <text x={MARGIN.left - 6} y={geo.y(t)} dy="0.32em" textAnchor="end" fontSize={10.5} fill="var(--chart-text)" className="tabular-nums">
                {formatTick(scale, t)}
              </text>
            </g>
          ))}
          {showXAxis ? <DayAxisLabels ticks={geo.xTicks} xs={geo.xs} height={height} /> : null}
          {geo.phaseRects.map((r) => (
            <rect key={r.x} data-phase={r.phase} x={r.x} width={r.w} y={MARGIN.top} height={height - bottom - MARGIN.top} fill={PHASE_FILL[r.phase]!} />
          ))}
          {geo.band ? <path d={geo.band} fill={L.band.color} /> : null}
          {geo.normal ? <path d={geo.normal} fill={L.normal.color} data-testid="normal-band" /> : null}
          {geo.normalEdges ? <path d={geo.normalEdges} fill="none" stroke={L.normal.lineColor} strokeWidth={1} opacity={0.7} /> : null}
          {geo.normalBase ? <path d={geo.normalBase} fill="none" stroke={L.normal.lineColor} strokeWidth={1.5} strokeDasharray="2 3" /> : null}
          {geo.avg30 ? <path d={geo.avg30} fill="none" stroke={L.avg30.color} strokeWidth={1.5} strokeDasharray="5 3" /> : null}
          <path
            d={geo.line}
            fill="none"
            stroke={color}
            strokeWidth={n > 200 ? 1.25 : 1.75}
            strokeLinejoin="round"
            strokeLinecap="round"
            opacity={layers.avg7 && n > 120 ? 0.55 : 1}
          />
          {geo.avg7 ? <path d={geo.avg7} fill="none" stroke={L.avg7.color} strokeWidth={1.75} opacity={0.8} /> : null}
          {geo.dots.map((d, i) =>
            d.flag ? (
              <circle key={i} cx={d.cx} cy={d.cy} r={d.run ? 3.6 : 3} fill={L.flags.color} stroke="white" strokeWidth={1} className="dark:stroke-slate-900" />
            ) : (
              <circle key={i} cx={d.cx} cy={d.cy} r={2} fill={color} />
            ),
          )}
          {geo.runs.map((r, i) => (
            <rect key={i} x={r.x1 - 2} width={Math.max(4, r.x2 - r.x1 + 4)} y={height - bottom + 1} height={3} rx={1.5} fill={L.flags.color} />
          ))}
          {layers.tags
            ? geo.xs.map((x, i) => {
                const day = dayAt(series.from, i);
                const t = tags.get(day);
                if (!t?.length) return null;
                return (
                  <path
                    key={i}
                    data-tag-day={day}
                    d={`M${x - 3.5} ${MARGIN.top - 9}L${x + 3.5} ${MARGIN.top - 9}L${x} ${MARGIN.top - 3}Z`}
                    fill={t[0]?.color ?? L.tags.color}
                  >
                    <title>{t.map((x) => x.name).join(", ")}</title>
                  </path>
                );
              })
            : null}
          {cursor !== null && geo.xs[cursor] !== undefined ? (
            <g pointerEvents="none">
              <line x1={geo.xs[cursor]} x2={geo.xs[cursor]} y1={MARGIN.top} y2={height - bottom} stroke="var(--chart-cursor)" strokeDasharray="3 3" />
              {geo.values[cursor] !== null && geo.values[cursor] !== undefined ? (
                <circle cx={geo.xs[cursor]} cy={geo.y(geo.values[cursor]!)} r={4} fill={color} stroke="white" strokeWidth={1.5} />
              ) : null}
            </g>
          ) : null}
        </DayAxisSvg>
      ) : geo?.empty ? (
        <div className="flex h-full flex-col items-center justify-center text-sm text-slate-500 dark:text-slate-400" data-testid="chart-empty">
          <p>{NO_DATA_IN_PERIOD}</p>
          {emptyReason ? <p className="text-xs">{emptyReason}</p> : null}
        </div>
      ) : null}
      {geo && !geo.empty && cursor !== null && cursorDay ? (
        <Tooltip
          x={geo.xs[cursor] ?? 0}
          width={width}
          day={cursorDay}
          lines={[
            { label: metric.short, value: formatValue(metric, series.value[cursor] ?? null, units), color },
            ...(layers.avg7 ? [{ label: L.avg7.label, value: formatValue(metric, series.avg7[cursor] ?? null, units), color: L.avg7.color }] : []),
            ...(layers.avg30 ? [{ label: L.avg30.label, value: formatValue(metric, series.avg30[cursor] ?? null, units), color: L.avg30.color }] : []),
            ...(layers.band && series.baseLow[cursor] !== null
              ? [
                  {
                    label: L.band.label,
                    value: range(series.baseLow[cursor], series.baseHigh[cursor]),
                    color: L.band.color,
                  },
                ]
              : []),
            ...(layers.normal && series.normal && series.normal.low[cursor] !== null && series.normal.low[cursor] !== undefined
              ? [
                  {
                    label: L.normal.label,
                    value: range(series.normal.low[cursor], series.normal.high[cursor]),
                    color: L.normal.lineColor,
                  },
                  {
                    label: `${SEVEN_DAY_MEAN.label} (${series.normal.state[cursor] ?? "—"})`,
                    value: formatValue(metric, series.normal.base7[cursor] ?? null, units),
                    color: L.normal.lineColor,
                  },
                ]
              : []),
          ]}
          flag={series.flag[cursor] ?? null}
          tags={cursorTags}
          phase={cursorPhase && cursorPhase !== "unknown" ? PHASE_LABEL[cursorPhase] : null}
        />
      ) : null}
      <LiveReadout
        text={
          cursorDay
            ? `${formatDay(cursorDay, { withYear: true })}: ${formatValue(metric, series.value[cursor!] ?? null, units)}` +
              `${series.flag[cursor!] ? ", outside your usual range" : ""}` +
              `${cursorTags?.length ? `, tagged ${cursorTags.map((t) => t.name).join(", ")}` : ""}` +
              `${cursorPhase && cursorPhase !== "unknown" ? `, ${PHASE_LABEL[cursorPhase].toLowerCase()} phase` : ""}`
            : ""
        }
      />
    </DayAxisBox>
  );
}

function runSegments(run: readonly boolean[], xs: readonly number[]): Array<{ x1: number; x2: number }> {
  const out: Array<{ x1: number; x2: number }> = [];
  let s = -1;
  for (let i = 0; i <= run.length; i++) {
    if (i < run.length && run[i]) {
      if (s < 0) s = i;
    } else if (s >= 0) {
      out.push({ x1: xs[s]!, x2: xs[i - 1]! });
      s = -1;
    }
  }
  return out;
}

export function Tooltip({
  x,
  width,
  day,
  lines,
  flag,
  tags,
  phase,
}: {
  x: number;
  width: number;
  day: string;
  lines: Array<{ label: string; value: string; color: string }>;
  flag?: string | null;
  tags?: TagRef[];
  /** the day's cycle phase, in words */
  phase?: string | null;
}) {
  const left = x > width / 2;
  return (
    <div
      className={cn(
        "pointer-events-none absolute top-1 z-10 min-w-40 rounded-lg border border-slate-200 bg-white/95 px-2.5 py-2 text-xs shadow-lg backdrop-blur",
        "dark:border-slate-700 dark:bg-slate-900/95",
      )}
      style={left ? { right: Math.max(4, width - x + 10) } : { left: Math.min(width - 160, x + 10) }}
    >
      <p className="mb-1 font-semibold text-slate-800 dark:text-slate-100">{formatDay(day, { withYear: true })}</p>
      {lines.map((l) => (
        <p key={l.label} className="flex items-center justify-between gap-3 tabular-nums">
          <span className="flex items-center gap-1.5 text-slate-500 dark:text-slate-400">
            <span className="inline-block h-2 w-2 rounded-full" style={{ background: l.color }} />
            {l.label}
          </span>
          <span className="font-medium text-slate-900 dark:text-slate-100">{l.value}</span>
        </p>
      ))}
      {flag ? <p className="mt-1 font-medium text-[var(--chart-anomaly)]">{flag === "high" ? "Above" : "Below"} your usual range</p> : null}
      {tags?.length ? <p className="mt-1 text-[var(--chart-tag)]">#{tags.map((t) => t.name).join(" #")}</p> : null}
      {phase ? <p className="mt-1 text-slate-600 dark:text-slate-300">{phase} phase</p> : null}
    </div>
  );
}
