import { withUser, parseQuery } from "@/lib/api/handler";
import { getMetricSeriesParamsSchema, getMetricSeriesQuerySchema } from "@/lib/api/schemas";
import { getMetric } from "@/lib/metrics/catalog";
import { buildCategorySeries, buildNumericSeries, warmupFrom, type DayValue } from "@/lib/metrics/series";
import { getMetricValues } from "@/lib/db/queries/metrics";
import { addDays, diffDays } from "@/lib/metrics/days";

// GET /api/metrics/:metric?from&to – one metric's series for charts, with rolling means,
// baseline band, anomaly flags and the comparison with the previous period of equal length
export const GET = withUser<{ metric: string }>(async ({ user, params, searchParams }) => {
  const { metric: id } = getMetricSeriesParamsSchema.parse(params);
  const { from, to } = parseQuery(searchParams, getMetricSeriesQuerySchema);
  const metric = getMetric(id)!;
  if (metric.kind === "category") {
    const start = addDays(from, -(diffDays(from, to) + 1));
    const rows = getMetricValues({ userId: user.id, metric, from: start, to }) as DayValue<string | null>[];
    return Response.json(buildCategorySeries(metric, rows, from, to));
  }
  const rows = getMetricValues({ userId: user.id, metric, from: warmupFrom(from, to), to }) as DayValue<number | null>[];
  return Response.json(buildNumericSeries(metric, rows, from, to));
});
