import { parseQuery, withUserData } from "@/lib/api/handler";
import { signalsQuerySchema } from "@/lib/schemas/requests";
import { json, type SignalsResponse } from "@/lib/api/contract";
import { getSignals } from "@/lib/services/signals";

// GET /api/signals?from&to – the explained signals by day for the pages (Today's cards, the
// training load on Workouts): the same answer as GET /api/v1/signals with every kind; conditional
export const GET = withUserData(async ({ user, searchParams }) => {
  const { from, to } = parseQuery(searchParams, signalsQuerySchema);
  return json<SignalsResponse>(await getSignals({ userId: user.id, from, to }));
});
