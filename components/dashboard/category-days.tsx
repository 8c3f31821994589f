import type { MetricDef } from "@/lib/metrics/catalog";
import { addDays, formatDay } from "@/lib/days";
import { DaysTable } from "@/components/charts/chart-table";
import { categoryRank } from "@/components/charts/scale";

/** The last days of a category metric as small coloured squares (oldest first). */
export function CategoryDays({ metric, values, lastDay }: { metric: MetricDef; values: Array<string | null>; lastDay: string }) {
  const cats = new Map((metric.categories ?? []).map((c) => [c.value, c]));
  const first = addDays(lastDay, -(values.length - 1));
  const summary = values.map((v, i) => `${formatDay(addDays(first, i))}: ${v ? (cats.get(v)?.label ?? v) : "no value"}`).join("; ");
  return (
    <div>
      <div role="img" aria-label={`${metric.label}, last ${values.length} days. ${summary}`} className="flex h-4 items-end gap-0.5">
        {values.map((v, i) => (
          <span
            key={i}
            title={`${formatDay(addDays(first, i))}: ${v ? (cats.get(v)?.label ?? v) : "no value"}`}
            className="flex-1 rounded-[3px] border border-slate-200 dark:border-slate-800"
            // the level's height tells the categories apart as well as their colour
            style={v ? { background: cats.get(v)?.color, borderColor: "transparent", height: `${categoryRank(metric, v) * 100}%` } : { height: "35%" }}
          />
        ))}
      </div>
      <p className="mt-1 flex justify-between text-[0.65rem] text-slate-500 dark:text-slate-400">
        <span>{formatDay(first, { withWeekday: false })}</span>
        <span>{formatDay(lastDay, { withWeekday: false })}</span>
      </p>
      <DaysTable
        caption={`${metric.label}, last ${values.length} days`}
        label={`${values.length} days as a table`}
        valueLabel={metric.short}
        end={lastDay}
        values={values.map((v) => (v ? (cats.get(v)?.label ?? v) : "—"))}
      />
    </div>
  );
}

export function CategoryBadge({ metric, value }: { metric: MetricDef; value: string | null }) {
  const c = metric.categories?.find((x) => x.value === value);
  if (!c) return <span className="text-sm text-slate-500 dark:text-slate-400">—</span>;
  return (
    <span
      className="inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 text-sm font-semibold text-slate-900 dark:text-slate-50"
      style={{ background: `color-mix(in srgb, ${c.color} 22%, transparent)` }}
    >
      <span aria-hidden className="h-2 w-2 rounded-full" style={{ background: c.color }} />
      {c.label}
    </span>
  );
}
