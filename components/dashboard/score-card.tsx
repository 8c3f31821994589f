import Link from "next/link";
import type { ReactNode } from "react";
import { getMetric, type MetricId } from "@/lib/metrics/catalog";
import { formatDay } from "@/lib/days";
import { formatValue, type Units } from "@/lib/metrics/format";
import type { TodaySummary } from "@/lib/metrics/today";
import { ScoreRing } from "@/components/charts/score-ring";
import { DaysTable } from "@/components/charts/chart-table";
import { Sparkline, sparkSummary, sparkTable } from "@/components/charts/sparkline";
import { AnomalyMark } from "@/components/dashboard/anomaly-mark";
import { ContributorBars } from "@/components/dashboard/contributor-bars";
import { DeltaChip } from "@/components/dashboard/delta-chip";
import { Card } from "@/components/ui/card";

/** A daily score (sleep, readiness, activity) with its contributors, change and baseline. */
export function ScoreCard({
  title,
  scoreId,
  contributorIds,
  metrics,
  units,
  refDay,
  color,
  marks,
  footer,
}: {
  title: string;
  scoreId: MetricId;
  contributorIds: readonly MetricId[];
  metrics: TodaySummary["metrics"];
  units: Units;
  refDay: string;
  color: string;
  marks?: boolean[];
  footer?: ReactNode;
}) {
  const metric = getMetric(scoreId);
  const data = metrics[scoreId];
  const headingId = `score-${scoreId}`;
  const fmt = (v: number) => formatValue(metric, v, units);
  return (
    <Card aria-labelledby={headingId} data-metric={scoreId} className="flex flex-col gap-4">
      <div className="flex items-center justify-between gap-2">
        <h2 id={headingId} className="flex items-center gap-2 text-base font-semibold">
          <span aria-hidden className="h-2.5 w-2.5 rounded-full" style={{ background: color }} />
          <Link href={`/trends?m=${scoreId}`} prefetch={false} className="hover:underline focus-visible:outline-2 focus-visible:outline-brand-600">
            {title}
          </Link>
        </h2>
        {data && data.day !== refDay ? <span className="text-xs text-slate-500 dark:text-slate-400">{formatDay(data.day)}</span> : null}
      </div>
      {data ? (
        <>
          <div className="flex items-center gap-4">
            <ScoreRing score={data.value} color={color} label={metric.label} />
            <div className="min-w-0 flex-1 space-y-1.5">
              <p className="sr-only" data-testid={`value-${scoreId}`}>
                {formatValue(metric, data.value, units)}
              </p>
              <div className="flex flex-wrap items-center gap-1.5">
                <DeltaChip metric={metric} delta={data.delta} units={units} />
                <AnomalyMark flag={data.flag} />
              </div>
              <Sparkline
                values={data.spark}
                band={data.baseline}
                color={color}
                label={sparkSummary(`${metric.label}, last ${data.spark.length} days`, data.spark, data.day, fmt)}
                marks={marks}
                height={40}
              />
              <p className="text-[0.7rem] text-slate-500 dark:text-slate-400">
                30 days · {data.baseline ? `usual ${Math.round(data.baseline.low)}–${Math.round(data.baseline.high)}` : "usual range after 30 days of data"}
              </p>
              <DaysTable {...sparkTable(metric.label, data.spark, data.day, fmt, marks)} />
            </div>
          </div>
          <ContributorBars label={`${title} contributors`} items={contributorIds.map((id) => ({ metric: getMetric(id), value: metrics[id]?.value ?? null }))} />
          {footer}
        </>
      ) : (
        <p className="text-sm text-slate-500 dark:text-slate-400">No {title.toLowerCase()} data yet.</p>
      )}
    </Card>
  );
}
