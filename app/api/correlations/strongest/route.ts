import { parseQuery, withUserData } from "@/lib/api/handler";
import { getStrongestQuerySchema } from "@/lib/schemas/requests";
import { getStrongestCorrelations } from "@/lib/services/metrics";

// GET /api/correlations/strongest?from&to&limit – the strongest relationships between the
// headline metrics (lag 0 and 1), ranked by |r|
export const GET = withUserData(async ({ user, searchParams }) => {
  const { from, to, limit } = parseQuery(searchParams, getStrongestQuerySchema);
  return Response.json(await getStrongestCorrelations({ userId: user.id, from, to, limit }));
});
