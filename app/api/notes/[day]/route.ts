import { withUser, parseJsonBody, withUserData } from "@/lib/api/handler";
import { getDayParamsSchema, putDayNoteBodySchema } from "@/lib/schemas/requests";
import { setDayNote } from "@/lib/db/queries/notes";
import { getNote } from "@/lib/services/tags";

// GET /api/notes/:day – one day's note and tags
export const GET = withUserData<{ day: string }>(async ({ user, params }) => {
  const { day } = getDayParamsSchema.parse(params);
  return Response.json(await getNote({ userId: user.id, day }));
});

// PUT /api/notes/:day – sets the day's note text and exactly these tags (created when new)
export const PUT = withUser<{ day: string }>(async ({ user, params, req }) => {
  const { day } = getDayParamsSchema.parse(params);
  const body = await parseJsonBody(req, putDayNoteBodySchema);
  await setDayNote({ userId: user.id, day, text: body.text, tags: body.tags });
  return Response.json(await getNote({ userId: user.id, day }));
});

// DELETE /api/notes/:day – clears the day's note and tags
export const DELETE = withUser<{ day: string }>(async ({ user, params }) => {
  const { day } = getDayParamsSchema.parse(params);
  await setDayNote({ userId: user.id, day, text: "", tags: [] });
  return new Response(null, { status: 204 });
});
