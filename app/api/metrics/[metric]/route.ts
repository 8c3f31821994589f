import { parseQuery, withUserData } from "@/lib/api/handler";
import { getMetricSeriesParamsSchema, getMetricSeriesQuerySchema } from "@/lib/api/schemas";
import { getMetric } from "@/lib/metrics/catalog";
import { getMetricSeries } from "@/lib/services/metrics";

// GET /api/metrics/:metric?from&to – one metric's series for charts, with rolling means,
// baseline band, anomaly flags and the comparison with the previous period of equal length
export const GET = withUserData<{ metric: string }>(async ({ user, params, searchParams }) => {
  const { metric: id } = getMetricSeriesParamsSchema.parse(params);
  const { from, to } = parseQuery(searchParams, getMetricSeriesQuerySchema);
  return Response.json(getMetricSeries({ userId: user.id, metric: getMetric(id), from, to }));
});
