import { parseQuery, withUserData } from "@/lib/api/handler";
import { getCorrelationQuerySchema } from "@/lib/schemas/requests";
import { getMetric } from "@/lib/metrics/catalog";
import { getCorrelationColumns } from "@/lib/services/metrics";
import { json, type CorrelationColumns } from "@/lib/api/contract";

// GET /api/correlations?x&y&lag&from&to – scatter points of x on a day against y on the same
// day (lag 0) or the next (lag 1), with Pearson's r, n and the least-squares line; the points
// as columns (lib/metrics/columns.ts); conditional (ETag, 304)
export const GET = withUserData(async ({ user, searchParams }) => {
  const { x, y, lag, from, to } = parseQuery(searchParams, getCorrelationQuerySchema);
  return json<CorrelationColumns>(await getCorrelationColumns({ userId: user.id, x: getMetric(x), y: getMetric(y), lag, from, to }));
});
