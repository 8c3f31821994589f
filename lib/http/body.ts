import "server-only";
import { clock } from "@/lib/clock";
import { AppError } from "@/lib/http/errors";

/**
 * Request bodies, read as streams with a cap. Every route that reads a body reads it here:
 * nothing beyond the route's cap is ever kept, whatever `content-length` says (or when there is
 * none: a chunked body). What is refused is not kept at all; the rest of it is read and dropped
 * up to a small bound, so a client that is still sending gets the 413 instead of a reset
 * connection, and beyond that bound reading stops.
 */

/**
 * How much of a refused body is read (and dropped) at most, counting what was read before: twice
 * the largest body a JSON client is expected to try (8 MB), so that one a few bytes over it is
 * still read to its end and its client reads the answer rather than a reset.
 */
export const DRAIN_MAX_BYTES = 16 * 1024 * 1024;

export type ReadBodyOptions = {
  /** the route's cap: more than this is refused with 413 */
  maxBytes: number;
  /** how much of a refused body to read and drop at most (default DRAIN_MAX_BYTES) */
  drainMaxBytes?: number;
  /** the refusal's message */
  tooLargeMessage?: string;
};

function tooLarge(opts: ReadBodyOptions): AppError {
  return new AppError("payload_too_large", opts.tooLargeMessage ?? `The body is larger than ${opts.maxBytes} bytes.`);
}

/** How long a refused body is drained at most before the answer goes out anyway. */
export const DRAIN_MAX_MS = 5_000;

/**
 * Reads and drops the rest of a body until `limit` bytes were read in all, the client stopped
 * sending, or DRAIN_MAX_MS passed; then cancels it without waiting for the cancellation (a
 * client that stalls, or a body stream whose cancel never settles, must not hold the answer).
 */
export async function drainBody(reader: ReadableStreamDefaultReader<Uint8Array>, alreadyRead: number, limit = DRAIN_MAX_BYTES): Promise<void> {
  let size = alreadyRead;
  const deadline = clock.now() + DRAIN_MAX_MS;
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<"expired">((resolve) => {
    timer = setTimeout(() => resolve("expired"), DRAIN_MAX_MS);
    timer.unref?.();
  });
  try {
    while (size < limit && clock.now() < deadline) {
      const r = await Promise.race([reader.read(), expired]);
      if (r === "expired" || r.done) break;
      size += r.value.byteLength;
    }
  } catch {
    /* the client went away: nothing left to drain */
  } finally {
    clearTimeout(timer);
    reader.cancel().catch(() => undefined);
  }
}

/** The declared length, or null when there is none (chunked) or it is not a number. */
function declaredLength(req: Request): number | null {
  const raw = req.headers.get("content-length");
  if (raw === null || !/^\s*\d+\s*$/.test(raw)) return null;
  return Number(raw);
}

/**
 * The body's chunks, in order, as they arrive; throws AppError(payload_too_large) as soon as
 * more than `maxBytes` arrived (or were declared), after draining. The caller may stop early:
 * `refuse(err)` then drains and rethrows, so its own refusal reaches the client the same way.
 */
export async function* streamBody(req: Request, opts: ReadBodyOptions): AsyncGenerator<Uint8Array, void, void> {
  const drainMax = opts.drainMaxBytes ?? DRAIN_MAX_BYTES;
  const declared = declaredLength(req);
  if (!req.body) return;
  const reader = req.body.getReader();
  if (declared !== null && declared > opts.maxBytes) {
    // Known to be too large: keep nothing, read only what the drain allows.
    await drainBody(reader, 0, declared <= drainMax ? drainMax : 0);
    throw tooLarge(opts);
  }
  let size = 0;
  let finished = false;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) {
        finished = true;
        return;
      }
      size += value.byteLength;
      if (size > opts.maxBytes) {
        await drainBody(reader, size, drainMax);
        finished = true;
        throw tooLarge(opts);
      }
      yield value;
    }
  } finally {
    // The consumer stopped early (its own refusal): drop the rest the same bounded way.
    if (!finished) await drainBody(reader, size, drainMax);
  }
}

/** The whole body (at most `maxBytes`) as one Buffer. */
export async function readBody(req: Request, opts: ReadBodyOptions): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of streamBody(req, opts)) chunks.push(chunk);
  return Buffer.concat(chunks);
}

export type MediaType = { type: string; params: Record<string, string> };

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Parses a Content-Type value (RFC 9110 §8.3.1): `type/subtype` and `;name=value` parameters
 * (values may be quoted). Null when it is not a well-formed media type.
 */
export function parseMediaType(value: string | null | undefined): MediaType | null {
  if (value === null || value === undefined) return null;
  const text = value.trim();
  let i = text.indexOf(";");
  const essence = (i === -1 ? text : text.slice(0, i)).trim().toLowerCase();
  const slash = essence.indexOf("/");
  if (slash <= 0 || !TOKEN.test(essence.slice(0, slash)) || !TOKEN.test(essence.slice(slash + 1))) return null;
  const params: Record<string, string> = {};
  while (i !== -1 && i < text.length) {
    let j = i + 1;
    while (j < text.length && (text[j] === " " || text[j] === "\t")) j++;
    const eq = text.indexOf("=", j);
    if (eq === -1) {
      if (text.slice(j).trim() === "") break;
      return null;
    }
    const name = text.slice(j, eq).trim().toLowerCase();
    if (!TOKEN.test(name)) return null;
    let k = eq + 1;
    let paramValue = "";
    if (text[k] === '"') {
      k++;
      while (k < text.length && text[k] !== '"') {
        if (text[k] === "\\" && k + 1 < text.length) k++;
        paramValue += text[k];
        k++;
      }
      if (text[k] !== '"') return null;
      k++;
      while (k < text.length && (text[k] === " " || text[k] === "\t")) k++;
      if (k < text.length && text[k] !== ";") return null;
    } else {
      const end = text.indexOf(";", k);
      paramValue = (end === -1 ? text.slice(k) : text.slice(k, end)).trim();
      if (paramValue !== "" && !TOKEN.test(paramValue)) return null;
      k = end === -1 ? text.length : end;
    }
    if (!(name in params)) params[name] = paramValue;
    i = k < text.length ? k : -1;
  }
  return { type: essence, params };
}

/**
 * The body must be declared as exactly `application/json` (parameters allowed, a charset only
 * if it is UTF-8): AppError(unsupported_media_type) otherwise. `text/plain;charset=application/json`
 * is text/plain.
 */
export function requireJsonMediaType(req: Request): void {
  const media = parseMediaType(req.headers.get("content-type"));
  const charset = media?.params.charset?.toLowerCase();
  if (!media || media.type !== "application/json" || (charset !== undefined && charset !== "utf-8" && charset !== "utf8")) {
    throw new AppError("unsupported_media_type", "Send the body as application/json.");
  }
}

/** Whether the request carries a body (declared or chunked). */
export function hasBody(req: Request): boolean {
  const declared = declaredLength(req);
  if (declared !== null) return declared > 0;
  return req.headers.has("transfer-encoding");
}
