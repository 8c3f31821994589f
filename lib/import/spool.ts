import "server-only";
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import busboy from "busboy";
import { env } from "@/lib/env.mjs";
import { AppError } from "@/lib/http/errors";
import { DRAIN_MAX_MS } from "@/lib/http/body";
import { ImportRefusal } from "@/lib/import/refusal";
import { ImportStopped } from "@/lib/import/budget";

// An upload is spooled to a private folder of the data directory before anything is read from
// it (a ZIP is read by its central directory, at the end of the file; every file is read twice,
// once to check it, once to store it). Spooling refuses to fill the disk: it stops with 507
// once the free space would fall below IMPORT_MIN_FREE_DISK_MB, checked before it starts and
// every few megabytes as it writes. An upload has a deadline to arrive whole and stops at once
// when its connection closes (arriving), so a slow or stalled one holds nothing for long.

/** How often (bytes written) the free space is looked at again. */
const DISK_CHECK_EVERY = 8 * 1024 * 1024;
/** Files in one multipart upload. */
export const MAX_UPLOAD_FILES = 64;

export type SpoolOptions = {
  /** the free bytes of the disk holding `dir` (default: statfs) */
  freeBytes?: (dir: string) => Promise<number>;
  /** the margin to keep (default IMPORT_MIN_FREE_DISK_MB) */
  minFreeBytes?: number;
};

export async function diskFreeBytes(dir: string): Promise<number> {
  const s = await fs.promises.statfs(dir);
  return Number(s.bavail) * Number(s.bsize);
}

function diskGuard(dir: string, opts: SpoolOptions) {
  const free = opts.freeBytes ?? diskFreeBytes;
  const margin = opts.minFreeBytes ?? env.IMPORT_MIN_FREE_DISK_MB * 1024 * 1024;
  let sinceCheck = Number.POSITIVE_INFINITY;
  return async (adding: number) => {
    sinceCheck += adding;
    if (sinceCheck < DISK_CHECK_EVERY) return;
    sinceCheck = 0;
    const left = await free(dir);
    if (left - adding < margin)
      throw new AppError(
        "insufficient_storage",
        `The server's disk is almost full (${Math.max(0, Math.floor(left / 1024 / 1024))} MB free; ` +
          `imports keep ${Math.round(margin / 1024 / 1024)} MB free): the import is refused and nothing was stored.`,
      );
  };
}

/**
 * Writes a byte stream to `file` (new, private), keeping the disk margin; `inspect` sees each
 * chunk first (a check that refuses early throws). Returns its size.
 */
export async function spoolStream(
  source: AsyncIterable<Uint8Array>,
  file: string,
  opts: SpoolOptions = {},
  inspect?: (chunk: Uint8Array) => Promise<void>,
): Promise<number> {
  const guard = diskGuard(path.dirname(file), opts);
  await guard(0);
  const out = await fs.promises.open(file, "wx", 0o600);
  let size = 0;
  try {
    for await (const chunk of source) {
      if (inspect) await inspect(chunk);
      await guard(chunk.byteLength);
      await out.write(chunk);
      size += chunk.byteLength;
    }
  } finally {
    await out.close();
  }
  return size;
}

export type SpooledFile = { name: string; path: string; size: number };

/** A file name as shown: its base name, printable, at most 200 characters (never used as a path). */
export function displayName(name: string | undefined, fallback: string): string {
  const base = (name ?? "").split(/[\\/]/).pop() ?? "";
  const clean = base
    .replace(/[\u0000-\u001f\u007f]/g, "")
    .trim()
    .slice(0, 200);
  return clean || fallback;
}

/**
 * Spools every file part of a multipart/form-data body (`source`: its bytes, already capped)
 * into `dir` as part-1, part-2, …; other fields are ignored. Throws ImportRefusal when it is
 * not a multipart body or holds no file or too many.
 */
export async function spoolMultipart(source: AsyncIterable<Uint8Array>, contentType: string, dir: string, opts: SpoolOptions = {}): Promise<SpooledFile[]> {
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": contentType },
      limits: { files: MAX_UPLOAD_FILES, fields: 16, parts: MAX_UPLOAD_FILES + 16, fieldSize: 1024 },
    });
  } catch {
    throw new ImportRefusal("The upload is not a valid multipart/form-data body.");
  }
  const guard = diskGuard(dir, opts);
  await guard(0);
  const files: SpooledFile[] = [];
  const writes: Array<Promise<void>> = [];
  let failure: unknown = null;
  const done = new Promise<void>((resolve, reject) => {
    parser.on("file", (_field, stream, info) => {
      const n = files.length + 1;
      const file: SpooledFile = { name: displayName(info.filename, `file ${n}`), path: path.join(dir, `part-${n}`), size: 0 };
      files.push(file);
      writes.push(
        (async () => {
          const out = await fs.promises.open(/* turbopackIgnore: true */ file.path, "wx", 0o600);
          try {
            for await (const chunk of stream as AsyncIterable<Buffer>) {
              await guard(chunk.length);
              await out.write(chunk);
              file.size += chunk.length;
            }
          } catch (err) {
            failure ??= err;
            stream.resume();
          } finally {
            await out.close();
          }
        })(),
      );
    });
    parser.on("filesLimit", () => (failure ??= new ImportRefusal(`The upload holds more than ${MAX_UPLOAD_FILES} files.`)));
    parser.on("error", (err) => reject(err instanceof Error ? new ImportRefusal(`The upload is not a valid multipart/form-data body (${err.message}).`) : err));
    parser.on("close", () => resolve());
  });
  const input = Readable.from(source);
  input.on("error", (err) => {
    failure ??= err;
    parser.destroy(err);
  });
  input.pipe(parser);
  try {
    await done;
  } catch (err) {
    throw failure ?? err;
  } finally {
    await Promise.allSettled(writes);
  }
  if (failure) throw failure;
  if (files.length === 0) throw new ImportRefusal("The upload holds no file.");
  return files;
}

/** The time an upload has to arrive whole: 256 MB at about 1.5 Mbit/s; a slower or stalled one is refused (408), nothing stored. */
export const IMPORT_UPLOAD_DEADLINE_MS = 30 * 60_000;

/**
 * The upload's bytes as they arrive, until it ends, its deadline passes (AppError 408) or the
 * import is stopped (its connection closed: ImportStopped), whichever comes first: a stalled
 * upload does not hold its spool, its lease or its request until the server's own timeout.
 */
export async function* arriving(body: AsyncIterable<Uint8Array>, stop: AbortSignal, deadline: AbortSignal): AsyncGenerator<Uint8Array> {
  const it = body[Symbol.asyncIterator]();
  let onStop = () => {};
  const stopped = new Promise<never>((_, reject) => {
    onStop = () =>
      reject(
        stop.aborted
          ? new ImportStopped("aborted")
          : new AppError(
              "request_timeout",
              `The upload took too long: it must arrive within ${IMPORT_UPLOAD_DEADLINE_MS / 60_000} minutes. Nothing was stored.`,
            ),
      );
    stop.addEventListener("abort", onStop, { once: true });
    deadline.addEventListener("abort", onStop, { once: true });
  });
  stopped.catch(() => undefined);
  if (stop.aborted || deadline.aborted) onStop();
  let ended = false;
  try {
    for (;;) {
      const r = await Promise.race([it.next(), stopped]);
      if (r.done) {
        ended = true;
        return;
      }
      yield r.value;
    }
  } finally {
    stop.removeEventListener("abort", onStop);
    deadline.removeEventListener("abort", onStop);
    // A body left part-way is let go: its reader drops the rest the bounded way (lib/http/body.ts)
    // before the refusal goes out, so a client still sending reads the answer rather than a
    // reset connection. Awaited at most a little longer than that drain: a stalled body may
    // never answer.
    if (!ended) await settlesWithin(Promise.resolve(it.return?.()), DRAIN_MAX_MS + 1_000);
  }
}

/** Waits for `promise` to settle, or `ms` to pass, whichever comes first; never throws. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const passed = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
    timer.unref?.();
  });
  try {
    await Promise.race([
      promise.then(
        () => undefined,
        () => undefined,
      ),
      passed,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
