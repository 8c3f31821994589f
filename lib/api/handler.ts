import "server-only";
import type { z } from "zod";
import { AppError, toErrorResponse } from "@/lib/api/errors";
import { requireUser, type SessionUser } from "@/lib/auth/session";

export type RouteContext<P> = { params: Promise<P> };

type HandlerArgs<P> = { req: Request; params: P; searchParams: URLSearchParams };
type UserHandlerArgs<P> = HandlerArgs<P> & { user: SessionUser };

/** Wraps a public route handler: awaits params and turns every error into the envelope. */
export function withRoute<P = Record<string, string>>(
  handler: (args: HandlerArgs<P>) => Promise<Response>,
) {
  return async (req: Request, ctx: RouteContext<P>): Promise<Response> => {
    try {
      const params = ctx?.params ? await ctx.params : ({} as P);
      return await handler({ req, params, searchParams: new URL(req.url).searchParams });
    } catch (err) {
      return toErrorResponse(err);
    }
  };
}

/** Like withRoute, and the request must come from a signed-in person (401 otherwise). */
export function withUser<P = Record<string, string>>(
  handler: (args: UserHandlerArgs<P>) => Promise<Response>,
) {
  return withRoute<P>(async (args) => {
    const user = await requireUser();
    return handler({ ...args, user });
  });
}

/** How much of a refused body is still read (and dropped) so the refusal reaches the client. */
const DRAIN_MAX_BYTES = 16 * 1024 * 1024;

/** Reads and drops the rest of a body, up to DRAIN_MAX_BYTES in all; beyond that, cancels it. */
async function drain(reader: ReadableStreamDefaultReader<Uint8Array>, already: number): Promise<void> {
  let size = already;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      size += value.byteLength;
      if (size > DRAIN_MAX_BYTES) {
        await reader.cancel();
        return;
      }
    }
  } catch {
    /* the client went away: nothing left to drain */
  }
}

/** Parses a JSON body with a size cap and a schema: 413, 415, 400 or 422 on bad input. */
export async function parseJsonBody<T extends z.ZodType>(req: Request, schema: T, maxBytes = 64 * 1024): Promise<z.infer<T>> {
  const type = req.headers.get("content-type") ?? "";
  if (!type.toLowerCase().includes("application/json")) {
    throw new AppError("unsupported_media_type", "Send the body as application/json.");
  }
  const tooLarge = () => new AppError("payload_too_large", `The body is larger than ${maxBytes} bytes.`);
  // Never keep more than the cap: what is declared too large is not kept at all, and a body
  // that grows past the cap stops being kept. The rest is read and dropped (up to
  // DRAIN_MAX_BYTES) so the client, still sending, gets the 413 instead of a reset connection.
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > maxBytes) {
    if (req.body && declared <= DRAIN_MAX_BYTES) await drain(req.body.getReader(), 0);
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (req.body) {
    const reader = req.body.getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await drain(reader, size);
        throw tooLarge();
      }
      chunks.push(value);
    }
  }
  const text = Buffer.concat(chunks).toString("utf8");
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new AppError("bad_request", "The body is not valid JSON.");
  }
  return schema.parse(data);
}

/** Parses query parameters (first value of each) with a schema: 422 on bad input. */
export function parseQuery<T extends z.ZodType>(searchParams: URLSearchParams, schema: T): z.infer<T> {
  const obj: Record<string, string> = {};
  for (const [k, v] of searchParams) if (!(k in obj)) obj[k] = v;
  return schema.parse(obj);
}
