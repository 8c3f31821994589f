import { withUser, parseJsonBody, withUserData } from "@/lib/api/handler";
import { createTagBodySchema } from "@/lib/schemas/requests";
import { listTags } from "@/lib/db/queries/notes";
import { createTag, listRingTags } from "@/lib/services/tags";

// GET /api/tags – every tag with the number of days it is on: the person's own, and the ring
// app's (read-only, "from the ring")
export const GET = withUserData(async ({ user }) => Response.json({ tags: await listTags(user.id), ringTags: await listRingTags(user.id) }));

// POST /api/tags – creates a tag (409 when the name exists)
export const POST = withUser(async ({ user, req }) => {
  const body = await parseJsonBody(req, createTagBodySchema);
  return Response.json(await createTag({ userId: user.id, name: body.name, color: body.color }), { status: 201 });
});
