import "server-only";
import { AppError } from "@/lib/http/errors";
import { processSingleton } from "@/lib/process-singleton";
import type { ImportState } from "@/lib/db/queries/imports";
import { ImportStopped } from "@/lib/import/budget";

// The imports of this process, with bounded waits:
// - at most IMPORT_MAX_UPLOADS imports are in the process at once, from their first byte to their
//   answer (arriving, waiting or running); another one meanwhile gets 429 with Retry-After, its
//   upload not read;
// - the one slot, taken only once an upload is spooled: its check and its storing are CPU work on
//   the request's thread (two side by side would each get half a core), so they run one at a time,
//   in the order their uploads ended; an upload still arriving holds no slot, so a slow one delays
//   nobody (lib/import/run.ts bounds its arrival with a deadline);
// - every import is registered here with what stops it (its client going away, or removing its
//   person: stopImportOf aborts it, whether arriving, waiting or running, and waits for it to end)
//   and, for a dry run, its progress (a dry run writes no row: GET /api/import reads it here).

/** Seconds a refused import is told to wait before it tries again. */
export const IMPORT_RETRY_AFTER_S = 15;
/** Imports in this process at once (arriving, waiting for the slot or running). */
export const IMPORT_MAX_UPLOADS = 4;

export type RunningImport = {
  userId: string;
  controller: AbortController;
  done: Promise<void>;
  /** a dry run's progress (it is kept nowhere else) */
  dryState: ImportState | null;
};

type Waiting = { self: RunningImport; go: () => void };

const gate = processSingleton("importGate", () => ({
  imports: new Set<RunningImport>(),
  holder: null as RunningImport | null,
  /** imports whose upload is spooled, waiting for the slot, first come first */
  queue: [] as Waiting[],
}));

/** An import refused because this process has as many as it takes: 429 with Retry-After. */
export class ImportBusy extends AppError {
  readonly retryAfterS = IMPORT_RETRY_AFTER_S;
  constructor() {
    super("rate_limited", `Another import is running on this server: try again in ${IMPORT_RETRY_AFTER_S} seconds.`);
    this.name = "ImportBusy";
  }
}

/**
 * Runs `work` as one of this process's imports (ImportBusy when IMPORT_MAX_UPLOADS are in). Its
 * signal aborts when `signal` does (the client went away) or when its person is removed.
 */
export async function runTracked<T>(
  userId: string,
  signal: AbortSignal | undefined,
  work: (signal: AbortSignal, self: RunningImport) => Promise<T>,
): Promise<T> {
  if (gate.imports.size >= IMPORT_MAX_UPLOADS) throw new ImportBusy();
  const controller = new AbortController();
  let finish!: () => void;
  const self: RunningImport = { userId, controller, done: new Promise<void>((r) => (finish = r)), dryState: null };
  gate.imports.add(self);
  const onAbort = () => controller.abort();
  signal?.addEventListener("abort", onAbort, { once: true });
  if (signal?.aborted) controller.abort();
  try {
    return await work(controller.signal, self);
  } finally {
    signal?.removeEventListener("abort", onAbort);
    gate.imports.delete(self);
    finish();
  }
}

/** Waits for the slot, in turn (ImportStopped when the import is stopped meanwhile); the slot is handed from one holder to the next. */
async function takeSlot(self: RunningImport): Promise<void> {
  const signal = self.controller.signal;
  if (signal.aborted) throw new ImportStopped("aborted");
  if (!gate.holder && gate.queue.length === 0) {
    gate.holder = self;
    return;
  }
  await new Promise<void>((resolve, reject) => {
    const waiting: Waiting = {
      self,
      go: () => {
        signal.removeEventListener("abort", stop);
        resolve();
      },
    };
    const stop = () => {
      gate.queue.splice(gate.queue.indexOf(waiting), 1);
      reject(new ImportStopped("aborted"));
    };
    gate.queue.push(waiting);
    signal.addEventListener("abort", stop, { once: true });
  });
}

/** Runs `work` holding this process's one import slot, once it is free (in turn); the next in line gets it after. */
export async function inSlot<T>(self: RunningImport, work: () => Promise<T>): Promise<T> {
  await takeSlot(self);
  try {
    return await work();
  } finally {
    const next = gate.queue.shift();
    gate.holder = next?.self ?? null;
    next?.go();
  }
}

/** An import that is all CPU work (a resume: nothing to upload): tracked, and in the slot at once. */
export function runGated<T>(userId: string, signal: AbortSignal | undefined, work: (signal: AbortSignal, self: RunningImport) => Promise<T>): Promise<T> {
  return runTracked(userId, signal, (s, self) => inSlot(self, () => work(s, self)));
}

/** The dry run in progress for this person, if any (its state is kept only here). */
export function runningDryState(userId: string): ImportState | null {
  for (const r of gate.imports) if (r.userId === userId && r.dryState) return r.dryState;
  return null;
}

/** Stops this person's imports in this process (arriving, waiting or running), and waits for them to end. */
export async function stopImportOf(userId: string): Promise<void> {
  const mine = [...gate.imports].filter((r) => r.userId === userId);
  for (const r of mine) r.controller.abort();
  await Promise.all(mine.map((r) => r.done));
}
