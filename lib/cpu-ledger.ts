import { processSingleton } from "@/lib/process-singleton";

// The main thread's CPU spent by the process's background work in its synchronous pieces (the
// sync engine's validating and mapping of a page, and its commit): a running total, one per
// process (the server's bundles share it), so that a measurement of other work on the same thread
// can leave out what ran in between while that work awaited. An import's CPU budget does
// (lib/import/budget.ts): on a server whose syncs commit page after page, their commits landed in
// the import's waits and refused a good export for CPU it had not spent.

/** The calling thread's CPU time, in microseconds (user and system). */
export function threadCpuMicros(): number {
  const u = process.threadCpuUsage();
  return u.user + u.system;
}

const ledger = () => processSingleton("cpuLedger", () => ({ backgroundMicros: 0 }));

/** Runs `fn` (synchronous, not nested in another) and counts its CPU as background work. */
export function asBackground<T>(fn: () => T): T {
  const start = threadCpuMicros();
  try {
    return fn();
  } finally {
    ledger().backgroundMicros += threadCpuMicros() - start;
  }
}

/** The CPU counted as background work so far in this process, in microseconds. */
export function backgroundCpuMicros(): number {
  return ledger().backgroundMicros;
}
