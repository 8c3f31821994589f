import "server-only";
import { AppError } from "@/lib/http/errors";
import { processSingleton } from "@/lib/process-singleton";
import type { ImportState } from "@/lib/db/queries/imports";

// One import runs at a time in a process (an import is CPU work on the request's thread: two
// side by side would each get half a core and hold their uploads twice as long); another one
// meanwhile gets 429 with Retry-After. The running import is registered here with what stops
// it (removing its person aborts it and waits for it to end) and, for a dry run, its progress
// (a dry run writes no row: GET /api/import reads it from here).

/** Seconds a refused import is told to wait before it tries again. */
export const IMPORT_RETRY_AFTER_S = 15;

type Running = {
  userId: string;
  controller: AbortController;
  done: Promise<void>;
  /** a dry run's progress (it is kept nowhere else) */
  dryState: ImportState | null;
};

const slot = processSingleton("importGate", () => ({ running: null as Running | null }));

/** An import refused because another one is running in this process: 429 with Retry-After. */
export class ImportBusy extends AppError {
  readonly retryAfterS = IMPORT_RETRY_AFTER_S;
  constructor() {
    super("rate_limited", `Another import is running on this server: try again in ${IMPORT_RETRY_AFTER_S} seconds.`);
    this.name = "ImportBusy";
  }
}

/**
 * Runs `work` as this process's one import (ImportBusy while another runs). Its signal aborts
 * when `signal` does (the client went away) or when its person is removed.
 */
export async function runGated<T>(userId: string, signal: AbortSignal | undefined, work: (signal: AbortSignal, self: Running) => Promise<T>): Promise<T> {
  if (slot.running) throw new ImportBusy();
  const controller = new AbortController();
  let finish!: () => void;
  const self: Running = { userId, controller, done: new Promise<void>((r) => (finish = r)), dryState: null };
  slot.running = self;
  const onAbort = () => controller.abort();
  signal?.addEventListener("abort", onAbort, { once: true });
  if (signal?.aborted) controller.abort();
  try {
    return await work(controller.signal, self);
  } finally {
    signal?.removeEventListener("abort", onAbort);
    slot.running = null;
    finish();
  }
}

/** The dry run in progress for this person, if any (its state is kept only here). */
export function runningDryState(userId: string): ImportState | null {
  const r = slot.running;
  return r && r.userId === userId ? r.dryState : null;
}

/** Stops this person's running import in this process, if any, and waits for it to end. */
export async function stopImportOf(userId: string): Promise<void> {
  const r = slot.running;
  if (!r || r.userId !== userId) return;
  r.controller.abort();
  await r.done;
}
