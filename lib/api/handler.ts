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

/** Parses a JSON body with a size cap and a schema: 413, 415, 400 or 422 on bad input. */
export async function parseJsonBody<T extends z.ZodType>(req: Request, schema: T, maxBytes = 64 * 1024): Promise<z.infer<T>> {
  const type = req.headers.get("content-type") ?? "";
  if (!type.toLowerCase().includes("application/json")) {
    throw new AppError("unsupported_media_type", "Send the body as application/json.");
  }
  const tooLarge = () => new AppError("payload_too_large", `The body is larger than ${maxBytes} bytes.`);
  // Refuse what is declared too large before reading it, and stop reading once it grows past the cap.
  if (Number(req.headers.get("content-length") ?? "0") > maxBytes) throw tooLarge();
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (req.body) {
    const reader = req.body.getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => undefined);
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
