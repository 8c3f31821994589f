import { withUserData } from "@/lib/api/handler";
import { getMetricsOverview } from "@/lib/services/metrics";

// GET /api/metrics – which days each collection covers (pickers, "all" ranges, calendar years)
export const GET = withUserData(async ({ user }) => Response.json(await getMetricsOverview(user.id)));
