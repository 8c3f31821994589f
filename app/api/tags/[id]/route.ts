import { withUser, parseJsonBody } from "@/lib/api/handler";
import { tagRefParamsSchema, updateTagBodySchema } from "@/lib/schemas/requests";
import { deleteTag, updateTag } from "@/lib/services/tags";

// PATCH /api/tags/:id – renames or recolours a tag (the ring app's tags are read-only: 403)
export const PATCH = withUser<{ id: string }>(async ({ user, params, req }) => {
  const { id } = tagRefParamsSchema.parse(params);
  const body = await parseJsonBody(req, updateTagBodySchema);
  return Response.json(await updateTag({ userId: user.id, id, ...body }));
});

// DELETE /api/tags/:id – deletes a tag and removes it from every day (not the ring app's: 403)
export const DELETE = withUser<{ id: string }>(async ({ user, params }) => {
  const { id } = tagRefParamsSchema.parse(params);
  await deleteTag({ userId: user.id, id });
  return new Response(null, { status: 204 });
});
