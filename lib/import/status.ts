import "server-only";
import { AppError } from "@/lib/http/errors";
import { clock as systemClock, type Clock } from "@/lib/clock";
import { claimImportLease, clearImportState, deleteImportRows, readImportState, releaseImportLease, type ImportState } from "@/lib/db/queries/imports";
import { estimateEtaSeconds } from "@/lib/sync/plan";
import { removeSpool } from "@/lib/import/spool-dir";
import { runningDryState, stopImportOf } from "@/lib/import/gate";
import type { ImportKind } from "@/lib/import/run";

// A person's import seen from outside the run (lib/import/run.ts): its status as the page shows it,
// discarding an interrupted one, and forgetting them all before the person's data is deleted.

/** Discards an interrupted import (its spool; what it stored stays). */
export async function discardImport(userId: string, opts: { clock?: Clock } = {}): Promise<void> {
  const clock = opts.clock ?? systemClock;
  const state = await readImportState(userId);
  if (!state) return;
  if (state.status === "checking" || state.status === "storing") {
    // running (its lease held): not discarded under its feet
    if (!(await claimImportLease(userId, state.id, clock.now()))) throw new AppError("conflict", "An import of yours is running: wait for it to finish.");
    await releaseImportLease(userId, state.id, clock.now());
  }
  if (state.spoolDir) await removeSpool(state.spoolDir);
  await clearImportState(userId);
}

export type ImportStatus = {
  status: "idle" | ImportState["status"];
  dryRun: boolean;
  kind: ImportKind | null;
  file: string | null;
  rows: number;
  totalRows: number | null;
  /** 0–1 while storing */
  progress: number | null;
  etaSeconds: number | null;
  message: string | null;
  result: unknown;
};

/** The person's import as the page shows it: phase, file, rows, progress and ETA. */
export async function importStatus(userId: string, opts: { clock?: Clock } = {}): Promise<ImportStatus> {
  const now = (opts.clock ?? systemClock).now();
  const s = runningDryState(userId) ?? (await readImportState(userId));
  if (!s)
    return { status: "idle", dryRun: false, kind: null, file: null, rows: 0, totalRows: null, progress: null, etaSeconds: null, message: null, result: null };
  const fraction = s.status === "storing" && s.totalRows ? Math.min(1, s.rows / s.totalRows) : null;
  return {
    status: s.status,
    dryRun: s.dryRun,
    kind: s.kind,
    file: s.file,
    rows: s.rows,
    totalRows: s.totalRows,
    progress: fraction,
    etaSeconds: fraction !== null ? estimateEtaSeconds(fraction, now - s.phaseStartedAt) : null,
    message: s.message,
    result: s.result ?? null,
  };
}

/**
 * Forgets a person's imports before their data is deleted (their removal): stops their import
 * running in this process and waits for it to end, then removes their spool and their import's
 * state and lease. (An import of theirs running in another process sharing the database is
 * not reached from here: imports run where they were uploaded, the web process.)
 */
export async function forgetImportsOf(userId: string): Promise<void> {
  await stopImportOf(userId);
  const state = await readImportState(userId);
  if (state?.spoolDir) await removeSpool(state.spoolDir);
  await deleteImportRows(userId);
}
