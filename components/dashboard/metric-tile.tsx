import Link from "next/link";
import type { MetricDef } from "@/lib/metrics/catalog";
import { formatDay } from "@/lib/days";
import { formatValue, type Units } from "@/lib/metrics/format";
import type { TodayMetric } from "@/lib/metrics/today";
import { DaysTable } from "@/components/charts/chart-table";
import { Sparkline, sparkSummary, sparkTable } from "@/components/charts/sparkline";
import { AnomalyMark } from "@/components/dashboard/anomaly-mark";
import { metricColor } from "@/components/dashboard/colors";
import { DeltaChip } from "@/components/dashboard/delta-chip";
import { Card } from "@/components/ui/card";

/** One metric's latest value with its change, baseline mark and a 30-day sparkline. */
export function MetricTile({
  metric,
  data,
  units,
  refDay,
  marks,
  extra,
}: {
  metric: MetricDef;
  data: TodayMetric | undefined;
  units: Units;
  refDay: string;
  marks?: boolean[];
  extra?: React.ReactNode;
}) {
  const color = metricColor(metric);
  const fmt = (v: number) => formatValue(metric, v, units);
  return (
    <Card className="flex flex-col gap-2 !p-4" data-metric={metric.id} aria-labelledby={`tile-${metric.id}`}>
      <div className="flex items-start justify-between gap-2">
        <h3 id={`tile-${metric.id}`} className="text-xs font-medium uppercase tracking-wide text-slate-500 dark:text-slate-400">
          <Link
            href={`/trends?m=${metric.id}`}
            prefetch={false}
            className="hover:text-slate-900 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600 dark:hover:text-white"
          >
            {metric.label}
          </Link>
        </h3>
        <AnomalyMark flag={data?.flag ?? null} compact />
      </div>
      <p className="text-2xl font-semibold tabular-nums tracking-tight" data-testid={`value-${metric.id}`}>
        {formatValue(metric, data?.value ?? null, units)}
      </p>
      {extra}
      <div className="flex flex-wrap items-center gap-1.5">
        {data ? <DeltaChip metric={metric} delta={data.delta} units={units} /> : null}
        {data && data.day !== refDay ? <span className="text-xs text-slate-500 dark:text-slate-400">{formatDay(data.day)}</span> : null}
      </div>
      {data ? (
        <div className="mt-auto">
          <Sparkline
            values={data.spark}
            band={data.baseline}
            color={color}
            label={sparkSummary(`${metric.label}, last ${data.spark.length} days`, data.spark, data.day, fmt)}
            marks={marks}
          />
          <p className="mt-1 text-[0.7rem] text-slate-500 dark:text-slate-400">
            {data.baseline
              ? `Usual ${formatValue(metric, data.baseline.low, units, { unit: false })} – ${formatValue(metric, data.baseline.high, units)}`
              : "Usual range after 30 days of data"}
          </p>
          <DaysTable {...sparkTable(metric.label, data.spark, data.day, fmt, marks)} />
        </div>
      ) : (
        <p className="text-xs text-slate-500 dark:text-slate-400">No data yet.</p>
      )}
    </Card>
  );
}
