import { parseQuery, withUserData } from "@/lib/api/handler";
import { cycleQuerySchema } from "@/lib/schemas/cycle-query";
import { json } from "@/lib/api/contract";
import type { CycleResponse } from "@/lib/api/contract-cycle";
import { getCycle } from "@/lib/services/cycle";

// GET /api/cycle?from&to – the signed-in person's own cycle by day for the pages (the Calendar's
// and Trends' shading): status "off" and no days while their cycle tracking is off; conditional
export const GET = withUserData(async ({ user, searchParams }) => {
  const { from, to } = parseQuery(searchParams, cycleQuerySchema);
  return json<CycleResponse>(await getCycle({ userId: user.id, from, to }));
});
