import "server-only";
import { processSingleton } from "@/lib/process-singleton";
import type { Db } from "@/lib/db/prisma";
import { fencedTransaction, readSyncGeneration, SyncStoppedError } from "@/lib/db/queries/sync-fence";
import { fencedIngest } from "@/lib/db/ingest/fence";
import type { Work } from "@/lib/db/ingest/driver";

// A run: one sync job's (or one webhook apply's) hold on a person's sync. It reads the person's
// sync generation when it starts and writes only in transactions that check it
// (lib/db/queries/sync-fence.ts), so nothing it fetched is stored once a delete moved the
// generation on. Its requests carry its abort signal, which a delete in this process fires at
// once (stopRunsOf) and the scheduler fires for a delete made in another process (a job's
// heartbeat reads the generation): a request in flight stops where it is.

export type SyncRun = {
  readonly userId: string;
  /** the person's sync generation when the run started */
  readonly generation: number;
  /** aborted (with SyncStoppedError) when the person's sync is stopped */
  readonly signal: AbortSignal;
};

export type RunOptions = {
  /** the generation the job read when it started (default: read now) */
  generation?: number;
  /** stops the run from outside (the scheduler's, for a delete made by another process) */
  signal?: AbortSignal;
};

const running = () => processSingleton("syncRuns", () => new Map<string, Set<AbortController>>());

/**
 * Runs `fn` as a run of the person's sync; `stopped` is the answer, without calling `fn`, when
 * there is nothing to run: the person is gone, their sync paused, or the generation moved past
 * the one the job started with. An error after the run was stopped is its SyncStoppedError.
 */
export async function withRun<T>(userId: string, opts: RunOptions, stopped: () => T, fn: (run: SyncRun) => Promise<T>): Promise<T> {
  const now = await readSyncGeneration(userId);
  if (!now || now.paused || (opts.generation !== undefined && now.generation !== opts.generation)) return stopped();
  const controller = new AbortController();
  const mine = running();
  const set = mine.get(userId) ?? new Set<AbortController>();
  mine.set(userId, set.add(controller));
  const stopFromOutside = () => controller.abort(opts.signal?.reason instanceof SyncStoppedError ? opts.signal.reason : new SyncStoppedError(userId));
  opts.signal?.addEventListener("abort", stopFromOutside, { once: true });
  if (opts.signal?.aborted) stopFromOutside();
  try {
    return await fn({ userId, generation: now.generation, signal: controller.signal });
  } catch (err) {
    if (controller.signal.aborted && !(err instanceof SyncStoppedError)) throw controller.signal.reason as Error;
    throw err;
  } finally {
    opts.signal?.removeEventListener("abort", stopFromOutside);
    set.delete(controller);
    if (set.size === 0) mine.delete(userId);
  }
}

/** Stops every run of the person in this process: their requests in flight are aborted. Returns how many were running. */
export function stopRunsOf(userId: string): number {
  const set = running().get(userId);
  if (!set) return 0;
  for (const c of set) c.abort(new SyncStoppedError(userId));
  return set.size;
}

/** A page's `work` in one ingest transaction that commits only while the run's generation holds (else SyncStoppedError, rolled back). */
export function inRun<T>(run: SyncRun, work: () => Work<T>): Promise<T> {
  return fencedIngest(run.userId, run.generation, work);
}

/** `fn` in one Prisma Client transaction that commits only while the run's generation holds (the sync's writes outside a page). */
export function inRunTx<T>(run: SyncRun, fn: (tx: Db) => Promise<T>): Promise<T> {
  return fencedTransaction(run.userId, run.generation, fn);
}
