"use client";
import { CartesianGrid, ReferenceLine, ResponsiveContainer, Scatter, ScatterChart, Tooltip, XAxis, YAxis } from "recharts";
import type { MetricDef } from "@/lib/metrics/catalog";
import { formatDay } from "@/lib/metrics/days";
import { displayScale, formatTick, formatValue, type Units } from "@/lib/metrics/format";
import { useRechartsReady } from "@/components/charts/use-recharts-ready";

type Point = { day: string; x: number; y: number };

/**
 * Two metrics against each other, one dot per day (days with a tag drawn in the tag colour),
 * with the least-squares line the API computed.
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
  const sx = displayScale(xMetric, units);
  const sy = displayScale(yMetric, units);
  const plain: Array<Point & { dx: number; dy: number }> = [];
  const withTag: Array<Point & { dx: number; dy: number }> = [];
  let xMin = Infinity;
  let xMax = -Infinity;
  for (const p of points) {
    const q = { ...p, dx: p.x * sx.factor + sx.offset, dy: p.y * sy.factor + sy.offset };
    (tagged.has(p.day) ? withTag : plain).push(q);
    if (p.x < xMin) xMin = p.x;
    if (p.x > xMax) xMax = p.x;
  }
  const ref = useRechartsReady<HTMLDivElement>(points.length > 0);
  const seg: [{ x: number; y: number }, { x: number; y: number }] | null =
    line && Number.isFinite(xMin) && xMax > xMin
      ? [
          { x: xMin * sx.factor + sx.offset, y: (line.slope * xMin + line.intercept) * sy.factor + sy.offset },
          { x: xMax * sx.factor + sx.offset, y: (line.slope * xMax + line.intercept) * sy.factor + sy.offset },
        ]
      : null;
  return (
    <div ref={ref} role="img" aria-label={label} className="h-[340px] w-full">
      <ResponsiveContainer width="100%" height="100%">
        <ScatterChart margin={{ top: 10, right: 16, bottom: 22, left: 4 }}>
          <CartesianGrid stroke="var(--chart-grid)" />
          <XAxis
            type="number"
            dataKey="dx"
            name={xMetric.short}
            domain={["auto", "auto"]}
            tickFormatter={(v) => formatTick(sx, Number(v))}
            tick={{ fill: "var(--chart-text)", fontSize: 11 }}
            stroke="var(--chart-grid)"
            label={{ value: `${xMetric.label}${sx.unit ? ` (${sx.unit})` : ""}`, position: "insideBottom", offset: -14, fill: "var(--chart-text)", fontSize: 11 }}
          />
          <YAxis
            type="number"
            dataKey="dy"
            name={yMetric.short}
            domain={["auto", "auto"]}
            tickFormatter={(v) => formatTick(sy, Number(v))}
            tick={{ fill: "var(--chart-text)", fontSize: 11 }}
            stroke="var(--chart-grid)"
            width={48}
            label={{ value: `${yMetric.short}${sy.unit ? ` (${sy.unit})` : ""}`, angle: -90, position: "insideLeft", offset: 12, fill: "var(--chart-text)", fontSize: 11 }}
          />
          <Tooltip
            isAnimationActive={false}
            cursor={{ strokeDasharray: "3 3" }}
            content={({ active, payload }) => {
              const p = active ? (payload?.[0]?.payload as (Point & { dx: number }) | undefined) : undefined;
              if (!p) return null;
              return (
                <div className="rounded-lg border border-slate-200 bg-white px-2.5 py-2 text-xs shadow-lg dark:border-slate-700 dark:bg-slate-900">
                  <p className="font-semibold">{formatDay(p.day, { withYear: true })}</p>
                  <p>
                    {xMetric.short}: {formatValue(xMetric, p.x, units)}
                  </p>
                  <p>
                    {yMetric.short}: {formatValue(yMetric, p.y, units)}
                  </p>
                  {tagged.has(p.day) ? <p className="text-[var(--chart-tag)]">tagged day</p> : null}
                </div>
              );
            }}
          />
          <Scatter data={plain} fill="var(--chart-1)" fillOpacity={0.55} isAnimationActive={false} />
          {withTag.length ? <Scatter data={withTag} fill="var(--chart-tag)" isAnimationActive={false} /> : null}
          {seg ? <ReferenceLine segment={seg} stroke="var(--chart-avg30)" strokeWidth={2.5} ifOverflow="extendDomain" /> : null}
        </ScatterChart>
      </ResponsiveContainer>
    </div>
  );
}
