import { parseQuery } from "@/lib/api/handler";
import { READ_ONLY, withTokenData } from "@/lib/api/v1/handler";
import { getCalendarQuerySchema } from "@/lib/schemas/requests";
import { json, type CalendarResponse } from "@/lib/api/contract";
import { readCalendar } from "@/lib/api/v1/read";

// GET /api/v1/calendar?metric&from&to – each day's value and state (value, not worn, missing,
// not yet synced) with a heat level, for one numeric metric
export const GET = withTokenData(async ({ token, searchParams }) => {
  const { metric, from, to } = parseQuery(searchParams, getCalendarQuerySchema);
  return json<CalendarResponse>(await readCalendar(token, metric, { from, to }));
});
export const { POST, PUT, PATCH, DELETE } = READ_ONLY;
