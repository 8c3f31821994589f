import { withUser, parseJsonBody } from "@/lib/api/handler";
import { deleteDataBodySchema } from "@/lib/schemas/requests";
import { deleteAllMyData } from "@/lib/services/people";
import { logger } from "@/lib/log";
import { json, type DeleteDataResponse } from "@/lib/api/contract";

// DELETE /api/data – deletes every ring document, note and tag of the signed-in person
// (body {"confirm":"DELETE"}); the sign-in and the ring connection stay
export const DELETE = withUser(async ({ user, req }) => {
  await parseJsonBody(req, deleteDataBodySchema);
  const deleted = await deleteAllMyData(user.id);
  logger.info({ userId: user.id, tables: Object.keys(deleted).length }, "user data deleted");
  return json<DeleteDataResponse>({ deleted });
});
