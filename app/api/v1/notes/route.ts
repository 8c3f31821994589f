import { parseQuery } from "@/lib/api/handler";
import { READ_ONLY, withTokenData } from "@/lib/api/v1/handler";
import { listNotesQuerySchema } from "@/lib/schemas/requests";
import { json, type NotesResponse } from "@/lib/api/contract";
import { readNotes } from "@/lib/api/v1/read";

// GET /api/v1/notes?from&to – the person's note and tags of each day in the range
export const GET = withTokenData(async ({ token, searchParams }) => {
  const { from, to } = parseQuery(searchParams, listNotesQuerySchema);
  return json<NotesResponse>(await readNotes(token, { from, to }));
});
export const { POST, PUT, PATCH, DELETE } = READ_ONLY;
