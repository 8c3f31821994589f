import { parseQuery, withUserData } from "@/lib/api/handler";
import { listNotesQuerySchema } from "@/lib/schemas/requests";
import { listNotes } from "@/lib/services/tags";

// GET /api/notes?from&to – the person's notes and tags of each day in the range, with the tags
// entered in the ring's app (`ringTags`, read-only)
export const GET = withUserData(async ({ user, searchParams }) => {
  const { from, to } = parseQuery(searchParams, listNotesQuerySchema);
  return Response.json({ from, to, days: await listNotes({ userId: user.id, from, to }) });
});
