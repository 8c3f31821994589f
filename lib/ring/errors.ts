import "server-only";

/** Which rate-limit layer answered 429: every token of the app, or one person's token. */
export type RateLimitTier = "application" | "token";

export type RingApiErrorOptions = {
  status: number;
  /** The request path without query string and without any token. */
  endpoint: string;
  /** Seconds the service asked us to wait (Retry-After), when it said so. */
  retryAfter?: number | null;
  /** Unix epoch seconds at which the quota is restored (X-RateLimit-Reset). */
  resetAt?: number | null;
  tier?: RateLimitTier | null;
  /** The service's own short message (`detail`), never a token. */
  detail?: string | null;
  cause?: unknown;
};

/**
 * What went wrong, as a machine-readable code decided once, where the answer is read:
 * no_answer (network error, dropped connection, timeout), membership_expired (403 because the
 * person's membership lapsed), not_shared (403, the scope was not granted), rate_limited (429),
 * unauthorized (401), not_found (404), bad_request (400), unprocessable (422), server_error (5xx),
 * invalid_body (a 2xx whose body is not what the service documents), http_error (anything else).
 */
export type RingApiErrorCode =
  | "no_answer"
  | "membership_expired"
  | "not_shared"
  | "rate_limited"
  | "unauthorized"
  | "not_found"
  | "bad_request"
  | "unprocessable"
  | "server_error"
  | "invalid_body"
  | "http_error";

function codeOf(status: number, detail: string | null | undefined): RingApiErrorCode {
  if (status === 0) return "no_answer";
  if (status >= 200 && status < 300) return "invalid_body";
  // The service says why in `detail` only: a lapsed membership, or a scope not granted.
  if (status === 403) return /subscription|membership|expired/i.test(detail ?? "") ? "membership_expired" : "not_shared";
  if (status === 429) return "rate_limited";
  if (status === 401) return "unauthorized";
  if (status === 404) return "not_found";
  if (status === 400) return "bad_request";
  if (status === 422) return "unprocessable";
  if (status >= 500) return "server_error";
  return "http_error";
}

/**
 * The one error type of the ring client: status, code and retry hints are fields. `status` 0
 * means the request never got an answer. The message names the status and the path only:
 * URLs with tokens and tokens themselves never end up here.
 */
export class RingApiError extends Error {
  readonly status: number;
  readonly code: RingApiErrorCode;
  readonly endpoint: string;
  readonly retryAfter: number | null;
  readonly resetAt: number | null;
  readonly tier: RateLimitTier | null;
  readonly detail: string | null;

  constructor(opts: RingApiErrorOptions) {
    const what = opts.status === 0 ? "network error" : `HTTP ${opts.status}`;
    super(`ring service ${what} at ${opts.endpoint}${opts.detail ? `: ${opts.detail.slice(0, 200)}` : ""}`, {
      cause: opts.cause,
    });
    this.name = "RingApiError";
    this.status = opts.status;
    this.code = codeOf(opts.status, opts.detail);
    this.endpoint = opts.endpoint;
    this.retryAfter = opts.retryAfter ?? null;
    this.resetAt = opts.resetAt ?? null;
    this.tier = opts.tier ?? null;
    this.detail = opts.detail ?? null;
  }

  /** 5xx and no answer at all: worth another try after a pause. */
  get isTransient(): boolean {
    return this.code === "no_answer" || this.code === "server_error";
  }

  /** 403 because the person's membership at the ring service lapsed (not a missing scope). */
  get isSubscriptionExpired(): boolean {
    return this.code === "membership_expired";
  }
}

/**
 * The person must connect again (or the account is paused): thrown by the client when the
 * account status says so, or when a refreshed token is still refused.
 */
export class RingAccountPausedError extends Error {
  constructor(
    readonly accountId: string,
    readonly reason: string,
  ) {
    super(`ring account paused: ${reason}`);
    this.name = "RingAccountPausedError";
  }
}

/** Requests of this account (or of the whole app) are paused by a 429 until `until`. */
export class RingRateLimitedError extends Error {
  constructor(
    readonly until: number,
    readonly tier: RateLimitTier,
  ) {
    super(`ring service rate limit (${tier}) until ${new Date(until).toISOString()}`);
    this.name = "RingRateLimitedError";
  }
}

/** Why the person must connect again (also stored as the account's status reason). */
export type ReconnectReason = "no_account" | "not_active" | "invalid_grant" | "wrong_portal" | "token_unreadable" | "no_refresh_token";

/** The connection needs the person to reconnect (needs_reconnect / disconnected / refresh refused). */
export class ReconnectRequiredError extends Error {
  constructor(
    readonly reason: ReconnectReason,
    message = "The ring connection needs to be reconnected.",
  ) {
    super(message);
    this.name = "ReconnectRequiredError";
  }
}

/**
 * A token refresh could not complete for a passing reason (the token endpoint's 5xx or other
 * refusal that is not final, no answer, another process still busy): try later. `status` is
 * the token endpoint's HTTP status (null: no answer), `code` its OAuth `error` when it sent one.
 */
export class TokenRefreshError extends Error {
  readonly status: number | null;
  readonly code: string | null;
  constructor(message: string, opts: { status?: number | null; code?: string | null } = {}) {
    super(message);
    this.name = "TokenRefreshError";
    this.status = opts.status ?? null;
    this.code = opts.code ?? null;
  }
}
