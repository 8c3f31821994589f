import { withUser } from "@/lib/api/handler";
import { getDayParamsSchema } from "@/lib/api/schemas";
import { getDayNote } from "@/lib/db/queries/notes";
import { getDayDetail } from "@/lib/services/metrics";

// GET /api/days/:day – every document of one day, its sleep periods with hypnogram and
// heart-rate/HRV curves, the activity class timeline, and the person's note and tags
export const GET = withUser<{ day: string }>(async ({ user, params }) => {
  const { day } = getDayParamsSchema.parse(params);
  const note = await getDayNote({ userId: user.id, day });
  return Response.json({ ...getDayDetail(user.id, day), note });
});
