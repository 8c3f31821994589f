import { withUserData } from "@/lib/api/handler";
import { getDayParamsSchema } from "@/lib/schemas/requests";
import { getDayDetail } from "@/lib/services/metrics";
import { getNote } from "@/lib/services/tags";

// GET /api/days/:day – every document of one day, its sleep periods with hypnogram and
// heart-rate/HRV curves, the activity class timeline, the ring's other records of the day (its
// heart rate, workouts, sessions, the ring app's tags, bedtime guidance, rest mode), and the
// person's note and tags
export const GET = withUserData<{ day: string }>(async ({ user, params }) => {
  const { day } = getDayParamsSchema.parse(params);
  const note = await getNote({ userId: user.id, day });
  return Response.json({ ...(await getDayDetail(user.id, day)), note });
});
