import { withUser, parseJsonBody } from "@/lib/api/handler";
import { tagIdParamsSchema, updateTagBodySchema } from "@/lib/api/schemas";
import { deleteTag, updateTag } from "@/lib/services/tags";

// PATCH /api/tags/:id – renames or recolours a tag
export const PATCH = withUser<{ id: string }>(async ({ user, params, req }) => {
  const { id } = tagIdParamsSchema.parse(params);
  const body = await parseJsonBody(req, updateTagBodySchema);
  return Response.json(await updateTag({ userId: user.id, id, ...body }));
});

// DELETE /api/tags/:id – deletes a tag and removes it from every day
export const DELETE = withUser<{ id: string }>(async ({ user, params }) => {
  const { id } = tagIdParamsSchema.parse(params);
  await deleteTag({ userId: user.id, id });
  return new Response(null, { status: 204 });
});
