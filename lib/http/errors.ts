import "server-only";
import { ZodError } from "zod";
import { logger } from "@/lib/log";
import { noteDatabaseError, OUTAGE_MESSAGE, RETRY_AFTER_S } from "@/lib/http/outage";

/** Error codes of Ringside's own API, each with its HTTP status. */
export const ERROR_STATUS = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  not_acceptable: 406,
  request_timeout: 408,
  conflict: 409,
  gone: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unprocessable_entity: 422,
  rate_limited: 429,
  internal_error: 500,
  bad_gateway: 502,
  service_unavailable: 503,
  insufficient_storage: 507,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** An error meant for the client: its code and message are shown as they are. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details?: unknown;
  constructor(code: ErrorCode, message: string, details?: unknown) {
    super(message);
    this.name = "AppError";
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.details = details;
  }
}

/** The one error envelope: `{ error: { code, message, details? } }`. */
export type ErrorEnvelope = { error: { code: ErrorCode; message: string; details?: unknown } };

export function errorBody(code: ErrorCode, message: string, details?: unknown): ErrorEnvelope {
  return { error: details === undefined ? { code, message } : { code, message, details } };
}

/** Turns anything thrown in a route into a response; never leaks internals on 500. */
export function toErrorResponse(err: unknown): Response {
  if (err instanceof AppError) {
    const headers = new Headers();
    // A refused body may be only partly read: the connection is not reused for another request.
    if (err.code === "payload_too_large") headers.set("connection", "close");
    // a refusal that says when to come back (details.retryAfterS) says it in Retry-After too
    const retry = (err.details as { retryAfterS?: unknown } | undefined)?.retryAfterS;
    if (typeof retry === "number" && retry > 0) headers.set("retry-after", String(Math.ceil(retry)));
    return Response.json(errorBody(err.code, err.message, err.details), { status: err.status, headers });
  }
  if (err instanceof ZodError) {
    const details = err.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
    return Response.json(errorBody("unprocessable_entity", "The request is not valid.", details), {
      status: 422,
    });
  }
  // the database is away or the disk full: not the request's fault, worth retrying (remembered
  // for the next requests, lib/http/outage.ts; logged there once)
  const outage = noteDatabaseError(err);
  if (outage) {
    return Response.json(errorBody("service_unavailable", OUTAGE_MESSAGE[outage]), {
      status: 503,
      headers: { "retry-after": String(RETRY_AFTER_S[outage]), "cache-control": "no-store" },
    });
  }
  logger.error({ err: err instanceof Error ? { name: err.name, message: err.message, stack: err.stack } : String(err) }, "unhandled route error");
  return Response.json(errorBody("internal_error", "Something went wrong on the server."), { status: 500 });
}
