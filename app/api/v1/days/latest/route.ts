import { parseQuery } from "@/lib/api/handler";
import { READ_ONLY, withTokenData } from "@/lib/api/v1/handler";
import { getTodayQuerySchema } from "@/lib/schemas/requests";
import { json, type TodayResponse } from "@/lib/api/contract";
import { readToday } from "@/lib/api/v1/read";

// GET /api/v1/days/latest?day – the newest day of each collection against the 7 days before it
// and its 90-day baseline (as of `day` when given): the Today page
export const GET = withTokenData(async ({ token, searchParams }) => {
  const { day } = parseQuery(searchParams, getTodayQuerySchema);
  return json<TodayResponse>(await readToday(token, day));
});
export const { POST, PUT, PATCH, DELETE } = READ_ONLY;
