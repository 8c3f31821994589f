import { parseQuery, withUserData } from "@/lib/api/handler";
import { AppError } from "@/lib/http/errors";
import { getCalendarQuerySchema } from "@/lib/schemas/requests";
import { getMetric } from "@/lib/metrics/catalog";
import { getCalendar } from "@/lib/services/metrics";

// GET /api/days?metric&from&to – the calendar: each day's value and state (value, not worn,
// missing, not yet synced) with a heat level, for one numeric metric
export const GET = withUserData(async ({ user, searchParams }) => {
  const { metric: id, from, to } = parseQuery(searchParams, getCalendarQuerySchema);
  const metric = getMetric(id);
  if (metric.kind === "category") throw new AppError("unprocessable_entity", "The calendar shows numeric metrics.");
  return Response.json(await getCalendar({ userId: user.id, metric, from, to }));
});
