import "server-only";

export type BackoffPolicy = {
  /** first delay (ms) */
  baseMs: number;
  /** no single delay is longer than this (ms) */
  maxMs: number;
  /** retries inside one request before the error is handed to the job */
  maxRetries: number;
};

/** 1 s, 2 s, 4 s ... capped at 5 min; six retries inside a request (about a minute in all). */
export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 1_000, maxMs: 300_000, maxRetries: 6 };

/**
 * Exponential backoff with "equal jitter": half of the exponential step is fixed, half is
 * random, so retries from many jobs spread out but never collapse to zero.
 * `attempt` counts from 0 (the first retry).
 */
export function backoffDelay(attempt: number, policy: Pick<BackoffPolicy, "baseMs" | "maxMs">, random: () => number = Math.random): number {
  const step = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, Math.min(attempt, 30)));
  return Math.round(step / 2 + random() * (step / 2));
}

/** Job-level retry delay after a failed attempt: 30 s doubling up to 30 min, with jitter. */
export function jobRetryDelay(attempts: number, random: () => number = Math.random): number {
  return backoffDelay(Math.max(0, attempts - 1), { baseMs: 30_000, maxMs: 1_800_000 }, random);
}
