import { parseQuery, withUserData } from "@/lib/api/handler";
import { tagComparisonQuerySchema, tagRefParamsSchema } from "@/lib/schemas/requests";
import { getMetric } from "@/lib/metrics/catalog";
import { getTagComparison } from "@/lib/services/tags";

// GET /api/tags/:id/comparison?metric&lag&from&to – a metric on days with the tag (one of the
// person's own, or of the ring's app: "ring:<code>") against days without it (lag 1: the day
// after each day), with n and the difference
export const GET = withUserData<{ id: string }>(async ({ user, params, searchParams }) => {
  const { id } = tagRefParamsSchema.parse(params);
  const query = parseQuery(searchParams, tagComparisonQuerySchema);
  return Response.json(await getTagComparison({ userId: user.id, id, metric: getMetric(query.metric), lag: query.lag, from: query.from, to: query.to }));
});
