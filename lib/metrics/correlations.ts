// The strongest relationships in a person's data: Pearson's r of every pair of headline
// metrics at lag 0 (same day) and lag 1 (x on a day, y the day after), ranked by |r|.
// Pairs from the same family of documents are left out because they are built from the same
// measurement (the sleep score and the main sleep's duration, for example), so their
// correlation says nothing new.
import type { CollectionId, MetricDef, MetricId } from "@/lib/metrics/catalog";
import { laggedCorrelation, type Correlation, type Num } from "@/lib/metrics/stats";

/** Pairs need at least this many days together to be ranked. */
export const RANK_MIN_N = 30;

export type RankedCorrelation = Correlation & { x: MetricId; y: MetricId; lag: 0 | 1 };

const FAMILY: Partial<Record<CollectionId, string>> = { daily_sleep: "sleep", sleep: "sleep" };

export function familyOf(m: Pick<MetricDef, "collection">): string {
  return FAMILY[m.collection] ?? m.collection;
}

export function rankCorrelations(
  series: ReadonlyArray<{ metric: Pick<MetricDef, "id" | "collection">; values: readonly Num[] }>,
  opts: { minN?: number; limit?: number; lags?: ReadonlyArray<0 | 1> } = {},
): RankedCorrelation[] {
  const minN = opts.minN ?? RANK_MIN_N;
  const lags = opts.lags ?? [0, 1];
  const out: RankedCorrelation[] = [];
  for (let a = 0; a < series.length; a++) {
    for (let b = 0; b < series.length; b++) {
      if (a === b) continue;
      const sa = series[a]!;
      const sb = series[b]!;
      if (familyOf(sa.metric) === familyOf(sb.metric)) continue;
      for (const lag of lags) {
        // lag 0 is symmetric: keep each unordered pair once
        if (lag === 0 && b < a) continue;
        const c = laggedCorrelation(sa.values, sb.values, lag, minN);
        if (c) out.push({ ...c, x: sa.metric.id, y: sb.metric.id, lag });
      }
    }
  }
  out.sort((p, q) => Math.abs(q.r) - Math.abs(p.r) || q.n - p.n);
  return opts.limit ? out.slice(0, opts.limit) : out;
}
