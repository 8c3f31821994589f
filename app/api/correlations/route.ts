import { parseQuery, withUserData } from "@/lib/api/handler";
import { getCorrelationQuerySchema } from "@/lib/api/schemas";
import { getMetric } from "@/lib/metrics/catalog";
import { getCorrelation } from "@/lib/services/metrics";

// GET /api/correlations?x&y&lag&from&to – scatter points of x on a day against y on the same
// day (lag 0) or the next (lag 1), with Pearson's r, n and the least-squares line
export const GET = withUserData(async ({ user, searchParams }) => {
  const { x, y, lag, from, to } = parseQuery(searchParams, getCorrelationQuerySchema);
  return Response.json(getCorrelation({ userId: user.id, x: getMetric(x), y: getMetric(y), lag, from, to }));
});
