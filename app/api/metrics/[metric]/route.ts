import { parseQuery, withUserData } from "@/lib/api/handler";
import { getMetricSeriesParamsSchema, getMetricSeriesQuerySchema } from "@/lib/schemas/requests";
import { getMetric } from "@/lib/metrics/catalog";
import { getSeriesColumns } from "@/lib/services/metrics";
import { json, type SeriesColumns } from "@/lib/api/contract";

// GET /api/metrics/:metric?from&to – one metric's series for charts, with rolling means,
// baseline band, anomaly flags and the comparison with the previous period of equal length,
// as columns (lib/metrics/columns.ts); conditional (ETag, 304)
export const GET = withUserData<{ metric: string }>(async ({ user, params, searchParams }) => {
  const { metric: id } = getMetricSeriesParamsSchema.parse(params);
  const { from, to } = parseQuery(searchParams, getMetricSeriesQuerySchema);
  return json<SeriesColumns>(await getSeriesColumns({ userId: user.id, metric: getMetric(id), from, to }));
});
