"use client";
import { useEffect, useMemo, useState } from "react";
import { CATEGORY_METRICS, NUMERIC_METRICS, type MetricId } from "@/lib/metrics/catalog";
import { formatDay, todayIn } from "@/lib/days";
import { resolveRange, type RangePreset } from "@/lib/metrics/ranges";
import { TREND_LAYER, TOGGLE_LAYER_IDS } from "@/lib/metrics/trend-layers";
import { TrendPanel, TrendsLegend } from "@/components/dashboard/trend-panel";
import { RangePicker } from "@/components/dashboard/range-picker";
import { MAX_PANELS, trendsStateToQuery, type TrendsState } from "@/components/dashboard/trends-state";
import { useMetricSeriesMany } from "@/components/hooks/use-metric-series";
import { useMetricsOverview } from "@/components/hooks/use-metrics-overview";
import { useNotes } from "@/components/hooks/use-notes";
import { useUnits } from "@/components/hooks/use-preferences";
import type { TagRef } from "@/lib/api/contract";
import { PageHeader } from "@/components/ui/card";
import { MetricSelect } from "@/components/ui/metric-select";
import { Skeleton } from "@/components/ui/skeleton";
import { ErrorState, NoDataPage } from "@/components/ui/states";
import { useCyclePhases } from "@/components/cycle/use-cycle";
import { CYCLE_SHADED_METRICS, PHASE_FILL, PHASE_LABEL } from "@/components/cycle/phase";

/**
 * `cycleTracking`: the person's cycle tracking is on (the markers' charts shade period and luteal
 * days); `emptyReason`: why a chart may have no data (the history still downloading).
 */
export function TrendsClient({
  initial,
  cycleTracking = false,
  emptyReason = null,
}: {
  initial: TrendsState;
  cycleTracking?: boolean;
  emptyReason?: string | null;
}) {
  const [state, setState] = useState<TrendsState>(initial);
  const [cursor, setCursor] = useState<number | null>(null);
  const [adding, setAdding] = useState<MetricId | "">("");
  const overview = useMetricsOverview();
  const units = useUnits();

  const range = overview.data ? resolveRange(state.range, overview.data, todayIn(), { from: state.from, to: state.to }) : null;
  const series = useMetricSeriesMany(state.metrics, range?.from ?? null, range?.to ?? null);
  const notes = useNotes(range?.from ?? null, range?.to ?? null);
  const shading = cycleTracking && state.metrics.some((id) => CYCLE_SHADED_METRICS.includes(id));
  const phases = useCyclePhases(range?.from ?? null, range?.to ?? null, shading);
  const tags = useMemo(() => {
    const m = new Map<string, TagRef[]>();
    for (const d of notes.data?.days ?? []) if (d.tags.length || d.ringTags.length) m.set(d.day, [...d.tags, ...d.ringTags]);
    return m;
  }, [notes.data]);

  // keep the URL in step with the view (bookmarkable), without a navigation
  useEffect(() => {
    const q = trendsStateToQuery(state);
    if (window.location.search.slice(1) !== q) window.history.replaceState(null, "", `?${q}`);
  }, [state]);

  const update = (patch: Partial<TrendsState>) => {
    setCursor(null);
    setState((s) => ({ ...s, ...patch }));
  };

  if (overview.isPending) return <Skeleton className="h-96" />;
  if (overview.isError) return <ErrorState error={overview.error} onRetry={() => overview.refetch()} />;
  if (!overview.data.lastDay || !range) {
    return <NoDataPage title="Trends" />;
  }

  return (
    <div className="space-y-4" data-testid="trends">
      <PageHeader title="Trends" subtitle={`${formatDay(range.from, { withYear: true })} – ${formatDay(range.to, { withYear: true })}`}>
        <RangePicker
          range={state.range}
          from={range.from}
          to={range.to}
          onChange={(v: { range: RangePreset; from?: string; to?: string }) => update({ range: v.range, from: v.from ?? null, to: v.to ?? null })}
        />
      </PageHeader>

      <div className="flex flex-wrap items-end justify-between gap-3 rounded-2xl border border-slate-200 bg-white p-3 dark:border-slate-800 dark:bg-slate-900">
        <div className="flex flex-wrap items-center gap-2">
          <label htmlFor="add-metric" className="text-xs font-medium text-slate-600 dark:text-slate-400">
            {state.metrics.length >= MAX_PANELS ? `Up to ${MAX_PANELS} metrics` : "Add a metric"}
          </label>
          <MetricSelect
            id="add-metric"
            value={adding}
            filter={(m) => !state.metrics.includes(m.id)}
            placeholder="Choose a metric…"
            onChange={(id) => {
              setAdding("");
              if (state.metrics.length < MAX_PANELS) update({ metrics: [...state.metrics, id] });
            }}
            className="w-56"
          />
        </div>
        <fieldset className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <legend className="sr-only">Layers</legend>
          {TOGGLE_LAYER_IDS.map((k) => (
            <label key={k} className="inline-flex items-center gap-1.5 text-sm text-slate-700 dark:text-slate-300">
              <input
                type="checkbox"
                className="h-4 w-4 rounded accent-brand-600"
                checked={state.layers[k]}
                onChange={(e) => update({ layers: { ...state.layers, [k]: e.target.checked } })}
              />
              {TREND_LAYER[k].label}
            </label>
          ))}
        </fieldset>
      </div>

      <TrendsLegend layers={state.layers} />
      {shading ? (
        <ul aria-label="Cycle shading" className="flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-slate-600 dark:text-slate-300">
          {(["menstrual", "luteal"] as const).map((p) => (
            <li key={p} className="inline-flex items-center gap-1.5">
              <span aria-hidden className="h-3 w-3 rounded-[3px] border border-slate-300 dark:border-slate-600" style={{ background: PHASE_FILL[p]! }} />
              {PHASE_LABEL[p]} days
            </li>
          ))}
          <li>shaded on temperature, lowest heart rate, HRV and breathing rate</li>
        </ul>
      ) : null}

      <div className="space-y-3">
        {state.metrics.map((id, i) => {
          const q = series[i];
          return (
            <TrendPanel
              key={id}
              metricId={id}
              series={q?.data}
              isLoading={!!q?.isFetching}
              error={q?.error}
              onRetry={() => q?.refetch()}
              units={units}
              layers={state.layers}
              tags={tags}
              cursor={cursor}
              onCursor={setCursor}
              showXAxis
              phases={phases}
              emptyReason={emptyReason}
              onRemove={state.metrics.length > 1 ? () => update({ metrics: state.metrics.filter((x) => x !== id) }) : undefined}
            />
          );
        })}
      </div>
      <p className="text-xs text-slate-500 dark:text-slate-400">
        {NUMERIC_METRICS.length + CATEGORY_METRICS.length} metrics to choose from. Hover a chart or focus it and use the arrow keys to read the days; the panels
        share one time axis and one cursor.
      </p>
    </div>
  );
}
