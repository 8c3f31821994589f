import "server-only";
import { env } from "@/lib/env.mjs";
import { TokenBuckets } from "@/lib/limits/token-buckets";
import { processSingleton } from "@/lib/process-singleton";

/** The process's per-token limiter (API_RATE_LIMIT requests per minute, and the burst). */
export function apiRateLimiter(): TokenBuckets {
  return processSingleton("apiRateLimiter", () => new TokenBuckets(env.API_RATE_LIMIT));
}
