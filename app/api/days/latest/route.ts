import { withUser, parseQuery } from "@/lib/api/handler";
import { getTodayQuerySchema } from "@/lib/api/schemas";
import { getMetric, type MetricDef } from "@/lib/metrics/catalog";
import { buildTodaySummary, todayWindowStart, TODAY_CATEGORIES, TODAY_METRICS } from "@/lib/metrics/today";
import { getDataRanges, getLatestDays, getManyMetricValues, getPersonalAge } from "@/lib/db/queries/metrics";

const METRICS = [...TODAY_METRICS, ...TODAY_CATEGORIES].map((id) => getMetric(id) as MetricDef);

// GET /api/days/latest?day – the Today page: the newest day of each collection against the
// 7 days before it and its 90-day baseline (optionally as of an earlier day)
export const GET = withUser(async ({ user, searchParams }) => {
  const { day: asOf } = parseQuery(searchParams, getTodayQuerySchema);
  const latestDay = getLatestDays(user.id, asOf);
  let day: string | null = null;
  for (const d of Object.values(latestDay)) if (d && (!day || d > day)) day = d;
  const rows = day
    ? Object.fromEntries(getManyMetricValues({ userId: user.id, metrics: METRICS, from: todayWindowStart(day), to: day }))
    : {};
  const summary = buildTodaySummary({ day, latestDay, rows, age: getPersonalAge(user.id) });
  return Response.json({ ...summary, ranges: getDataRanges(user.id) });
});
