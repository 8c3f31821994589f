import { clock } from "@/lib/clock";
import { parseQuery, withUserData } from "@/lib/api/handler";
import { listWorkoutsQuerySchema, resolveDayRange } from "@/lib/schemas/requests";
import { json, type WorkoutsResponse } from "@/lib/api/contract";
import { getMetricsOverview } from "@/lib/services/metrics";
import { listWorkouts } from "@/lib/services/records";

// GET /api/workouts?from&to&activity&intensity – the workouts of a range (a missing end: the
// person's first/last day with data, within the range cap), newest first, filtered, with the
// weekly minutes and calories by activity and by intensity
export const GET = withUserData(async ({ user, searchParams }) => {
  const q = parseQuery(searchParams, listWorkoutsQuerySchema);
  const overview = await getMetricsOverview(user.id);
  const today = clock.date().toISOString().slice(0, 10);
  const { from, to } = resolveDayRange(q, { from: overview.firstDay ?? today, to: overview.lastDay ?? today });
  return json<WorkoutsResponse>(await listWorkouts({ userId: user.id, from, to, activity: q.activity, intensity: q.intensity }));
});
