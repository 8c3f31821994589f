import "server-only";
import { clock } from "@/lib/clock";
// Per-token rate limits of the read API and the MCP endpoint: a token bucket per token, in
// this process. Each token may burst `limit` requests and gets `limit` back per minute, evenly
// (one every 60/limit seconds). Pure apart from the clock, which is injected.
//
// Across restarts the buckets start full: a restart is the owner's act and rare, and keeping
// buckets in the database would cost a write per request. A home install is one process, so
// one in-memory table is the whole truth there; several web processes on PostgreSQL each count
// their own requests (README "PostgreSQL and several processes": a token's limit is then per
// process it reaches).

export type Take = { ok: true; remaining: number } | { ok: false; retryAfterS: number };

type Bucket = { tokens: number; at: number };

export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();
  private readonly perMs: number;

  constructor(
    /** requests per minute, and the burst */
    readonly limit: number,
    private readonly now: () => number = () => clock.now(),
    /** buckets kept at most (full, idle ones are dropped first) */
    private readonly maxKeys = 10_000,
    /** how long a whole bucket takes to refill (a minute for the API) */
    periodMs = 60_000,
  ) {
    this.perMs = limit / periodMs;
  }

  /**
   * Takes `n` requests (one by default) from `key`'s bucket, all or none, or says when they are
   * available (never, for more than the bucket holds: then a minute, like any refusal).
   */
  take(key: string, n = 1): Take {
    const t = this.now();
    const b = this.refill(key, t);
    if (b.tokens >= n) {
      b.tokens -= n;
      return { ok: true, remaining: Math.floor(b.tokens) };
    }
    const missing = Math.min(n, this.limit) - b.tokens;
    return { ok: false, retryAfterS: Math.max(1, Math.ceil(missing / this.perMs / 1000)) };
  }

  /** Forgets a key (a revoked token). */
  drop(key: string): void {
    this.buckets.delete(key);
  }

  private refill(key: string, t: number): Bucket {
    let b = this.buckets.get(key);
    if (!b) {
      if (this.buckets.size >= this.maxKeys) this.prune(t);
      b = { tokens: this.limit, at: t };
      this.buckets.set(key, b);
      return b;
    }
    b.tokens = Math.min(this.limit, b.tokens + Math.max(0, t - b.at) * this.perMs);
    b.at = t;
    return b;
  }

  private prune(t: number): void {
    for (const [k, b] of this.buckets) if (b.tokens + (t - b.at) * this.perMs >= this.limit) this.buckets.delete(k);
    // Still full of busy buckets: drop the oldest ones (a map iterates in insertion order).
    for (const k of this.buckets.keys()) {
      if (this.buckets.size < this.maxKeys) break;
      this.buckets.delete(k);
    }
  }
}
