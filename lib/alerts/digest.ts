// The weekly digest's facts: the week against the week before and against the usual range,
// its best and worst days, its tags, and the other kinds' lines (each kind's `digest`, read by
// the worker). Pure: the caller reads the rows. The digest's rule kind is
// lib/alerts/kinds/weekly-digest.ts.
import { getMetric, type MetricId } from "@/lib/metrics/catalog";
import { addDays } from "@/lib/days";
import { toDense, type DayValue } from "@/lib/metrics/series";
import { BASELINE_DAYS, computeSeriesStats, meanOf, periodMinCount } from "@/lib/metrics/stats";
import { DIGEST_DAY_METRICS, DIGEST_METRICS } from "@/lib/alerts/catalog";
import type { DigestSection } from "@/lib/alerts/kinds/define";

/** The seven days a digest sent on `slotDay` covers: the week that ended the day before. */
export function digestWeek(slotDay: string): { from: string; to: string } {
  return { from: addDays(slotDay, -7), to: addDays(slotDay, -1) };
}

/** How far back a digest's rows must reach: the week before and the baseline before that. */
export function digestRowsFrom(week: { from: string }): string {
  return addDays(week.from, -(7 + BASELINE_DAYS));
}

export type DigestMetric = {
  metric: MetricId;
  label: string;
  /** mean of the week and of the week before (null with too few days) */
  week: number | null;
  previous: number | null;
  /** compared with the week before; null when either week has too few days */
  trend: "up" | "down" | "same" | null;
  /** days of the week below / above their usual range */
  below: number;
  above: number;
  /** the usual range at the week's end (mean ± 2 SD of the 90 days before), if known */
  low: number | null;
  high: number | null;
  days: number;
};

export type DigestDay = { day: string; metric: MetricId; value: number };

export type DigestFacts = {
  from: string;
  to: string;
  metrics: DigestMetric[];
  best: DigestDay | null;
  worst: DigestDay | null;
  /** tags of the week with the days they were on, most used first */
  tags: Array<{ name: string; days: number }>;
  taggedDays: number;
  /** the other rule kinds' lines (lib/alerts/kinds: each kind's `digest`), in the registry's order */
  sections: DigestSection[];
};

/** A change under 0.5 % of the week before counts as no change. */
function isSame(delta: number, mean: number): boolean {
  return Math.abs(delta) < Math.max(1e-9, Math.abs(mean) * 0.005);
}

export function buildDigestFacts(opts: {
  week: { from: string; to: string };
  /** rows of each digest metric from digestRowsFrom(week) to week.to */
  rows: Readonly<Record<string, readonly DayValue<number | null>[]>>;
  tags: ReadonlyArray<{ day: string; name: string }>;
  sections?: DigestSection[];
}): DigestFacts {
  const start = digestRowsFrom(opts.week);
  const off = BASELINE_DAYS + 7; // index of week.from in the dense series
  const metrics: DigestMetric[] = [];
  const dense: Record<string, Array<number | null>> = {};
  for (const id of DIGEST_METRICS) {
    const m = getMetric(id);
    const values = toDense(opts.rows[id] ?? [], start, opts.week.to);
    dense[id] = values;
    const stats = computeSeriesStats(values);
    const min = periodMinCount(7);
    const week = meanOf(values, off, off + 6, min);
    const previous = meanOf(values, off - 7, off - 1, min);
    let below = 0;
    let above = 0;
    for (let i = off; i <= off + 6; i++) {
      if (stats.flag[i] === "low") below++;
      else if (stats.flag[i] === "high") above++;
    }
    const delta = week.mean !== null && previous.mean !== null ? week.mean - previous.mean : null;
    const lastBand = stats.baseLow[off + 6] ?? null;
    metrics.push({
      metric: id,
      label: m.label,
      week: week.mean,
      previous: previous.mean,
      trend: delta === null ? null : isSame(delta, previous.mean ?? 0) ? "same" : delta > 0 ? "up" : "down",
      below,
      above,
      low: lastBand,
      high: stats.baseHigh[off + 6] ?? null,
      days: week.n,
    });
  }
  let best: DigestDay | null = null;
  let worst: DigestDay | null = null;
  for (const id of DIGEST_DAY_METRICS) {
    const values = dense[id] ?? [];
    for (let i = off; i <= off + 6; i++) {
      const v = values[i];
      if (v === null || v === undefined) continue;
      const day = addDays(opts.week.from, i - off);
      if (!best || v > best.value) best = { day, metric: id, value: v };
      if (!worst || v < worst.value) worst = { day, metric: id, value: v };
    }
    if (best) break;
  }
  if (best && worst && best.day === worst.day) worst = null;
  const counts = new Map<string, Set<string>>();
  const tagged = new Set<string>();
  for (const t of opts.tags) {
    if (t.day < opts.week.from || t.day > opts.week.to) continue;
    tagged.add(t.day);
    const days = counts.get(t.name) ?? new Set<string>();
    days.add(t.day);
    counts.set(t.name, days);
  }
  const tags = [...counts.entries()].map(([name, days]) => ({ name, days: days.size })).sort((a, b) => b.days - a.days || a.name.localeCompare(b.name));
  return {
    from: opts.week.from,
    to: opts.week.to,
    metrics,
    best,
    worst,
    tags,
    taggedDays: tagged.size,
    sections: opts.sections ?? [],
  };
}
