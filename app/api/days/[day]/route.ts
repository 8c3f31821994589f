import { withUser } from "@/lib/api/handler";
import { getDayParamsSchema } from "@/lib/api/schemas";
import { buildDayDetail } from "@/lib/metrics/day-detail";
import { getDayDocuments, getNeighbourDays } from "@/lib/db/queries/metrics";
import { getDayNote } from "@/lib/db/queries/notes";

// GET /api/days/:day – every document of one day, its sleep periods with hypnogram and
// heart-rate/HRV curves, the activity class timeline, and the person's note and tags
export const GET = withUser<{ day: string }>(async ({ user, params }) => {
  const { day } = getDayParamsSchema.parse(params);
  const docs = getDayDocuments(user.id, day);
  const { previous, next } = getNeighbourDays(user.id, day);
  const detail = buildDayDetail({ day, daily: docs.daily, periods: docs.periods, previous, next });
  const note = await getDayNote({ userId: user.id, day });
  return Response.json({ ...detail, note });
});
