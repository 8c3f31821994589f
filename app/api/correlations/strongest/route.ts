import { withUser, parseQuery } from "@/lib/api/handler";
import { getStrongestQuerySchema } from "@/lib/api/schemas";
import { HEADLINE_METRICS } from "@/lib/metrics/catalog";
import { addDays } from "@/lib/metrics/days";
import { rankCorrelations, RANK_MIN_N } from "@/lib/metrics/correlations";
import { toDense, type DayValue } from "@/lib/metrics/series";
import { correlationStrength } from "@/lib/metrics/stats";
import { getManyMetricValues } from "@/lib/db/queries/metrics";

// GET /api/correlations/strongest?from&to&limit – the strongest relationships between the
// headline metrics (lag 0 and 1), ranked by |r|
export const GET = withUser(async ({ user, searchParams }) => {
  const { from, to, limit } = parseQuery(searchParams, getStrongestQuerySchema);
  // one extra day so lag-1 pairs can use the day after `to`
  const end = addDays(to, 1);
  const metrics = HEADLINE_METRICS.filter((m) => m.kind !== "category");
  const values = getManyMetricValues({ userId: user.id, metrics, from, to: end });
  const series = metrics.map((m) => ({
    metric: m,
    values: toDense((values.get(m.id) ?? []) as DayValue<number | null>[], from, end),
  }));
  // lag 0 must not use the extra day
  const lag0 = rankCorrelations(series.map((s) => ({ ...s, values: s.values.slice(0, -1) })), { lags: [0] });
  const lag1 = rankCorrelations(series, { lags: [1] });
  const ranked = [...lag0, ...lag1].sort((a, b) => Math.abs(b.r) - Math.abs(a.r) || b.n - a.n).slice(0, limit);
  return Response.json({
    from,
    to,
    minN: RANK_MIN_N,
    results: ranked.map((r) => ({ ...r, strength: correlationStrength(r.r) })),
  });
});
