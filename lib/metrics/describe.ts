// Plain-language summaries of what a chart shows (the text next to every chart, for people
// who do not read the picture). Pure.
import type { MetricDef } from "@/lib/metrics/catalog";
import { formatDay } from "@/lib/days";
import { formatDelta, formatValue, type Units } from "@/lib/metrics/format";
import { dayAt, type CategorySeries, type NumericSeries } from "@/lib/metrics/series";

/** What a chart with no value in its period says instead (pages, the report, its PDF). */
export const NO_DATA_IN_PERIOD = "No data in this period";

const d = (day: string) => formatDay(day, { withYear: true, withWeekday: false });

export function describeNumericSeries(metric: MetricDef, s: NumericSeries, units: Units): string {
  const head = `${metric.label} from ${d(s.from)} to ${d(s.to)}`;
  if (s.summary.n === 0) return `${head}: no values.`;
  let last = s.value.length - 1;
  while (last > 0 && s.value[last] === null) last--;
  const value = (v: number | null) => formatValue(metric, v, units);
  const parts = [
    `${head}: mean ${value(s.summary.mean)} over ${s.summary.n} of ${s.summary.days} days, ` +
      `lowest ${value(s.summary.min)}, highest ${value(s.summary.max)}; latest ${value(s.value[last] ?? null)} (${d(dayAt(s.from, last))}).`,
  ];
  if (s.summary.anomalies) {
    parts.push(`${s.summary.anomalies} ${s.summary.anomalies === 1 ? "day was" : "days were"} outside your usual range.`);
  }
  const c = s.comparison;
  if (c.delta !== null) {
    parts.push(
      formatDelta(metric, c.delta, units) === "±0"
        ? `The same mean as the ${c.days} days before.`
        : `Against the ${c.days} days before, the mean ${c.delta > 0 ? "rose" : "fell"} ` +
            `by ${formatDelta(metric, Math.abs(c.delta), units).replace(/^\+/, "")}.`,
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

/** One point of a chart for its summary: where it is (a day or a time, as shown) and its value. */
export type SeriesPoint = { at: string; value: number | null };

/**
 * The short summary every chart carries: its range, its latest value and the change since the
 * first value ("Sleep score, last 30 days: lowest 62, highest 88; latest 81 (Tue 24 Nov), up 5
 * since Wed 28 Oct."). Points without a value are gaps, never zeros.
 */
export function describeSeries(label: string, points: readonly SeriesPoint[], format: (v: number) => string): string {
  const known = points.filter((p): p is { at: string; value: number } => p.value !== null && Number.isFinite(p.value));
  if (known.length === 0) return `${label}: no values.`;
  const first = known[0]!;
  const last = known[known.length - 1]!;
  if (known.length === 1) return `${label}: one value, ${format(last.value)} (${last.at}).`;
  let lo = first.value;
  let hi = first.value;
  for (const p of known) {
    if (p.value < lo) lo = p.value;
    if (p.value > hi) hi = p.value;
  }
  const diff = last.value - first.value;
  const change =
    format(Math.abs(diff)) === format(0) ? `unchanged since ${first.at}` : `${diff > 0 ? "up" : "down"} ${format(Math.abs(diff))} since ${first.at}`;
  return `${label}: lowest ${format(lo)}, highest ${format(hi)}; latest ${format(last.value)} (${last.at}), ${change}.`;
}
