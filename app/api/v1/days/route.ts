import { parseQuery } from "@/lib/api/handler";
import { READ_ONLY, withTokenData } from "@/lib/api/v1/handler";
import { listDaysQuerySchema } from "@/lib/schemas/requests";
import { json, type ApiDaysResponse } from "@/lib/api/contract";
import { readDays } from "@/lib/api/v1/read";

// GET /api/v1/days?metrics&from&to – several metrics as a table (one row per day with a value,
// one column per metric; default: the headline metrics), e.g. for a spreadsheet
export const GET = withTokenData(async ({ token, searchParams }) => {
  const { metrics, from, to } = parseQuery(searchParams, listDaysQuerySchema);
  return json<ApiDaysResponse>(await readDays(token, { metrics, from, to }));
});
export const { POST, PUT, PATCH, DELETE } = READ_ONLY;
