import type { MetricDef } from "@/lib/metrics/catalog";
import { deltaTone, formatDelta, type Units } from "@/lib/metrics/format";
import { SEVEN_DAY_MEAN } from "@/lib/metrics/trend-layers";
import { cn } from "@/components/ui/cn";

const TONE = {
  good: "bg-emerald-50 text-emerald-800 ring-emerald-600/20 dark:bg-emerald-500/10 dark:text-emerald-300 dark:ring-emerald-400/20",
  bad: "bg-rose-50 text-rose-800 ring-rose-600/20 dark:bg-rose-500/10 dark:text-rose-300 dark:ring-rose-400/20",
  neutral: "bg-slate-100 text-slate-700 ring-slate-500/20 dark:bg-slate-800 dark:text-slate-300 dark:ring-slate-400/20",
};

/** A change against a reference ("+4 vs 7-day mean"), coloured by whether it is good news. */
export function DeltaChip({
  metric,
  delta,
  units,
  against = SEVEN_DAY_MEAN.label,
  className,
}: {
  metric: MetricDef;
  delta: number | null;
  units: Units;
  against?: string;
  className?: string;
}) {
  if (delta === null) {
    return <span className={cn("text-xs text-slate-500 dark:text-slate-400", className)}>not enough days for a {against}</span>;
  }
  const text = formatDelta(metric, delta, units);
  const isZero = text === "±0";
  const tone = isZero ? "neutral" : deltaTone(metric, delta);
  const arrow = isZero ? "" : delta > 0 ? "▲" : "▼";
  return (
    <span
      className={cn("inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium tabular-nums ring-1 ring-inset", TONE[tone], className)}
      title={`Change against the ${against}`}
    >
      {arrow ? (
        <span aria-hidden className="text-[0.65rem]">
          {arrow}
        </span>
      ) : null}
      {text}
      <span className="font-normal">vs {against}</span>
    </span>
  );
}
