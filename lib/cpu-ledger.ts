import { processSingleton } from "@/lib/process-singleton";

// The main thread's CPU spent by the process's background work in its synchronous pieces (the
// sync engine's validating and mapping of a page, and its commit): a running total, one per
// process (the server's bundles share it), so that a measurement of other work on the same thread
// can leave out what ran in between while that work awaited. An import's CPU budget does
// (lib/import/budget.ts): on a server whose syncs commit page after page, their commits landed in
// the import's waits and refused a good export for CPU it had not spent.
//
// Counting costs two reads of the thread's CPU time per piece (thousands in a five-year
// backfill), so the pieces are counted only while someone reads the total: each read keeps the
// counting on for WATCH_MS more. A reader that stops reading for longer sees less subtracted,
// never more (its own measure stays an upper bound).

/** How long one read of the total keeps the counting on, in milliseconds. */
export const WATCH_MS = 60_000;

/** The calling thread's CPU time, in microseconds (user and system). */
export function threadCpuMicros(): number {
  const u = process.threadCpuUsage();
  return u.user + u.system;
}

const ledger = () => processSingleton("cpuLedger", () => ({ backgroundMicros: 0, watchedUntil: Number.NEGATIVE_INFINITY }));

/** Runs `fn` (synchronous, not nested in another) and counts its CPU as background work while the total is watched. */
export function asBackground<T>(fn: () => T): T {
  const l = ledger();
  if (performance.now() > l.watchedUntil) return fn();
  const start = threadCpuMicros();
  try {
    return fn();
  } finally {
    l.backgroundMicros += threadCpuMicros() - start;
  }
}

/** The CPU counted as background work so far in this process, in microseconds; the counting goes on for WATCH_MS from here. */
export function backgroundCpuMicros(): number {
  const l = ledger();
  l.watchedUntil = performance.now() + WATCH_MS;
  return l.backgroundMicros;
}
