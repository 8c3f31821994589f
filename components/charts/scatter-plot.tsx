"use client";
import { useMemo, useState, type PointerEvent } from "react";
import type { MetricDef } from "@/lib/metrics/catalog";
import { formatDay } from "@/lib/days";
import { displayScale, formatTick, formatValue, type Units } from "@/lib/metrics/format";
import { linearScale, niceTicks } from "@/components/charts/scale";
import { useChartReady, useWidth } from "@/components/charts/use-chart-size";
import { chartFocusClass, CursorHint, LiveReadout, useChartCursor } from "@/components/charts/chart-a11y";
import { ChartTable } from "@/components/charts/chart-table";
import { cn } from "@/components/ui/cn";

type Point = { day: string; x: number; y: number };

const HEIGHT = 340;
const MARGIN = { left: 52, right: 16, top: 10, bottom: 40 };

/**
 * Two metrics against each other, one dot per day (days with a tag drawn as larger diamonds),
 * with the least-squares line the API computed. Ringside's own SVG (like the trend chart): no
 * charting library to download before the first dot, and a few thousand dots draw at once.
 * Focus it and the arrow keys walk the days in date order, reading both values.
 */
export function ScatterPlot({
  xMetric,
  yMetric,
  points,
  line,
  units,
  tagged,
  label,
}: {
  xMetric: MetricDef;
  yMetric: MetricDef;
  points: Point[];
  line: { slope: number; intercept: number } | null;
  units: Units;
  tagged: ReadonlySet<string>;
  label: string;
}) {
  const [wrapRef, width] = useWidth<HTMLDivElement>();
  const [hover, setHover] = useState<number | null>(null);
  // the days in date order, for the keyboard cursor
  const order = useMemo(() => points.map((_, i) => i).sort((a, b) => (points[a]!.day < points[b]!.day ? -1 : 1)), [points]);
  const { cursor, hintId, focusProps } = useChartCursor(points.length);
  const sx = useMemo(() => displayScale(xMetric, units), [xMetric, units]);
  const sy = useMemo(() => displayScale(yMetric, units), [yMetric, units]);

  const geo = useMemo(() => {
    if (width <= 0 || points.length === 0) return null;
    let xLo = Infinity,
      xHi = -Infinity,
      yLo = Infinity,
      yHi = -Infinity;
    const dx = new Array<number>(points.length);
    const dy = new Array<number>(points.length);
    points.forEach((p, i) => {
      dx[i] = p.x * sx.factor + sx.offset;
      dy[i] = p.y * sy.factor + sy.offset;
      if (dx[i]! < xLo) xLo = dx[i]!;
      if (dx[i]! > xHi) xHi = dx[i]!;
      if (dy[i]! < yLo) yLo = dy[i]!;
      if (dy[i]! > yHi) yHi = dy[i]!;
    });
    // the fitted line over the x range (in stored units, then displayed)
    const seg =
      line && xHi > xLo
        ? ([xLo, xHi].map((v) => {
            const stored = (v - sx.offset) / sx.factor;
            return { x: v, y: (line.slope * stored + line.intercept) * sy.factor + sy.offset };
          }) as [{ x: number; y: number }, { x: number; y: number }])
        : null;
    for (const p of seg ?? []) {
      yLo = Math.min(yLo, p.y);
      yHi = Math.max(yHi, p.y);
    }
    const nx = niceTicks(xLo, xHi, Math.max(2, Math.min(6, Math.floor((width - MARGIN.left - MARGIN.right) / 80))), (t) => formatTick(sx, t));
    const ny = niceTicks(yLo, yHi, 5, (t) => formatTick(sy, t));
    const x = linearScale(nx.domain, [MARGIN.left, width - MARGIN.right]);
    const y = linearScale(ny.domain, [HEIGHT - MARGIN.bottom, MARGIN.top]);
    const cx = dx.map((v) => x(v));
    const cy = dy.map((v) => y(v));
    // plain dots in one path (one element for a thousand dots), tagged ones on top
    let plain = "";
    const withTag: number[] = [];
    for (let i = 0; i < points.length; i++) {
      if (tagged.has(points[i]!.day)) withTag.push(i);
      else plain += `M${(cx[i]! - 3).toFixed(1)} ${cy[i]!.toFixed(1)}a3 3 0 1 0 6 0a3 3 0 1 0 -6 0`;
    }
    return { x, y, cx, cy, xTicks: nx.ticks, yTicks: ny.ticks, plain, withTag, seg: seg ? seg.map((p) => ({ x: x(p.x), y: y(p.y) })) : null };
  }, [width, points, line, sx, sy, tagged]);

  const ready = useChartReady<HTMLDivElement>(!!geo);

  const onMove = (e: PointerEvent<SVGSVGElement>) => {
    if (!geo) return;
    const rect = e.currentTarget.getBoundingClientRect();
    const px = e.clientX - rect.left;
    const py = e.clientY - rect.top;
    let best = -1;
    let bestD = 24 * 24;
    for (let i = 0; i < geo.cx.length; i++) {
      const d = (geo.cx[i]! - px) ** 2 + (geo.cy[i]! - py) ** 2;
      if (d < bestD) {
        bestD = d;
        best = i;
      }
    }
    setHover(best >= 0 ? best : null);
  };

  const active = cursor !== null ? (order[cursor] ?? null) : hover;
  const hp = active !== null && geo ? points[active] : undefined;
  const point = (p: Point) =>
    `${formatDay(p.day, { withYear: true })}: ${xMetric.short} ${formatValue(xMetric, p.x, units)}, ` +
    `${yMetric.short} ${formatValue(yMetric, p.y, units)}${tagged.has(p.day) ? ", tagged" : ""}`;
  return (
    <>
      <div
        ref={(el) => {
          wrapRef.current = el;
          ready(el);
        }}
        {...focusProps}
        role="group"
        aria-label={label}
        className={`relative h-[340px] w-full select-none ${chartFocusClass}`}
      >
        <CursorHint id={hintId} />
        {geo ? (
          <svg width={width} height={HEIGHT} onPointerMove={onMove} onPointerLeave={() => setHover(null)} aria-hidden>
            {geo.yTicks.map((t) => (
              <g key={`y${t}`}>
                <line x1={MARGIN.left} x2={width - MARGIN.right} y1={geo.y(t)} y2={geo.y(t)} stroke="var(--chart-grid)" />
                <text x={MARGIN.left - 6} y={geo.y(t)} dy="0.32em" textAnchor="end" fontSize={11} fill="var(--chart-text)">
                  {formatTick(sy, t)}
                </text>
              </g>
            ))}
            {geo.xTicks.map((t) => (
              <g key={`x${t}`}>
                <line x1={geo.x(t)} x2={geo.x(t)} y1={MARGIN.top} y2={HEIGHT - MARGIN.bottom} stroke="var(--chart-grid)" />
                <text x={geo.x(t)} y={HEIGHT - MARGIN.bottom + 15} textAnchor="middle" fontSize={11} fill="var(--chart-text)">
                  {formatTick(sx, t)}
                </text>
              </g>
            ))}
            <text x={(MARGIN.left + width - MARGIN.right) / 2} y={HEIGHT - 6} textAnchor="middle" fontSize={11} fill="var(--chart-text)">
              {`${xMetric.label}${sx.unit ? ` (${sx.unit})` : ""}`}
            </text>
            <text
              transform={`translate(12 ${(MARGIN.top + HEIGHT - MARGIN.bottom) / 2}) rotate(-90)`}
              textAnchor="middle"
              fontSize={11}
              fill="var(--chart-text)"
            >
              {`${yMetric.short}${sy.unit ? ` (${sy.unit})` : ""}`}
            </text>
            <path d={geo.plain} fill="var(--chart-1)" fillOpacity={0.55} />
            {geo.withTag.map((i) => (
              <path key={i} data-tagged-day={points[i]!.day} d={`M${geo.cx[i]} ${geo.cy[i]! - 5}l5 5l-5 5l-5 -5Z`} fill="var(--chart-tag)" />
            ))}
            {geo.seg ? (
              <line x1={geo.seg[0]!.x} y1={geo.seg[0]!.y} x2={geo.seg[1]!.x} y2={geo.seg[1]!.y} stroke="var(--chart-avg30)" strokeWidth={2.5} />
            ) : null}
            {active !== null ? <circle cx={geo.cx[active]} cy={geo.cy[active]} r={6} fill="none" stroke="currentColor" strokeWidth={1.75} /> : null}
          </svg>
        ) : null}
        {hp && geo && active !== null ? (
          <div
            className={cn(
              "pointer-events-none absolute z-10 rounded-lg border border-slate-200 bg-white px-2.5 py-2 text-xs shadow-lg",
              "dark:border-slate-700 dark:bg-slate-900",
            )}
            style={{ left: Math.min(geo.cx[active]! + 10, Math.max(0, width - 170)), top: Math.max(0, geo.cy[active]! - 70) }}
          >
            <p className="font-semibold">{formatDay(hp.day, { withYear: true })}</p>
            <p>
              {xMetric.short}: {formatValue(xMetric, hp.x, units)}
            </p>
            <p>
              {yMetric.short}: {formatValue(yMetric, hp.y, units)}
            </p>
            {tagged.has(hp.day) ? <p className="font-medium">tagged day</p> : null}
          </div>
        ) : null}
        <LiveReadout text={cursor !== null && hp ? point(hp) : ""} />
      </div>
      <ChartTable
        caption={label}
        columns={[{ label: "Day" }, { label: xMetric.short, numeric: true }, { label: yMetric.short, numeric: true }, { label: "Tagged" }]}
        rows={() =>
          order
            .map((i) => points[i]!)
            .map((p) => ({
              key: p.day,
              cells: [formatDay(p.day, { withYear: true }), formatValue(xMetric, p.x, units), formatValue(yMetric, p.y, units), tagged.has(p.day) ? "yes" : ""],
            }))
        }
      />
    </>
  );
}
