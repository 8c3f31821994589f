import { withUser, parseQuery } from "@/lib/api/handler";
import { AppError } from "@/lib/api/errors";
import { getCalendarQuerySchema } from "@/lib/api/schemas";
import { getMetric } from "@/lib/metrics/catalog";
import { classifyCalendarDays, heatLevel, heatThresholds } from "@/lib/metrics/calendar";
import { dayRange } from "@/lib/metrics/days";
import { toDense, type DayValue } from "@/lib/metrics/series";
import {
  getDailyColumn,
  getDaysWithDocuments,
  getMetricValues,
  getNewestDocumentDay,
  getNewestSyncedDay,
  getOldestDocumentDay,
} from "@/lib/db/queries/metrics";

// GET /api/days?metric&from&to – the calendar: each day's value and state (value, not worn,
// missing, not yet synced) with a heat level, for one numeric metric
export const GET = withUser(async ({ user, searchParams }) => {
  const { metric: id, from, to } = parseQuery(searchParams, getCalendarQuerySchema);
  const metric = getMetric(id);
  if (metric.kind === "category") throw new AppError("unprocessable_entity", "The calendar shows numeric metrics.");
  const values = toDense(getMetricValues({ userId: user.id, metric, from, to }) as DayValue<number | null>[], from, to);
  const withDocs = getDaysWithDocuments({ userId: user.id, from, to });
  const nonWear = toDense(
    getDailyColumn({ userId: user.id, collection: "daily_activity", column: "non_wear_time", from, to }) as DayValue<number | null>[],
    from,
    to,
  );
  const days = classifyCalendarDays({
    from,
    to,
    values,
    hasAnyDocument: dayRange(from, to).map((d) => withDocs.has(d)),
    nonWearS: nonWear,
    newestDocumentDay: getNewestDocumentDay(user.id),
    oldestDocumentDay: getOldestDocumentDay(user.id),
    newestSyncedDay: getNewestSyncedDay(user.id),
  });
  const thresholds = heatThresholds(metric.kind, metric.unit, values);
  return Response.json({
    metric: id,
    from,
    to,
    thresholds,
    days: days.map((d) => ({
      ...d,
      level: d.value !== null && thresholds.length ? heatLevel(d.value, thresholds, metric.direction) : null,
    })),
  });
});
