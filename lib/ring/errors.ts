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
 * The one error type of the ring client. `status` 0 means the request never got an answer
 * (network error, dropped connection, timeout). The message names the status and the path
 * only: URLs with tokens and tokens themselves never end up here.
 */
export class RingApiError extends Error {
  readonly status: number;
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
    this.endpoint = opts.endpoint;
    this.retryAfter = opts.retryAfter ?? null;
    this.resetAt = opts.resetAt ?? null;
    this.tier = opts.tier ?? null;
    this.detail = opts.detail ?? null;
  }

  /** 5xx and no answer at all: worth another try after a pause. */
  get isTransient(): boolean {
    return this.status === 0 || this.status >= 500;
  }

  /** 403 because the person's membership at the ring service lapsed (not a missing scope). */
  get isSubscriptionExpired(): boolean {
    return this.status === 403 && /subscription|membership|expired/i.test(this.detail ?? "");
  }
}

/**
 * The person must connect again (or the account is paused): thrown by the client when the
 * account status says so, or when a refreshed token is still refused.
 */
export class RingAccountPausedError extends Error {
  constructor(readonly accountId: string, readonly reason: string) {
    super(`ring account paused: ${reason}`);
    this.name = "RingAccountPausedError";
  }
}

/** Requests of this account (or of the whole app) are paused by a 429 until `until`. */
export class RingRateLimitedError extends Error {
  constructor(readonly until: number, readonly tier: RateLimitTier) {
    super(`ring service rate limit (${tier}) until ${new Date(until).toISOString()}`);
    this.name = "RingRateLimitedError";
  }
}
