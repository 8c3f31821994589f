import "server-only";
import { env } from "@/lib/env.mjs";
import { TokenBuckets } from "@/lib/api/v1/rate-limit";

const holder = globalThis as unknown as { ringsideApiLimiter?: TokenBuckets };

/** The process's per-token limiter (API_RATE_LIMIT requests per minute, and the burst). */
export function apiRateLimiter(): TokenBuckets {
  holder.ringsideApiLimiter ??= new TokenBuckets(env.API_RATE_LIMIT);
  return holder.ringsideApiLimiter;
}
