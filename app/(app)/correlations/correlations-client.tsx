"use client";
import { useEffect, useMemo, useState } from "react";
import { getMetric, type MetricDef } from "@/lib/metrics/catalog";
import { CORRELATION_PRESETS, parseCorrelationsState, type CorrelationsInitial } from "@/components/dashboard/correlations-state";
import { formatDay, todayIn } from "@/lib/days";
import { displayScale, formatTick, type Units } from "@/lib/metrics/format";
import { resolveRange, type RangePreset } from "@/lib/metrics/ranges";
import { LazyScatterPlot } from "@/components/charts/lazy";
import { RangePicker } from "@/components/dashboard/range-picker";
import type { CorrelationResponse } from "@/lib/api/contract";
import { useCorrelation, useStrongestCorrelations } from "@/components/hooks/use-correlations";
import { useMetricsOverview } from "@/components/hooks/use-metrics-overview";
import { useNotes } from "@/components/hooks/use-notes";
import { useUnits } from "@/components/hooks/use-preferences";
import { Card, PageHeader } from "@/components/ui/card";
import { MetricSelect } from "@/components/ui/metric-select";
import { LagSegmented } from "@/components/ui/segmented";
import { Skeleton } from "@/components/ui/skeleton";
import { EmptyState, ErrorState, NoDataPage } from "@/components/ui/states";
import { cn } from "@/components/ui/cn";

const numeric = (m: MetricDef) => m.kind !== "category";
const PRESETS = CORRELATION_PRESETS;

export function CorrelationsClient({ initial }: { initial: CorrelationsInitial }) {
  const [start] = useState(() => parseCorrelationsState(initial));
  const [x, setX] = useState(start.x);
  const [y, setY] = useState(start.y);
  const [lag, setLag] = useState<0 | 1>(start.lag);
  const [range, setRange] = useState<{ range: RangePreset; from?: string; to?: string }>({ range: start.range });
  const overview = useMetricsOverview();
  const units = useUnits();
  const r = overview.data ? resolveRange(range.range, overview.data, todayIn(), { from: range.from, to: range.to }) : null;
  const pair = useCorrelation(x, y, lag, r?.from ?? null, r?.to ?? null);
  const strongest = useStrongestCorrelations(r?.from ?? null, r?.to ?? null);
  const notes = useNotes(r?.from ?? null, r?.to ?? null);
  const tagged = useMemo(() => new Set((notes.data?.days ?? []).filter((d) => d.tags.length || d.ringTags.length).map((d) => d.day)), [notes.data]);

  useEffect(() => {
    const q = new URLSearchParams({ x, y, lag: String(lag), range: range.range }).toString();
    if (window.location.search.slice(1) !== q) window.history.replaceState(null, "", `?${q}`);
  }, [x, y, lag, range.range]);

  if (overview.isPending) return <Skeleton className="h-96" />;
  if (overview.isError) return <ErrorState error={overview.error} onRetry={() => overview.refetch()} />;
  if (!overview.data.lastDay || !r) {
    return <NoDataPage title="Correlations" />;
  }
  const mx = getMetric(x);
  const my = getMetric(y);

  return (
    <div className="space-y-4" data-testid="correlations">
      <PageHeader
        title="Correlations"
        subtitle={`How your metrics move together, ${formatDay(r.from, { withYear: true })} – ${formatDay(r.to, { withYear: true })}`}
      >
        <RangePicker range={range.range} from={r.from} to={r.to} presets={PRESETS} onChange={setRange} />
      </PageHeader>
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <Card aria-labelledby="pair-title">
          <h2 id="pair-title" className="sr-only">
            {mx.label} against {my.label}
          </h2>
          <div className="mb-3 flex flex-wrap items-end gap-3">
            <label className="flex flex-col gap-1 text-xs font-medium text-slate-600 dark:text-slate-400">
              X (on a day)
              <MetricSelect value={x} onChange={setX} filter={numeric} className="w-52" />
            </label>
            <label className="flex flex-col gap-1 text-xs font-medium text-slate-600 dark:text-slate-400">
              Y
              <MetricSelect value={y} onChange={setY} filter={numeric} className="w-52" />
            </label>
            <div className="flex flex-col gap-1 text-xs font-medium text-slate-600 dark:text-slate-400">
              <span id="lag-label">Y measured</span>
              <LagSegmented label="Y measured on" lag={lag} onChange={setLag} labels={["Same day", "Next day"]} />
            </div>
            <button
              type="button"
              onClick={() => {
                setX(y);
                setY(x);
              }}
              className={cn(
                "rounded-lg px-2 py-1.5 text-sm text-slate-600 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-600",
                "dark:text-slate-300 dark:hover:bg-slate-800",
              )}
            >
              ⇄ Swap
            </button>
          </div>
          {pair.isError ? (
            <ErrorState error={pair.error} onRetry={() => pair.refetch()} />
          ) : !pair.data ? (
            <Skeleton className="h-[340px]" />
          ) : (
            <PairView data={pair.data} mx={mx} my={my} units={units} tagged={tagged} />
          )}
        </Card>
        <Card aria-labelledby="strongest-title">
          <h2 id="strongest-title" className="text-sm font-semibold">
            Strongest relationships
          </h2>
          <p className="mb-3 mt-0.5 text-xs text-slate-500 dark:text-slate-400">
            Headline metrics, same day and next day, at least {strongest.data?.minN ?? 30} days together. Pairs built from the same measurement are left out.
          </p>
          {strongest.isError ? (
            <ErrorState error={strongest.error} onRetry={() => strongest.refetch()} />
          ) : !strongest.data ? (
            <div className="space-y-2">
              {[0, 1, 2, 3, 4].map((i) => (
                <Skeleton key={i} className="h-10" />
              ))}
            </div>
          ) : strongest.data.results.length === 0 ? (
            <EmptyState title="Not enough days yet">Relationships appear once metrics share 30 days.</EmptyState>
          ) : (
            <ol className="space-y-1.5" data-testid="strongest-list">
              {strongest.data.results.map((c) => {
                const a = getMetric(c.x);
                const b = getMetric(c.y);
                const active = c.x === x && c.y === y && c.lag === lag;
                return (
                  <li key={`${c.x}-${c.y}-${c.lag}`}>
                    <button
                      type="button"
                      onClick={() => {
                        setX(c.x);
                        setY(c.y);
                        setLag(c.lag);
                      }}
                      aria-pressed={active}
                      className={cn(
                        "w-full rounded-lg border px-2.5 py-1.5 text-left text-sm transition-colors focus-visible:outline-2 focus-visible:outline-brand-600",
                        active
                          ? "border-brand-500 bg-brand-50 dark:bg-brand-500/10"
                          : "border-slate-200 hover:bg-slate-50 dark:border-slate-800 dark:hover:bg-slate-800/60",
                      )}
                    >
                      <span className="flex items-center justify-between gap-2">
                        <span className="min-w-0 break-words">
                          {a.label} <span className="text-slate-500 dark:text-slate-400">{c.lag ? "→ next day" : "&"}</span> {b.label}
                        </span>
                        <span
                          className={cn(
                            "shrink-0 font-semibold tabular-nums",
                            c.r > 0 ? "text-emerald-700 dark:text-emerald-400" : "text-rose-700 dark:text-rose-400",
                          )}
                        >
                          {c.r > 0 ? "+" : "−"}
                          {Math.abs(c.r).toFixed(2)}
                        </span>
                      </span>
                      <span aria-hidden className="mt-1 block h-1 rounded-full bg-slate-100 dark:bg-slate-800">
                        <span
                          className={cn("block h-full rounded-full", c.r > 0 ? "bg-emerald-500" : "bg-rose-500")}
                          style={{ width: `${Math.abs(c.r) * 100}%` }}
                        />
                      </span>
                      <span className="sr-only">
                        r {c.r.toFixed(2)}, {c.strength}, {c.n} days
                      </span>
                    </button>
                  </li>
                );
              })}
            </ol>
          )}
        </Card>
      </div>
    </div>
  );
}

function PairView({ data, mx, my, units, tagged }: { data: CorrelationResponse; mx: MetricDef; my: MetricDef; units: Units; tagged: ReadonlySet<string> }) {
  const c = data.correlation;
  const when = data.lag ? `the next day's ${my.label.toLowerCase()}` : `${my.label.toLowerCase()} the same day`;
  const summary = c
    ? `Over ${c.n} days, when ${mx.label.toLowerCase()} is higher, ${when} tends to be ${c.r >= 0 ? "higher" : "lower"} (r = ${c.r.toFixed(2)}, ${c.strength}).`
    : `Not enough days with both values to compute a correlation (${data.points.length} days; at least 10 are needed).`;
  const sx = displayScale(mx, units);
  const sy = displayScale(my, units);
  // the fitted line in words: "every 1,000 steps more goes with +0.4 of sleep score"
  let line = "";
  if (c && data.points.length > 1) {
    const xs = data.points.map((p) => p.x * sx.factor);
    const span = Math.max(...xs) - Math.min(...xs);
    const step = span > 0 ? 10 ** Math.floor(Math.log10(span / 4)) : 1;
    const dy = c.slope * (step / sx.factor) * sy.factor;
    const fmt = (v: number) => formatTick({ ...sy, decimals: Math.max(1, sy.decimals) }, Number(v.toPrecision(2)));
    const xStep = `${formatTick(sx, step)}${sx.unit ? ` ${sx.unit}` : ""}`;
    const yChange = `${dy >= 0 ? "+" : "−"}${fmt(Math.abs(dy))}${sy.unit ? ` ${sy.unit}` : ""}`;
    line = ` Fitted line: every ${xStep} more of ${mx.label.toLowerCase()} goes with ${yChange} of ${my.label.toLowerCase()}.`;
  }
  return (
    <figure className="m-0">
      <dl className="mb-3 grid grid-cols-2 gap-3 sm:grid-cols-4">
        <Stat label="r (Pearson)" value={c ? (c.r >= 0 ? "+" : "−") + Math.abs(c.r).toFixed(2) : "—"} testId="corr-r" />
        <Stat label="Days (n)" value={c ? String(c.n) : String(data.points.length)} testId="corr-n" />
        <Stat label="Strength" value={c?.strength ?? "—"} />
        <Stat label="95% interval" value={c && c.ciLow !== null && c.ciHigh !== null ? `${c.ciLow.toFixed(2)} to ${c.ciHigh.toFixed(2)}` : "—"} />
      </dl>
      {data.points.length ? (
        <LazyScatterPlot
          xMetric={mx}
          yMetric={my}
          points={data.points}
          line={c}
          units={units}
          tagged={tagged}
          label={`Scatter of ${mx.label} against ${data.lag ? "next day's " : ""}${my.label}, ${data.points.length} days`}
        />
      ) : (
        <EmptyState title="No days with both values" />
      )}
      <figcaption className="mt-2 text-xs leading-relaxed text-slate-500 dark:text-slate-400" data-testid="corr-summary">
        {summary}
        {line} Diamonds are tagged days. A correlation is not a cause.
      </figcaption>
    </figure>
  );
}

function Stat({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="rounded-xl bg-slate-50 px-3 py-2 dark:bg-slate-800/60">
      <dt className="text-[0.7rem] text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className="text-lg font-semibold tabular-nums first-letter:uppercase" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}
