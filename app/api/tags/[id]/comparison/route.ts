import { withUser, parseQuery } from "@/lib/api/handler";
import { resolveDayRange, tagComparisonQuerySchema, tagRefParamsSchema } from "@/lib/api/schemas";
import { getMetric } from "@/lib/metrics/catalog";
import { getTagDays } from "@/lib/services/tags";
import { compareTagDays, getMetricsOverview } from "@/lib/services/metrics";

// GET /api/tags/:id/comparison?metric&lag&from&to – a metric on days with the tag (one of the
// person's own, or of the ring's app: "ring:<code>") against days without it (lag 1: the day
// after each day), with n and the difference
export const GET = withUser<{ id: string }>(async ({ user, params, searchParams }) => {
  const { id } = tagRefParamsSchema.parse(params);
  const query = parseQuery(searchParams, tagComparisonQuerySchema);
  const { tag, days } = await getTagDays({ userId: user.id, id });
  const metric = getMetric(query.metric);
  // A missing end: the person's first/last day with data, within the range cap either way.
  const overview = getMetricsOverview(user.id);
  const hasDefaults = overview.firstDay !== null && overview.lastDay !== null;
  if (!(query.from && query.to) && !hasDefaults) {
    return Response.json({ tag, metric: metric.id, lag: query.lag, from: query.from ?? null, to: query.to ?? null, comparison: null });
  }
  const { from, to } = resolveDayRange(query, { from: overview.firstDay ?? query.from!, to: overview.lastDay ?? query.to! });
  const comparison = compareTagDays({ userId: user.id, metric, lag: query.lag, from, to, taggedDays: days });
  return Response.json({ tag, metric: metric.id, lag: query.lag, from, to, comparison });
});
