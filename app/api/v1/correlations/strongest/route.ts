import { parseQuery } from "@/lib/api/handler";
import { READ_ONLY, withTokenData } from "@/lib/api/v1/handler";
import { getStrongestQuerySchema } from "@/lib/schemas/requests";
import { json, type StrongestResponse } from "@/lib/api/contract";
import { readStrongest } from "@/lib/api/v1/read";

// GET /api/v1/correlations/strongest?from&to&limit – the strongest relationships between the
// headline metrics this token may read (lag 0 and 1), ranked by |r|
export const GET = withTokenData(async ({ token, searchParams }) => {
  const { from, to, limit } = parseQuery(searchParams, getStrongestQuerySchema);
  return json<StrongestResponse>(await readStrongest(token, { from, to, limit }));
});
export const { POST, PUT, PATCH, DELETE } = READ_ONLY;
