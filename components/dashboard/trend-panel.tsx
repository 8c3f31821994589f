"use client";
import { useMemo } from "react";
import { getMetric, type MetricDef, type MetricId } from "@/lib/metrics/catalog";
import { describeCategorySeries, describeNumericSeries } from "@/lib/metrics/describe";
import { formatPct, formatValue, type Units } from "@/lib/metrics/format";
import { dayAt, type MetricSeries } from "@/lib/metrics/series";
import { isLayerShown, SEVEN_DAY_MEAN, TREND_LAYER, TREND_LAYERS, type TrendLayerDef, type TrendLayers } from "@/lib/metrics/trend-layers";
import { formatDay } from "@/lib/days";
import { LazyCategoryStrip, LazyTrendChart } from "@/components/charts/lazy";
import { ChartFigure } from "@/components/charts/chart-a11y";
import type { ChartTableProps } from "@/components/charts/chart-table";
import { metricColor } from "@/components/dashboard/colors";
import { DeltaChip } from "@/components/dashboard/delta-chip";
import type { TagRef } from "@/lib/api/contract";
import { Card } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { Skeleton } from "@/components/ui/skeleton";
import { ErrorState } from "@/components/ui/states";
import { signalDocsHref, SIGNALS } from "@/lib/signals/catalog";
import type { CyclePhase } from "@/lib/cycle";
import { CYCLE_SHADED_METRICS } from "@/components/cycle/phase";

/** One metric of the Trends page: header with period figures, the chart, its text summary. */
export function TrendPanel({
  metricId,
  series,
  isLoading,
  error,
  onRetry,
  units,
  layers,
  tags,
  cursor,
  onCursor,
  onRemove,
  showXAxis,
  phases = null,
  emptyReason = null,
}: {
  metricId: MetricId;
  series: MetricSeries | undefined;
  isLoading: boolean;
  error: unknown;
  onRetry: () => void;
  units: Units;
  layers: TrendLayers;
  tags: ReadonlyMap<string, TagRef[]>;
  cursor: number | null;
  onCursor: (i: number | null) => void;
  onRemove?: () => void;
  showXAxis: boolean;
  /** each day's cycle phase (cycle tracking on): shaded on the charts of the markers the cycle moves */
  phases?: ReadonlyMap<string, CyclePhase> | null;
  /** why the chart may have no data in its period, when known */
  emptyReason?: string | null;
}) {
  const metric = getMetric(metricId);
  const slots = useMemo(
    () =>
      phases && series?.kind === "numeric" && CYCLE_SHADED_METRICS.includes(metricId)
        ? series.value.map((_, i) => phases.get(dayAt(series.from, i)) ?? null)
        : null,
    [phases, series, metricId],
  );
  const color = metricColor(metric);
  const headingId = `panel-${metricId}`;
  return (
    <Card aria-labelledby={headingId} data-testid="trend-panel" data-metric={metricId} className="!px-3 !py-3 sm:!px-4">
      <div className="mb-2 px-1">
        <div className="flex items-start justify-between gap-3">
          <h2 id={headingId} className="flex min-w-0 items-center gap-2 text-sm font-semibold">
            <span aria-hidden className="h-2.5 w-2.5 shrink-0 rounded-full" style={{ background: color }} />
            <span className="break-words">{metric.label}</span>
            {metric.description ? <span className="hidden font-normal text-slate-500 dark:text-slate-400 md:inline">· {metric.description}</span> : null}
          </h2>
          {onRemove ? (
            <button
              type="button"
              onClick={onRemove}
              aria-label={`Remove ${metric.label}`}
              className={cn(
                "-mr-1 -mt-1 shrink-0 rounded-md px-1.5 text-lg leading-none text-slate-500 dark:text-slate-400 hover:bg-slate-100 hover:text-slate-700",
                "focus-visible:outline-2 focus-visible:outline-brand-600 dark:hover:bg-slate-800 dark:hover:text-slate-200",
              )}
            >
              ×
            </button>
          ) : null}
        </div>
        {series?.kind === "numeric" ? <NumericHeader metric={metric} series={series} units={units} /> : null}
        {series?.kind === "category" ? <CategoryHeader metric={metric} series={series} /> : null}
      </div>
      {error ? (
        <ErrorState error={error} onRetry={onRetry} />
      ) : !series || (isLoading && !series) ? (
        <Skeleton className={metric.kind === "category" ? "h-16" : "h-[200px]"} />
      ) : (
        <ChartFigure
          summary={
            <>
              {series.kind === "numeric" ? describeNumericSeries(metric, series, units) : describeCategorySeries(metric, series)}
              {series.kind === "numeric" ? <SignalNote metric={metric} series={series} units={units} /> : null}
            </>
          }
          summaryTestId="chart-summary"
          table={trendTable(metric, series, units, tags)}
          busy={isLoading}
        >
          {series.kind === "numeric" ? (
            <LazyTrendChart
              metric={metric}
              series={series}
              units={units}
              color={color}
              layers={layers}
              tags={tags}
              cursor={cursor}
              onCursor={onCursor}
              showXAxis={showXAxis}
              phases={slots}
              emptyReason={emptyReason}
            />
          ) : (
            <LazyCategoryStrip metric={metric} series={series} tags={tags} showTags={layers.tags} cursor={cursor} onCursor={onCursor} showXAxis={showXAxis} />
          )}
        </ChartFigure>
      )}
    </Card>
  );
}

function NumericHeader({ metric, series, units }: { metric: MetricDef; series: Extract<MetricSeries, { kind: "numeric" }>; units: Units }) {
  const c = series.comparison;
  return (
    <p className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-slate-600 dark:text-slate-300">
      <span>
        Mean{" "}
        <span className="font-semibold tabular-nums text-slate-900 dark:text-white" data-testid="period-mean">
          {formatValue(metric, series.summary.mean, units)}
        </span>
      </span>
      <span className="tabular-nums">
        {series.summary.n}/{series.summary.days} days
      </span>
      {series.summary.anomalies ? <span className="tabular-nums text-[var(--chart-anomaly)]">{series.summary.anomalies} outside usual range</span> : null}
      <span className="inline-flex items-center gap-1" data-testid="period-comparison">
        <DeltaChip metric={metric} delta={c.delta} units={units} against={`previous ${c.days} d`} />
        {c.deltaPct !== null && c.delta !== 0 ? <span className="tabular-nums text-slate-500 dark:text-slate-400">{formatPct(c.deltaPct)}</span> : null}
      </span>
    </p>
  );
}

function CategoryHeader({ metric, series }: { metric: MetricDef; series: Extract<MetricSeries, { kind: "category" }> }) {
  return (
    <ul
      className="mt-1 flex flex-wrap gap-x-3 gap-y-1 text-xs text-slate-600 dark:text-slate-300"
      aria-label={`${metric.label} counts, this period against the previous`}
    >
      {(metric.categories ?? []).map((c) => {
        const now = series.counts[c.value] ?? 0;
        const before = series.previousCounts[c.value] ?? 0;
        return (
          <li key={c.value} className="inline-flex items-center gap-1">
            <span aria-hidden className="h-2 w-2 rounded-sm" style={{ background: c.color }} />
            {c.label} <span className="font-semibold tabular-nums text-slate-900 dark:text-white">{now}</span>
            <span className="tabular-nums text-slate-500 dark:text-slate-400">(before {before})</span>
          </li>
        );
      })}
    </ul>
  );
}

export function TrendsLegend({ layers }: { layers: TrendLayers }) {
  return (
    <ul aria-label="How to read the charts" className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-500 dark:text-slate-400">
      <li className="inline-flex items-center gap-1.5">
        <span aria-hidden className="h-0.5 w-4 rounded bg-slate-500" /> daily value
      </li>
      {TREND_LAYERS.filter((l) => isLayerShown(l, layers)).map((l) => (
        <li key={l.id} className="inline-flex items-center gap-1.5">
          <LayerSwatch layer={l} /> {l.legend}
        </li>
      ))}
    </ul>
  );
}

/** A layer's sample in the legend, drawn as the chart draws it. */
function LayerSwatch({ layer }: { layer: TrendLayerDef }) {
  const { swatch, color } = layer;
  if (swatch === "marker") {
    return (
      <span aria-hidden style={{ color }}>
        ▼
      </span>
    );
  }
  if (swatch === "dashed") return <span aria-hidden className="h-0 w-4 border-t-2 border-dashed" style={{ borderColor: color }} />;
  const shape = { line: "h-0.5 w-4 rounded", band: "h-2.5 w-4 rounded-sm", dot: "h-2 w-2 rounded-full" }[swatch];
  return <span aria-hidden className={shape} style={{ background: color }} />;
}

/** What the signals add to a panel: the normal range's state (or why there is none yet), with where it is explained. */
function SignalNote({ metric, series, units }: { metric: MetricDef; series: Extract<MetricSeries, { kind: "numeric" }>; units: Units }) {
  const n = series.normal;
  if (!n && metric.source.type !== "signal") return null;
  const link = (anchor: string, text: string) => (
    <a href={signalDocsHref(anchor)} className="ml-1 underline decoration-dotted underline-offset-2 hover:text-slate-700 dark:hover:text-slate-200">
      {text}
    </a>
  );
  if (!n) return <> {link(SIGNALS.sleep_debt.anchor, "How sleep debt is computed")}</>;
  const last = n.low.length - 1;
  let i = last;
  while (i >= 0 && n.low[i] === null) i--;
  if (i < 0) {
    return (
      <span className="block" data-testid="normal-range-note">
        {TREND_LAYER.normal.label}: needs {n.minNights} nights of history before a day; the newest day has {n.nights}.{" "}
        {link("normal-ranges", "About normal ranges")}
      </span>
    );
  }
  const state = n.state[i];
  return (
    <span className="block" data-testid="normal-range-note">
      {TREND_LAYER.normal.label} (your {n.windowDays} nights before, mean ± {n.k} sd{n.transform === "ln" ? " of ln HRV" : ""}):{" "}
      {formatValue(metric, n.low[i] ?? null, units, { unit: false })} – {formatValue(metric, n.high[i] ?? null, units)}; the {SEVEN_DAY_MEAN.label} is{" "}
      {state === "below" ? "below it" : state === "above" ? "above it" : state === "within" ? "within it" : "not known"}.
      {link("normal-ranges", "About normal ranges")}
    </span>
  );
}

/** The panel's numbers as a table: one row a day, with the layers' values and the day's tags. */
function trendTable(metric: MetricDef, series: MetricSeries, units: Units, tags: ReadonlyMap<string, TagRef[]>): ChartTableProps {
  const day = (i: number) => dayAt(series.from, i);
  const tagText = (i: number) => (tags.get(day(i)) ?? []).map((t) => `#${t.name}`).join(" ");
  const caption = `${metric.label} by day, ${formatDay(series.from, { withYear: true })} to ${formatDay(series.to, { withYear: true })}`;
  if (series.kind === "category") {
    const label = new Map((metric.categories ?? []).map((c) => [c.value, c.label]));
    return {
      caption,
      columns: [{ label: "Day" }, { label: metric.short }, { label: TREND_LAYER.tags.label }],
      rows: () => series.value.map((v, i) => ({ key: day(i), cells: [formatDay(day(i), { withYear: true }), v ? (label.get(v) ?? v) : "—", tagText(i)] })),
    };
  }
  const f = (v: number | null | undefined) => formatValue(metric, v ?? null, units);
  return {
    caption,
    columns: [
      { label: "Day" },
      { label: metric.short, numeric: true },
      { label: TREND_LAYER.avg7.label, numeric: true },
      { label: TREND_LAYER.avg30.label, numeric: true },
      { label: TREND_LAYER.band.label, numeric: true },
      { label: "Note" },
    ],
    rows: () =>
      series.value.map((v, i) => ({
        key: day(i),
        cells: [
          formatDay(day(i), { withYear: true }),
          f(v),
          f(series.avg7[i]),
          f(series.avg30[i]),
          series.baseLow[i] !== null && series.baseLow[i] !== undefined
            ? `${formatValue(metric, series.baseLow[i] ?? null, units, { unit: false })} – ${f(series.baseHigh[i])}`
            : "—",
          [series.flag[i] ? `${series.flag[i] === "high" ? "above" : "below"} your usual range` : "", tagText(i)].filter(Boolean).join(", "),
        ],
      })),
  };
}
