import type { MetricDef } from "@/lib/metrics/catalog";
import { cn } from "@/components/ui/cn";

function band(v: number): { tone: string; word: string } {
  if (v >= 85) return { tone: "bg-emerald-500 dark:bg-emerald-400", word: "optimal" };
  if (v >= 70) return { tone: "bg-sky-500 dark:bg-sky-400", word: "good" };
  return { tone: "bg-amber-500 dark:bg-amber-400", word: "pay attention" };
}

/** Contributor scores (0–100) as labelled bars; the numbers are text, the bars decoration. */
export function ContributorBars({
  items,
  label,
  className,
  dense,
}: {
  items: Array<{ metric: MetricDef; value: number | null }>;
  label: string;
  className?: string;
  dense?: boolean;
}) {
  return (
    <ul aria-label={label} className={cn(dense ? "space-y-1.5" : "space-y-2", className)}>
      {items.map(({ metric, value }) => {
        const b = value === null ? null : band(value);
        return (
          <li key={metric.id} className="grid grid-cols-[minmax(0,1fr)_2.25rem] items-center gap-x-2 gap-y-0.5 text-xs">
            <span className="break-words text-slate-600 dark:text-slate-300">{metric.short}</span>
            <span
              className="text-right font-medium tabular-nums text-slate-800 dark:text-slate-100"
              aria-label={value === null ? "no value" : `${value}, ${b?.word}`}
            >
              {value === null ? "—" : Math.round(value)}
            </span>
            <span aria-hidden className="col-span-2 h-1.5 overflow-hidden rounded-full bg-slate-100 dark:bg-slate-800">
              {value !== null ? <span className={cn("block h-full rounded-full", b?.tone)} style={{ width: `${Math.max(2, Math.min(100, value))}%` }} /> : null}
            </span>
          </li>
        );
      })}
    </ul>
  );
}
