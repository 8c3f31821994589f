"use client";
import { useEffect, useMemo, useState } from "react";
import { getMetric, numericMetricIdOr } from "@/lib/metrics/catalog";
import { summarizeCalendar } from "@/lib/metrics/calendar";
import { formatDay } from "@/lib/days";
import { formatValue } from "@/lib/metrics/format";
import { LazyYearHeatmap } from "@/components/charts/lazy";
import { calendarDayText, HeatLegend, MARKED_PHASES } from "@/components/charts/year-heatmap";
import { useCyclePhases } from "@/components/cycle/use-cycle";
import { ChartTable } from "@/components/charts/chart-table";
import { useCalendar } from "@/components/hooks/use-calendar";
import { useMetricsOverview } from "@/components/hooks/use-metrics-overview";
import { useNotes } from "@/components/hooks/use-notes";
import { useUnits } from "@/components/hooks/use-preferences";
import { Card, PageHeader } from "@/components/ui/card";
import { inputClass } from "@/components/ui/field";
import { MetricSelect } from "@/components/ui/metric-select";
import { Skeleton } from "@/components/ui/skeleton";
import { ErrorState, NoDataPage } from "@/components/ui/states";

const LAST_12 = "last-12";

/** The first day of the month `months` months before the month of `day`. */
function firstOfMonthBefore(day: string, months: number): string {
  const total = Number(day.slice(0, 4)) * 12 + Number(day.slice(5, 7)) - 1 - months;
  return `${Math.floor(total / 12)}-${String((total % 12) + 1).padStart(2, "0")}-01`;
}

export function CalendarClient({
  initialMetric,
  initialYear,
  cycleTracking = false,
}: {
  initialMetric: string | null;
  initialYear: string | null;
  /** the person's cycle tracking is on: period and luteal days are marked */
  cycleTracking?: boolean;
}) {
  const overview = useMetricsOverview();
  const units = useUnits();
  const [metricId, setMetricId] = useState(numericMetricIdOr(initialMetric, "sleep.score"));
  const [year, setYear] = useState<string>(initialYear && /^\d{4}$/.test(initialYear) ? initialYear : LAST_12);
  const metric = getMetric(metricId);
  const last = overview.data?.lastDay ?? null;
  const years = useMemo(() => {
    const f = overview.data?.firstDay;
    if (!f || !last) return [];
    const out: string[] = [];
    for (let y = Number(last.slice(0, 4)); y >= Number(f.slice(0, 4)); y--) out.push(String(y));
    return out;
  }, [overview.data?.firstDay, last]);
  const range = year === LAST_12 ? (last ? { from: firstOfMonthBefore(last, 11), to: last } : null) : { from: `${year}-01-01`, to: `${year}-12-31` };
  const cal = useCalendar(metricId, range?.from ?? null, range?.to ?? null);
  const notes = useNotes(range?.from ?? null, range?.to ?? null);
  const tagged = useMemo(() => new Set((notes.data?.days ?? []).filter((d) => d.tags.length || d.ringTags.length).map((d) => d.day)), [notes.data]);
  const phases = useCyclePhases(range?.from ?? null, range?.to ?? null, cycleTracking);
  const phaseText = (day: string) => {
    const p = phases?.get(day);
    return (p && MARKED_PHASES[p]) ?? "";
  };

  useEffect(() => {
    const q = new URLSearchParams({ m: metricId, ...(year !== LAST_12 ? { year } : {}) }).toString();
    if (window.location.search.slice(1) !== q) window.history.replaceState(null, "", `?${q}`);
  }, [metricId, year]);

  if (overview.isPending) return <Skeleton className="h-96" />;
  if (overview.isError) return <ErrorState error={overview.error} onRetry={() => overview.refetch()} />;
  if (!last) {
    return <NoDataPage title="Calendar" />;
  }
  const summary = cal.data ? summarizeCalendar(cal.data.days) : null;
  const title = year === LAST_12 ? "the last 12 months" : year;

  return (
    <div className="space-y-4" data-testid="calendar">
      <PageHeader title="Calendar" subtitle="Every day at a glance. Open any day for its details.">
        <label className="sr-only" htmlFor="cal-metric">
          Metric
        </label>
        <MetricSelect id="cal-metric" value={metricId} onChange={setMetricId} filter={(m) => m.kind !== "category"} className="w-56" />
        <label className="sr-only" htmlFor="cal-year">
          Year
        </label>
        <select id="cal-year" className={inputClass} value={year} onChange={(e) => setYear(e.target.value)}>
          <option value={LAST_12}>Last 12 months</option>
          {years.map((y) => (
            <option key={y} value={y}>
              {y}
            </option>
          ))}
        </select>
      </PageHeader>
      <Card>
        {cal.isError ? (
          <ErrorState error={cal.error} onRetry={() => cal.refetch()} />
        ) : !cal.data ? (
          <Skeleton className="h-80" />
        ) : (
          <figure className="m-0 space-y-4">
            <LazyYearHeatmap metric={metric} days={cal.data.days} units={units} tagged={tagged} phases={phases} label={`${metric.label} by day, ${title}`} />
            <HeatLegend thresholds={cal.data.thresholds} metric={metric} units={units} phases={cycleTracking} />
            <ChartTable
              caption={`${metric.label} by day, ${title}`}
              columns={[{ label: "Day" }, { label: metric.short, numeric: true }, { label: "Tagged" }, ...(cycleTracking ? [{ label: "Cycle" }] : [])]}
              rows={() =>
                cal.data.days
                  .filter((d) => d.status !== "before_history")
                  .map((d) => ({
                    key: d.day,
                    cells: [
                      formatDay(d.day, { withYear: true }),
                      calendarDayText(d, (v) => formatValue(metric, v, units)),
                      tagged.has(d.day) ? "yes" : "",
                      ...(cycleTracking ? [phaseText(d.day)] : []),
                    ],
                  }))
                  .reverse()
              }
            />
            {summary ? (
              <figcaption className="text-xs text-slate-500 dark:text-slate-400" data-testid="calendar-summary">
                {metric.label}, {formatDay(cal.data.from, { withYear: true, withWeekday: false })} to{" "}
                {formatDay(cal.data.to, { withYear: true, withWeekday: false })}: {summary.counts.value} days with a value
                {summary.mean !== null ? ` (mean ${formatValue(metric, summary.mean, units)})` : ""}, {summary.counts.not_worn} not worn,{" "}
                {summary.counts.missing} missing, {summary.counts.not_synced} not synced yet
                {summary.counts.before_history ? `, ${summary.counts.before_history} before your history` : ""}.
              </figcaption>
            ) : null}
          </figure>
        )}
      </Card>
    </div>
  );
}
