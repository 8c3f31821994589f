import "server-only";
import { z } from "zod";
import { getAppSetting, setAppSetting, listAppSettings } from "@/lib/db/queries/app-settings";
import { RingRateLimitedError, type RateLimitTier } from "@/lib/ring/errors";
import { clock as processClock, type Clock } from "@/lib/clock";
import { processSingleton } from "@/lib/process-singleton";

// Pauses after a 429, per layer (facts §7): tier "application" stops every person's
// requests, tier "token" only that person's. A pause lasts exactly as long as the service
// said (the later of Retry-After and X-RateLimit-Reset), never less, and is kept in
// AppSetting so a restart honours it.

const pauseSchema = z.object({ until: z.number() });
const KEY_APP = "rate_limit_pause:application";
const keyFor = (tier: RateLimitTier, accountId: string) => (tier === "application" ? KEY_APP : `rate_limit_pause:token:${accountId}`);

/** When a 429 lets us ask again: the later of Retry-After and X-RateLimit-Reset (ms epoch). */
export function pauseUntil(now: number, retryAfterS: number | null, resetAtS: number | null): number {
  const byRetry = retryAfterS !== null && retryAfterS >= 0 ? now + retryAfterS * 1000 : now;
  const byReset = resetAtS !== null && resetAtS > 0 ? resetAtS * 1000 : now;
  const until = Math.max(byRetry, byReset);
  // Neither header: one minute, the service's headers are the rule otherwise.
  return retryAfterS === null && resetAtS === null ? now + 60_000 : until;
}

export type RateGateOptions = {
  clock?: Clock;
  /** pauses longer than this are not slept through inside a request: the job is postponed */
  maxInlineWaitMs?: number;
};

export class RateGate {
  private readonly clock: Clock;
  private readonly maxInlineWaitMs: number;
  private readonly pauses = new Map<string, number>();
  private readonly loaded = new Set<string>();

  constructor(opts: RateGateOptions = {}) {
    this.clock = opts.clock ?? processClock;
    this.maxInlineWaitMs = opts.maxInlineWaitMs ?? 120_000;
  }

  private async read(key: string): Promise<number> {
    if (!this.loaded.has(key)) {
      this.loaded.add(key);
      const stored = await getAppSetting(key, pauseSchema);
      if (stored) this.pauses.set(key, Math.max(this.pauses.get(key) ?? 0, stored.until));
    }
    return this.pauses.get(key) ?? 0;
  }

  /** The pause in force for this account (the longer of both layers), if any. */
  async pausedUntil(accountId: string | null): Promise<{ until: number; tier: RateLimitTier } | null> {
    const now = this.clock.now();
    const app = await this.read(KEY_APP);
    const tok = accountId ? await this.read(keyFor("token", accountId)) : 0;
    const until = Math.max(app, tok);
    if (until <= now) return null;
    return { until, tier: app >= tok ? "application" : "token" };
  }

  /** Records a pause (only ever lengthens one already in force). */
  async record(tier: RateLimitTier, accountId: string | null, until: number): Promise<void> {
    const key = accountId === null && tier === "token" ? KEY_APP : keyFor(tier, accountId ?? "");
    // In force at once for this process's other requests, before any await; then kept (unless a
    // longer one is stored already) for a restart.
    if (until <= (this.pauses.get(key) ?? 0)) return;
    this.pauses.set(key, until);
    if ((await this.read(key)) > until) return;
    await setAppSetting(key, { until });
  }

  /**
   * Waits until no pause applies to this account. Long pauses are not slept through:
   * RingRateLimitedError tells the job to come back at `until`.
   */
  async wait(accountId: string | null, signal?: AbortSignal): Promise<void> {
    for (;;) {
      const p = await this.pausedUntil(accountId);
      if (!p) return;
      const ms = p.until - this.clock.now();
      if (ms > this.maxInlineWaitMs) throw new RingRateLimitedError(p.until, p.tier);
      await this.clock.sleep(ms + 1, signal);
    }
  }

  /** Every pause still in force (for the status page). */
  async activePauses(): Promise<Array<{ key: string; until: number }>> {
    const now = this.clock.now();
    for (const { key } of await listAppSettings("rate_limit_pause:")) await this.read(key);
    return [...this.pauses.entries()].filter(([, until]) => until > now).map(([key, until]) => ({ key, until }));
  }
}

/** The process-wide gate every RingClient shares. */
export function getRateGate(): RateGate {
  return processSingleton("rateGate", () => new RateGate());
}
