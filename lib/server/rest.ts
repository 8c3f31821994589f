import "server-only";
import { performance, type EventLoopUtilization } from "node:perf_hooks";
import { logger } from "@/lib/log";
import v8 from "node:v8";

// Memory at rest. V8 collects a busy server's old generation only when it must, so after a
// backfill or a burst of chart requests the process keeps a heap full of garbage (and the
// pages it sits on) for as long as it stays quiet — on a small board, that is most of the
// time. The rest collector watches the event loop's utilisation once a second and, once work
// is followed by a few quiet seconds, runs one full collection (`global.gc`, exposed by
// `npm start`'s --expose-gc), which hands the freed pages back. It never runs while the
// process is busy, so ingest and webhooks do not pay for it; it runs once per busy spell.

/** What one tick saw: the event loop's utilisation (0–1) since the previous tick. */
export type RestSample = { elu: number };

export type RestPolicy = {
  /** a tick above this utilisation counts as work */
  busyElu: number;
  /** this many quiet ticks in a row after work: collect */
  quietTicks: number;
};

export const DEFAULT_REST_POLICY: RestPolicy = { busyElu: 0.05, quietTicks: 3 };

/** The collector's state: whether there was work since the last collection, and the quiet ticks since. */
export type RestState = { dirty: boolean; quiet: number };

/** One tick of the policy: the next state, and whether to collect now. Pure. */
export function restTick(state: RestState, sample: RestSample, policy: RestPolicy = DEFAULT_REST_POLICY): { state: RestState; collect: boolean } {
  if (sample.elu > policy.busyElu) return { state: { dirty: true, quiet: 0 }, collect: false };
  const quiet = state.quiet + 1;
  if (state.dirty && quiet >= policy.quietTicks) return { state: { dirty: false, quiet }, collect: true };
  return { state: { dirty: state.dirty, quiet }, collect: false };
}

/**
 * Starts the rest collector (once per process, from lib/server/background.ts). Without an
 * exposed `gc` (a server not started by `npm start`) it does nothing and says so.
 * Returns a stop function.
 */
export function startRestCollector(opts: { intervalMs?: number; policy?: RestPolicy } = {}): (() => void) | null {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (typeof gc !== "function") {
    logger.info({}, "memory at rest: no exposed gc (start with npm start), not collecting at rest");
    return null;
  }
  let state: RestState = { dirty: true, quiet: 0 };
  let last: EventLoopUtilization = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const elu = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    const step = restTick(state, { elu }, opts.policy);
    state = step.state;
    if (!step.collect) return;
    const before = process.memoryUsage.rss();
    const t = performance.now();
    gc();
    const mb = (n: number) => Math.round(n / 1048576);
    const m = process.memoryUsage();
    const spaces = Object.fromEntries(v8.getHeapSpaceStatistics().map((x) => [x.space_name, `${mb(x.space_size)}/${mb(x.space_used_size)}`]));
    logger.info({ spaces, ms: Math.round(performance.now() - t), rssMbBefore: mb(before), rssMbAfter: mb(m.rss), heapTotalMb: mb(m.heapTotal), heapUsedMb: mb(m.heapUsed), externalMb: mb(m.external), arrayBuffersMb: mb(m.arrayBuffers) }, "memory at rest: collected");
    // the collection itself was work: do not count it as the next busy spell
    last = performance.eventLoopUtilization();
  }, opts.intervalMs ?? 1000);
  timer.unref();
  return () => clearInterval(timer);
}
