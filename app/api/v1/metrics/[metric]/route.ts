import { parseQuery } from "@/lib/api/handler";
import { READ_ONLY, withTokenData } from "@/lib/api/v1/handler";
import { getMetricSeriesParamsSchema, getMetricSeriesQuerySchema } from "@/lib/schemas/requests";
import { json, type SeriesResponse } from "@/lib/api/contract";
import { readSeries } from "@/lib/api/v1/read";

// GET /api/v1/metrics/:metric?from&to – one metric's daily values with 7- and 30-day rolling
// means, the 90-day baseline band, anomaly flags and the comparison with the previous period
export const GET = withTokenData<{ metric: string }>(async ({ token, params, searchParams }) => {
  const { metric } = getMetricSeriesParamsSchema.parse(params);
  const { from, to } = parseQuery(searchParams, getMetricSeriesQuerySchema);
  return json<SeriesResponse>(await readSeries(token, metric, { from, to }));
});
export const { POST, PUT, PATCH, DELETE } = READ_ONLY;
