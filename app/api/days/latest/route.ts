import { parseQuery, withUserData } from "@/lib/api/handler";
import { getTodayQuerySchema } from "@/lib/schemas/requests";
import { getTodaySummary } from "@/lib/services/metrics";

// GET /api/days/latest?day – the Today page: the newest day of each collection against the
// 7 days before it and its 90-day baseline (optionally as of an earlier day)
export const GET = withUserData(async ({ user, searchParams }) => {
  const { day } = parseQuery(searchParams, getTodayQuerySchema);
  return Response.json(await getTodaySummary(user.id, day));
});
