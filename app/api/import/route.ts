import { withUser, parseJsonBody } from "@/lib/api/handler";
import { importRingsideExport, ringsideExportSchema } from "@/lib/sync/import";
import { logger } from "@/lib/log";

export const dynamic = "force-dynamic";

const MAX_BYTES = 256 * 1024 * 1024;

// POST /api/import – imports a "ringside-export-v1" JSON file (from GET /api/export?collection=all&format=json
// on this or another instance) into the signed-in person's data; idempotent
export const POST = withUser(async ({ user, req }) => {
  const data = await parseJsonBody(req, ringsideExportSchema, MAX_BYTES);
  const result = await importRingsideExport(user.id, data);
  const total = Object.values(result.documents).reduce((a, b) => a + b, 0);
  logger.info({ userId: user.id, documents: total, rejected: result.rejected, notes: result.notes }, "export imported");
  return Response.json(result);
});
