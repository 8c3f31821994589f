import { withUser, parseQuery } from "@/lib/api/handler";
import { listNotesQuerySchema } from "@/lib/api/schemas";
import { listDayNotes } from "@/lib/db/queries/notes";

// GET /api/notes?from&to – the person's notes and tags of each day in the range
export const GET = withUser(async ({ user, searchParams }) => {
  const { from, to } = parseQuery(searchParams, listNotesQuerySchema);
  return Response.json({ from, to, days: await listDayNotes({ userId: user.id, from, to }) });
});
