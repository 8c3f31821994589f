// Two-tier rolling-window rate limiter: one ceiling per access token, one per application
// (all of the application's tokens together). A request is admitted only when both layers
// have room; admitted requests are recorded in both, rejected ones in neither.

export type RateTier = "token" | "application";

export type RateDecision =
  | { ok: true }
  | {
      ok: false;
      tier: RateTier;
      /** Ceiling of the layer that fired. */
      limit: number;
      windowS: number;
      /** Whole seconds until the oldest request in the window expires (a slot frees), at least 1. */
      retryAfterS: number;
      /** Epoch seconds at which every request now in the window has expired (quota fully restored). */
      resetEpochS: number;
    };

/** Timestamps (ms) of admitted requests, oldest first; expired ones are dropped lazily. */
class SlidingLog {
  private times: number[] = [];
  private head = 0;

  prune(cutoff: number): void {
    while (this.head < this.times.length && this.times[this.head]! <= cutoff) this.head++;
    if (this.head > 1024 && this.head * 2 > this.times.length) {
      this.times = this.times.slice(this.head);
      this.head = 0;
    }
  }
  get size(): number {
    return this.times.length - this.head;
  }
  get oldest(): number | undefined {
    return this.times[this.head];
  }
  get newest(): number | undefined {
    return this.size > 0 ? this.times[this.times.length - 1] : undefined;
  }
  push(t: number): void {
    this.times.push(t);
  }
}

export type RateLimiterOptions = { tokenLimit: number; appLimit: number; windowS: number };

export class TwoTierRateLimiter {
  private readonly tokens = new Map<string, SlidingLog>();
  private readonly apps = new Map<string, SlidingLog>();
  private checks = 0;

  constructor(private readonly opts: RateLimiterOptions) {}

  get windowMs(): number {
    return this.opts.windowS * 1000;
  }

  /**
   * Admits (and records) or rejects one request at `now` (ms). `appKey` null = the request
   * cannot be attributed to an application (e.g. a sandbox call with a made-up bearer).
   * When both layers are full, the one that frees later is reported.
   */
  check(tokenKey: string, appKey: string | null, now: number): RateDecision {
    if (++this.checks % 5000 === 0) this.sweep(now);
    const cutoff = now - this.windowMs;
    const tokenLog = this.logFor(this.tokens, tokenKey);
    tokenLog.prune(cutoff);
    const appLog = appKey === null ? null : this.logFor(this.apps, appKey);
    appLog?.prune(cutoff);

    const rejections: Array<Extract<RateDecision, { ok: false }>> = [];
    if (tokenLog.size >= this.opts.tokenLimit) rejections.push(this.reject("token", this.opts.tokenLimit, tokenLog, now));
    if (appLog && appLog.size >= this.opts.appLimit) rejections.push(this.reject("application", this.opts.appLimit, appLog, now));
    if (rejections.length > 0) return rejections.reduce((a, b) => (b.retryAfterS > a.retryAfterS ? b : a));

    tokenLog.push(now);
    appLog?.push(now);
    return { ok: true };
  }

  /** Requests currently counted in the window of a token / an application. */
  usage(now: number, tokenKey: string, appKey?: string): { token: number; application: number } {
    const cutoff = now - this.windowMs;
    const t = this.tokens.get(tokenKey);
    t?.prune(cutoff);
    const a = appKey ? this.apps.get(appKey) : undefined;
    a?.prune(cutoff);
    return { token: t?.size ?? 0, application: a?.size ?? 0 };
  }

  reset(): void {
    this.tokens.clear();
    this.apps.clear();
  }

  private reject(tier: RateTier, limit: number, log: SlidingLog, now: number): Extract<RateDecision, { ok: false }> {
    const oldest = log.oldest ?? now;
    const newest = log.newest ?? now;
    return {
      ok: false,
      tier,
      limit,
      windowS: this.opts.windowS,
      retryAfterS: Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000)),
      resetEpochS: Math.ceil((newest + this.windowMs) / 1000),
    };
  }

  private logFor(map: Map<string, SlidingLog>, key: string): SlidingLog {
    let log = map.get(key);
    if (!log) {
      log = new SlidingLog();
      map.set(key, log);
    }
    return log;
  }

  /** Drops empty logs so long-running emulators do not accumulate dead tokens. */
  private sweep(now: number): void {
    const cutoff = now - this.windowMs;
    for (const map of [this.tokens, this.apps])
      for (const [key, log] of map) {
        log.prune(cutoff);
        if (log.size === 0) map.delete(key);
      }
  }
}

/** The five headers every 429 carries. */
export function rateLimitHeaders(d: { tier: RateTier; limit: number; windowS: number; retryAfterS: number; resetEpochS: number }): Record<string, string> {
  return {
    "retry-after": String(d.retryAfterS),
    "x-ratelimit-limit": String(d.limit),
    "x-ratelimit-window": String(d.windowS),
    "x-ratelimit-reset": String(d.resetEpochS),
    "x-ratelimit-tier": d.tier,
  };
}
