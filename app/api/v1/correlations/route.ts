import { parseQuery } from "@/lib/api/handler";
import { READ_ONLY, withTokenData } from "@/lib/api/v1/handler";
import { getCorrelationQuerySchema } from "@/lib/schemas/requests";
import { json, type CorrelationResponse } from "@/lib/api/contract";
import { readCorrelation } from "@/lib/api/v1/read";

// GET /api/v1/correlations?x&y&lag&from&to – x on a day against y on the same day (lag 0) or
// the next (lag 1): the points, Pearson's r, n and the least-squares line
export const GET = withTokenData(async ({ token, searchParams }) => {
  const { x, y, lag, from, to } = parseQuery(searchParams, getCorrelationQuerySchema);
  return json<CorrelationResponse>(await readCorrelation(token, { x, y, lag, from, to }));
});
export const { POST, PUT, PATCH, DELETE } = READ_ONLY;
