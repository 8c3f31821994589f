import { z } from "zod";
import { AppError, errorBody } from "@/lib/http/errors";
import { parseQuery, withUser } from "@/lib/api/handler";
import { parseMediaType, streamBody } from "@/lib/http/body";
import { MAX_IMPORT_BYTES } from "@/lib/import/ringside";
import { resumeImport, runImport, type ImportUpload } from "@/lib/import/run";
import { discardImport, importStatus } from "@/lib/import/status";
import { logger } from "@/lib/log";
import { ImportStopped } from "@/lib/import/budget";
import { ImportBusy } from "@/lib/import/gate";

export const dynamic = "force-dynamic";

/** What the import reads as its body besides application/json: the account export, CSV files, several files at once. */
const FILE_TYPES = ["application/zip", "application/x-zip-compressed", "application/octet-stream", "text/csv", "multipart/form-data"] as const;

const flag = z.enum(["0", "1", "true", "false"]).transform((v) => v === "1" || v === "true");
const importQuerySchema = z.object({ dry_run: flag.optional(), replace_notes: flag.optional(), resume: flag.optional() });

// GET /api/import – the signed-in person's import: phase, file, rows, progress and ETA (the page polls it)
export const GET = withUser(async ({ user }) => Response.json(await importStatus(user.id)));

// POST /api/import – imports an upload into the signed-in person's data: Ringside's own export
// (JSON), the ring maker's account export (ZIP), one or more of its CSV files or a Trends CSV
// (several files: multipart/form-data), told apart by content. `?dry_run=1` stores nothing and
// answers what storing would do per collection, the conflicts and the files it does not map;
// `?replace_notes=1` replaces a note that differs instead of keeping it; `?resume=1` (no body)
// resumes an import that stopped part-way. A refused upload stores nothing (413, 422, 400);
// one import at a time per person (409) and per server (429 with Retry-After); 507 when the
// disk is too full to spool it. The import stops when the client goes away.
export const POST = withUser(
  async (args) => {
    try {
      return await importUpload(args);
    } catch (err) {
      if (err instanceof ImportBusy) return busy(err);
      const refusal = err instanceof ImportStopped ? new AppError(err.reason === "aborted" ? "bad_request" : "conflict", err.message) : err;
      // a refusal while the upload is still arriving closes the connection, which a client still
      // sending may see as a reset before it reads the answer: the log says what was answered
      if (refusal instanceof AppError) logger.info({ userId: args.user.id, status: refusal.status, code: refusal.code }, "import refused");
      throw refusal;
    }
  },
  { bodyTypes: FILE_TYPES },
);

/** 429 with Retry-After: another import is running on this server (the upload is not read: the connection is not reused). */
function busy(err: ImportBusy): Response {
  return Response.json(errorBody(err.code, err.message), {
    status: err.status,
    headers: { "retry-after": String(err.retryAfterS), "cache-control": "no-store", connection: "close" },
  });
}

async function importUpload({ user, req, searchParams }: { user: { id: string }; req: Request; searchParams: URLSearchParams }): Promise<Response> {
  const q = parseQuery(searchParams, importQuerySchema);
  if (q.resume) return Response.json(await resumeImport(user.id, { signal: req.signal }));
  const contentType = req.headers.get("content-type");
  const media = parseMediaType(contentType);
  if (!media) throw new AppError("unsupported_media_type", "Send a file: application/json, application/zip, text/csv or multipart/form-data.");
  const body = streamBody(req, { maxBytes: MAX_IMPORT_BYTES, tooLargeMessage: `The upload is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB.` });
  const name = req.headers.get("x-file-name");
  const upload: ImportUpload =
    media.type === "multipart/form-data"
      ? { type: "multipart", contentType: contentType!, body }
      : { type: "file", name: name ? safeDecode(name) : null, body, json: media.type === "application/json" };
  const result = await runImport(user.id, upload, { dryRun: q.dry_run ?? false, replaceNotes: q.replace_notes ?? false, signal: req.signal });
  const rows = Object.values(result.collections).reduce((n, c) => n + c.rows, 0);
  logger.info(
    { userId: user.id, kind: result.kind, dryRun: result.dryRun, rows, rejected: result.rejected, unmapped: result.unmapped.length },
    "import answered",
  );
  return Response.json(result);
}

// DELETE /api/import – discards an import that stopped part-way (what it stored stays)
export const DELETE = withUser(async ({ user }) => {
  await discardImport(user.id);
  return new Response(null, { status: 204 });
});

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
