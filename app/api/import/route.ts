import { withUser } from "@/lib/api/handler";
import { requireJsonMediaType, streamBody } from "@/lib/api/body";
import { importRingsideExport, MAX_IMPORT_BYTES } from "@/lib/sync/import";
import { logger } from "@/lib/log";

export const dynamic = "force-dynamic";

// POST /api/import – imports a "ringside-export-v1" JSON file (from GET /api/export?collection=all&format=json
// on this or another instance) into the signed-in person's data; idempotent. Read as a stream
// and checked piece by piece (413 over a limit, 422 not an export, 400 not JSON): nothing is
// stored unless the whole file passes.
export const POST = withUser(async ({ user, req }) => {
  requireJsonMediaType(req);
  const body = streamBody(req, { maxBytes: MAX_IMPORT_BYTES, tooLargeMessage: `The file is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB.` });
  const result = await importRingsideExport(user.id, body);
  const total = Object.values(result.documents).reduce((a, b) => a + b, 0);
  logger.info({ userId: user.id, documents: total, rejected: result.rejected, notes: result.notes }, "export imported");
  return Response.json(result);
});
