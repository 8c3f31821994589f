import "server-only";
import fs from "node:fs";
import path from "node:path";
import { env } from "@/lib/env.mjs";

// Where imports keep their uploads (a private folder per import under the data directory's
// `imports`), each marked with the pid of the process it belongs to, and which of them a start
// may remove (lib/import/sweep.ts). Light on purpose: the start-up sweep loads only this.

/** The folder every import's spool is in. */
export function spoolRoot(root = env.DATA_DIR): string {
  // (the file tracer must not follow this path: it is the data directory, not a source)
  return path.join(/* turbopackIgnore: true */ path.resolve(/* turbopackIgnore: true */ root), "imports");
}

/** The file naming the process an import's spool belongs to (its pid). */
const OWNER_FILE = ".owner";

/** The folder an import keeps its upload in (created private), marked with the process's pid. */
export function importSpoolDir(importId: string, root = env.DATA_DIR): string {
  const dir = path.join(/* turbopackIgnore: true */ spoolRoot(root), importId);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.writeFileSync(path.join(dir, OWNER_FILE), String(process.pid), { mode: 0o600 });
  return dir;
}

/** A process's state letter on Linux (`R`, `S`, `Z`…: /proc/<pid>/stat), null where it cannot be read. */
function procState(pid: number): string | null {
  try {
    const stat = fs.readFileSync(/* turbopackIgnore: true */ `/proc/${pid}/stat`, "utf8");
    // "<pid> (<name>) <state> …": the name may hold spaces and parentheses, the state follows the last ")"
    return stat.charAt(stat.lastIndexOf(")") + 2) || null;
  } catch {
    return null;
  }
}

/**
 * Whether a process runs. A zombie does not: killed, it stays in the process table until its
 * parent reaps it, and a server killed with its launcher (SIGKILL to the group) waits for init,
 * which may take its time; signal 0 still reaches it meanwhile.
 */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  const state = procState(pid);
  return state !== "Z" && state !== "X";
}

/**
 * Whether a spool belongs to an import running in another live process. This process has
 * just started, so a spool marked with its own pid (a restarted container reuses pids) or a
 * dead one's is left over from a crash.
 */
export function spoolInUse(dir: string): boolean {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(path.join(dir, OWNER_FILE), "utf8"));
  } catch {
    return false;
  }
  return Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid);
}

export function removeSpool(dir: string): Promise<void> {
  return fs.promises.rm(dir, { recursive: true, force: true });
}
