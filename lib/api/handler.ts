import "server-only";
import type { z } from "zod";
import { AppError, toErrorResponse } from "@/lib/http/errors";
import { drainBody, hasBody, parseMediaType, readBody, requireJsonMediaType } from "@/lib/http/body";
import { checkSameOrigin } from "@/lib/auth/origin";
import { requireUser, type SessionUser } from "@/lib/services/auth/session";
import { etagFor, ifNoneMatchMatches, notModified, tagAnswer } from "@/lib/api/conditional";
import { readDataVersion } from "@/lib/db/queries/data-version";

export type RouteContext<P> = { params: Promise<P> };

type HandlerArgs<P> = { req: Request; params: P; searchParams: URLSearchParams };
type UserHandlerArgs<P> = HandlerArgs<P> & { user: SessionUser };

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * The rules of every write to Ringside's API (POST/PUT/PATCH/DELETE), before anything else:
 * it comes from a page of this Ringside (403 otherwise, lib/auth/origin.ts), and a body or a
 * declared type is exactly application/json (415 otherwise). Together they shut out
 * cross-site requests a browser would send without asking (forms, `text/plain` fetches).
 * A route that takes files (the import) names the other types it reads in `bodyTypes`; the
 * origin rule holds for them all the same.
 */
export function screenWrite(req: Request, bodyTypes?: readonly string[]): void {
  if (SAFE_METHODS.has(req.method.toUpperCase())) return;
  const origin = checkSameOrigin(req);
  if (!origin.ok) throw new AppError("forbidden", origin.message);
  if (!(req.headers.has("content-type") || hasBody(req))) return;
  const media = parseMediaType(req.headers.get("content-type"));
  if (bodyTypes && media && bodyTypes.includes(media.type)) return;
  requireJsonMediaType(req);
}

export type RouteOptions = {
  /** media types besides application/json this route reads as its body */
  bodyTypes?: readonly string[];
};

/** Wraps a route handler: screens writes, awaits params and turns every error into the envelope. */
export function withRoute<P = Record<string, string>>(handler: (args: HandlerArgs<P>) => Promise<Response>, options: RouteOptions = {}) {
  return async (req: Request, ctx: RouteContext<P>): Promise<Response> => {
    try {
      screenWrite(req, options.bodyTypes);
      const params = ctx?.params ? await ctx.params : ({} as P);
      return await handler({ req, params, searchParams: new URL(req.url).searchParams });
    } catch (err) {
      // A body nobody read (a write refused before its body): drop it the bounded way, so a
      // client still sending gets the answer rather than a reset connection.
      if (req.body && !req.body.locked) await drainBody(req.body.getReader(), 0);
      return toErrorResponse(err);
    }
  };
}

/** Like withRoute, and the request must come from a signed-in person (401 otherwise). */
export function withUser<P = Record<string, string>>(handler: (args: UserHandlerArgs<P>) => Promise<Response>, options: RouteOptions = {}) {
  return withRoute<P>(async (args) => {
    const user = await requireUser();
    return handler({ ...args, user });
  }, options);
}

/**
 * Like withUser, for a GET that answers with the person's data (a chart, a day, a summary):
 * conditional (lib/api/conditional.ts). The answer's ETag comes from the person's data
 * version and the request; a matching If-None-Match is answered 304 before the handler runs,
 * so a repeat costs the session check and one indexed read, no query and no statistics.
 */
export function withUserData<P = Record<string, string>>(handler: (args: UserHandlerArgs<P>) => Promise<Response>) {
  return withRoute<P>(async (args) => {
    const user = await requireUser();
    const version = await readDataVersion(user.id);
    // (a session always has its person; without one there is nothing to tag)
    if (version === null) return handler({ ...args, user });
    const etag = etagFor(args.req, user.id, version);
    if (ifNoneMatchMatches(args.req.headers.get("if-none-match"), etag)) return notModified(etag);
    return tagAnswer(await handler({ ...args, user }), etag);
  });
}

/** Parses a JSON body with a size cap and a schema: 413, 415, 400 or 422 on bad input. */
export async function parseJsonBody<T extends z.ZodType>(req: Request, schema: T, maxBytes = 64 * 1024): Promise<z.infer<T>> {
  requireJsonMediaType(req);
  const text = (await readBody(req, { maxBytes })).toString("utf8");
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
