import { parseQuery } from "@/lib/api/handler";
import { READ_ONLY, withTokenData } from "@/lib/api/v1/handler";
import { cycleQuerySchema } from "@/lib/schemas/cycle-query";
import { json } from "@/lib/api/contract";
import type { ApiCycleResponse } from "@/lib/api/contract-cycle";
import { readCycle } from "@/lib/api/v1/read";

// GET /api/v1/cycle?from&to – the token owner's cycle, one row per day (cycle day, phase,
// ovulation, next period window), with the cycles, the prediction and the logged entries; needs
// the data kind `cycle` (403 without); no rows while the person's cycle tracking is off
export const GET = withTokenData(async ({ token, searchParams }) => {
  const range = parseQuery(searchParams, cycleQuerySchema);
  return json<ApiCycleResponse>(await readCycle(token, range));
});
export const { POST, PUT, PATCH, DELETE } = READ_ONLY;
