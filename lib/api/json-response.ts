import "server-only";
import { gzipSync } from "node:zlib";

/** Below this many bytes an answer is sent as it is (gzip would not pay for itself). */
export const GZIP_MIN_BYTES = 8 * 1024;

/** Whether an Accept-Encoding header admits gzip (not refused with q=0). */
export function acceptsGzip(acceptEncoding: string | null): boolean {
  if (!acceptEncoding) return false;
  const q = new Map<string, number>();
  for (const part of acceptEncoding.toLowerCase().split(",")) {
    const [coding, ...params] = part.split(";").map((x) => x.trim());
    if (!coding) continue;
    const qParam = params.find((p) => p.startsWith("q="));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    q.set(coding, Number.isFinite(value) ? value : 0);
  }
  const gzip = q.get("gzip") ?? q.get("x-gzip") ?? q.get("*");
  return gzip !== undefined && gzip > 0;
}

/**
 * A JSON answer for the chart routes. Large answers are gzipped here, in one pass at level 1,
 * when the client accepts it: the server's generic compression (level 6, streamed) costs
 * several times more CPU for a few percent fewer bytes on a five-year series, and it leaves an
 * answer alone that is already encoded.
 */
export function jsonResponse(req: Request, data: unknown, init: ResponseInit = {}): Response {
  const text = JSON.stringify(data);
  const headers = new Headers(init.headers);
  headers.set("content-type", "application/json");
  headers.append("vary", "accept-encoding");
  if (text.length < GZIP_MIN_BYTES || !acceptsGzip(req.headers.get("accept-encoding"))) {
    return new Response(text, { ...init, headers });
  }
  const body = gzipSync(text, { level: 1 });
  headers.set("content-encoding", "gzip");
  headers.set("content-length", String(body.byteLength));
  return new Response(new Uint8Array(body.buffer, body.byteOffset, body.byteLength), { ...init, headers });
}
