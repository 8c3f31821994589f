import "server-only";
import path from "node:path";
import { AppError } from "@/lib/http/errors";
import { RingsideChecker, type RingsideChecked } from "@/lib/import/ringside";
import { displayName, spoolMultipart, spoolStream, type SpoolOptions } from "@/lib/import/spool";
import { sniffFile } from "@/lib/import/vendor";

// What an import is given, and how it lands on disk: one file as the body (JSON, a ZIP or a CSV,
// told apart by content) or a multipart body of several, spooled to the import's private folder
// (lib/import/spool.ts) before anything else reads it. A Ringside export is checked as it arrives.

export type ImportUpload =
  /** one file as the body: JSON, a ZIP or a CSV (told apart by content); `name` as the client gave it */
  | {
      type: "file";
      name: string | null;
      body: AsyncIterable<Uint8Array>;
      /** declared application/json: read as Ringside's export whatever it holds (not JSON → 400) */ json?: boolean;
    }
  /** a multipart/form-data body with one or more files */
  | { type: "multipart"; contentType: string; body: AsyncIterable<Uint8Array> };

export type Source = { name: string; path: string; kind: "zip" | "csv" | "json" };

/** Whether the first bytes of an upload are JSON (an object or array, after a BOM and blanks). */
function startsAsJson(chunk: Uint8Array): boolean | null {
  const text = Buffer.from(chunk.subarray(0, 64))
    .toString("utf8")
    .replace(/^\ufeff/, "")
    .trimStart();
  return text === "" ? null : text.startsWith("{") || text.startsWith("[");
}

/**
 * Spools the upload. A single JSON file (Ringside's export) is checked as it arrives, so a file
 * over a limit is refused after reading only a little of it; its check is returned.
 */
export async function spoolUpload(
  upload: ImportUpload,
  dir: string,
  opts: SpoolOptions | undefined,
  progress: (rows: number) => Promise<void>,
): Promise<{ sources: Source[]; ringside: RingsideChecked | null; bytes: number }> {
  if (upload.type === "multipart") {
    const files = await spoolMultipart(upload.body, upload.contentType, dir, opts);
    return {
      sources: await Promise.all(files.map(async (f) => ({ name: f.name, path: f.path, kind: await sniffFile(f.path) }))),
      ringside: null,
      bytes: files.reduce((n, f) => n + f.size, 0),
    };
  }
  const file = path.join(dir, "upload");
  let checker: RingsideChecker | null | undefined;
  const inspect = async (chunk: Uint8Array) => {
    if (checker === undefined) {
      const json = upload.json || startsAsJson(chunk);
      if (json === null) return;
      checker = json ? new RingsideChecker(progress) : null;
    }
    if (checker) await checker.write(chunk);
  };
  const bytes = await spoolStream(upload.body, file, opts, inspect);
  if (bytes === 0) throw new AppError("bad_request", "The upload is empty.");
  const ringside = checker ? await checker.end() : null;
  return { sources: [{ name: displayName(upload.name ?? undefined, "upload"), path: file, kind: ringside ? "json" : await sniffFile(file) }], ringside, bytes };
}
