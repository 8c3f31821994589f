import { withUser, parseJsonBody } from "@/lib/api/handler";
import { deleteDataBodySchema } from "@/lib/api/schemas";
import { deleteAllMyData } from "@/lib/db/queries/user-data";
import { logger } from "@/lib/log";

// DELETE /api/data – deletes every ring document, note and tag of the signed-in person
// (body {"confirm":"DELETE"}); the sign-in and the ring connection stay
export const DELETE = withUser(async ({ user, req }) => {
  await parseJsonBody(req, deleteDataBodySchema);
  const deleted = await deleteAllMyData(user.id);
  logger.info({ userId: user.id, tables: Object.keys(deleted).length }, "user data deleted");
  return Response.json({ deleted });
});
