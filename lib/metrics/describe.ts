// Plain-language summaries of what a chart shows (the text next to every chart, for people
// who do not read the picture). Pure.
import type { MetricDef } from "@/lib/metrics/catalog";
import { formatDay } from "@/lib/metrics/days";
import { formatDelta, formatValue, type Units } from "@/lib/metrics/format";
import type { CategorySeries, NumericSeries } from "@/lib/metrics/series";

const d = (day: string) => formatDay(day, { withYear: true, withWeekday: false });

export function describeNumericSeries(metric: MetricDef, s: NumericSeries, units: Units): string {
  const head = `${metric.label} from ${d(s.from)} to ${d(s.to)}`;
  if (s.summary.n === 0) return `${head}: no values.`;
  const parts = [
    `${head}: mean ${formatValue(metric, s.summary.mean, units)} over ${s.summary.n} of ${s.summary.days} days, lowest ${formatValue(metric, s.summary.min, units)}, highest ${formatValue(metric, s.summary.max, units)}.`,
  ];
  if (s.summary.anomalies) {
    parts.push(`${s.summary.anomalies} ${s.summary.anomalies === 1 ? "day was" : "days were"} outside your usual range.`);
  }
  const c = s.comparison;
  if (c.delta !== null) {
    parts.push(
      c.delta === 0
        ? `The same mean as the ${c.days} days before.`
        : `Against the ${c.days} days before, the mean ${c.delta > 0 ? "rose" : "fell"} by ${formatDelta(metric, Math.abs(c.delta), units).replace(/^\+/, "")}.`,
    );
  } else {
    parts.push(`Not enough data in the ${c.days} days before to compare.`);
  }
  return parts.join(" ");
}

export function describeCategorySeries(metric: MetricDef, s: CategorySeries): string {
  const head = `${metric.label} from ${d(s.from)} to ${d(s.to)}`;
  if (s.n === 0) return `${head}: no values.`;
  const counts = (metric.categories ?? [])
    .filter((c) => s.counts[c.value])
    .map((c) => `${c.label} ${s.counts[c.value]} ${s.counts[c.value] === 1 ? "day" : "days"}`)
    .join(", ");
  return `${head}: ${counts} (${s.n} of ${s.summary.days} days with a value).`;
}
