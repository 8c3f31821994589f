import "server-only";
import fs from "node:fs";
import path from "node:path";
import { clock as systemClock, type Clock } from "@/lib/clock";
import { listImportStates, releaseImportLease, saveImportState } from "@/lib/db/queries/imports";
import { logger } from "@/lib/log";
import { removeSpool, spoolInUse, spoolRoot } from "@/lib/import/spool-dir";

// What a stop (a crash, a kill) left of imports, cleared when a process starts
// (lib/server/background.ts): loads only what it needs, not the import itself.

/**
 * At start: removes every spool no import can use (one a crash left while checking or storing
 * a dry run, or an import that failed without cleaning up): all but an interrupted import's
 * (resumable) and those of imports running in another live process. An import left "checking"
 * by a crash is marked failed and its lease freed, so its person can start again at once.
 * Returns the spools removed.
 */
export async function sweepImports(opts: { root?: string; clock?: Clock } = {}): Promise<string[]> {
  const now = (opts.clock ?? systemClock).now();
  const root = spoolRoot(opts.root);
  const states = await listImportStates();
  const keep = new Set(
    states.flatMap(({ state }) => (state.spoolDir && (state.status === "interrupted" || state.status === "storing") ? [state.spoolDir] : [])),
  );
  const removed: string[] = [];
  const names = fs.existsSync(root) ? await fs.promises.readdir(root) : [];
  for (const name of names) {
    const dir = path.join(/* turbopackIgnore: true */ root, name);
    if (keep.has(dir) || spoolInUse(dir)) continue;
    await removeSpool(dir);
    removed.push(dir);
  }
  for (const { userId, state } of states) {
    if (state.status !== "checking" || (state.spoolDir && fs.existsSync(state.spoolDir))) continue;
    const message = "The server stopped while it was checking the upload: nothing was stored. Upload it again.";
    await saveImportState(userId, { ...state, status: "failed", spoolDir: null, sources: [], message });
    await releaseImportLease(userId, state.id, now);
  }
  if (removed.length) logger.info({ spools: removed.length }, "import spools left by a stop removed");
  return removed;
}
