import "server-only";
import { AppError, toErrorResponse } from "@/lib/http/errors";
import { drainBody } from "@/lib/http/body";
import type { RouteContext } from "@/lib/api/handler";
import { requireApiToken, type TokenPrincipal } from "@/lib/auth/api-tokens";
import { apiRateLimiter } from "@/lib/limits/api-limiter";
import { etagFor, ifNoneMatchMatches, notModified, tagAnswer } from "@/lib/api/conditional";
import { readDataVersion } from "@/lib/db/queries/data-version";

// The wrapper of the read API (/api/v1) and the MCP endpoint: a personal access token in
// `Authorization: Bearer` (never a cookie), the token's rate limit, the error envelope.

type TokenHandlerArgs<P> = { req: Request; params: P; searchParams: URLSearchParams; token: TokenPrincipal };

/** A rate-limited request: 429 in the envelope, with when to come back. */
class RateLimitedError extends AppError {
  constructor(readonly retryAfterS: number) {
    super("rate_limited", `Too many requests with this token: try again in ${retryAfterS} s.`);
  }
}

/** Authenticates the token and takes one request from its bucket. */
export async function authenticateRequest(req: Request): Promise<{ token: TokenPrincipal; remaining: number }> {
  const token = await requireApiToken(req);
  const take = apiRateLimiter().take(token.tokenId);
  if (!take.ok) throw new RateLimitedError(take.retryAfterS);
  return { token, remaining: take.remaining };
}

/**
 * Takes `n` more requests from an authenticated token's bucket (the other calls of a JSON-RPC
 * batch: each call counts, not each HTTP request), all or none.
 */
export function chargeMore(token: TokenPrincipal, n: number): void {
  if (n <= 0) return;
  const take = apiRateLimiter().take(token.tokenId, n);
  if (!take.ok) throw new RateLimitedError(take.retryAfterS);
}

/** The envelope of an error, with the headers its status calls for (Retry-After, WWW-Authenticate). */
export function tokenErrorResponse(err: unknown): Response {
  const res = toErrorResponse(err);
  if (err instanceof RateLimitedError) res.headers.set("retry-after", String(err.retryAfterS));
  if (res.status === 401) res.headers.set("www-authenticate", 'Bearer realm="Ringside"');
  res.headers.set("cache-control", "no-store");
  return res;
}

/** Wraps a GET of the read API: token, rate limit, params, and every error as the envelope. */
export function withToken<P = Record<string, string>>(handler: (args: TokenHandlerArgs<P>) => Promise<Response>) {
  return async (req: Request, ctx: RouteContext<P>): Promise<Response> => {
    try {
      const { token, remaining } = await authenticateRequest(req);
      const params = ctx?.params ? await ctx.params : ({} as P);
      const res = await handler({ req, params, searchParams: new URL(req.url).searchParams, token });
      // a tagged answer (withTokenData) may be revalidated; anything else is not kept
      if (!res.headers.has("etag")) res.headers.set("cache-control", "no-store");
      res.headers.set("x-ratelimit-limit", String(apiRateLimiter().limit));
      res.headers.set("x-ratelimit-remaining", String(remaining));
      return res;
    } catch (err) {
      return tokenErrorResponse(err);
    }
  };
}

/**
 * Like withToken, for a read of the person's data: conditional (lib/api/conditional.ts), like
 * the dashboard's data routes. The tag covers the token's data kinds (they shape the answer)
 * and `scope`, whatever else does (the person's today, say); a matching If-None-Match gets 304
 * before anything else is read (it still counts against the token's rate limit).
 */
export function withTokenData<P = Record<string, string>>(
  handler: (args: TokenHandlerArgs<P>) => Promise<Response>,
  opts: { scope?: (token: TokenPrincipal) => Promise<string> } = {},
) {
  return withToken<P>(async (args) => {
    const version = await readDataVersion(args.token.userId);
    if (version === null) return handler(args);
    const extra = opts.scope ? `;${await opts.scope(args.token)}` : "";
    const etag = etagFor(args.req, args.token.userId, version, [...args.token.kinds].sort().join(",") + extra);
    if (ifNoneMatchMatches(args.req.headers.get("if-none-match"), etag)) return notModified(etag);
    return tagAnswer(await handler(args), etag);
  });
}

/** A handler that answers 405 in the envelope, whoever asks (a body, if any, is dropped unread). */
export function methodNotAllowed(allow: string, message: string) {
  return async (req: Request): Promise<Response> => {
    if (req.body && !req.body.locked) await drainBody(req.body.getReader(), 0);
    const res = toErrorResponse(new AppError("method_not_allowed", message));
    res.headers.set("allow", allow);
    res.headers.set("cache-control", "no-store");
    return res;
  };
}

const refuseWrite = methodNotAllowed("GET, HEAD", "The API is read-only: use GET.");

/** The write methods of a read API route: `export const { POST, PUT, PATCH, DELETE } = READ_ONLY;` */
export const READ_ONLY = { POST: refuseWrite, PUT: refuseWrite, PATCH: refuseWrite, DELETE: refuseWrite };
