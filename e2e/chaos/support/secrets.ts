// "No token readable": looks for every secret (as issued, and base64/URL-encoded) in files —
// the SQLite database with its WAL and shared memory, backups, and captured log files.
import fs from "node:fs";
import path from "node:path";
import { CHAOS_LOG_DIR } from "./env";

export type Leak = { secret: string; file: string };

function variants(secret: string): string[] {
  return [...new Set([secret, encodeURIComponent(secret), Buffer.from(secret).toString("base64"), Buffer.from(secret).toString("base64url")])];
}

/** Files under a directory (recursively), or the file itself. */
export function filesUnder(p: string): string[] {
  if (!fs.existsSync(p)) return [];
  if (fs.statSync(p).isFile()) return [p];
  return fs.readdirSync(p, { withFileTypes: true }).flatMap((d) => filesUnder(path.join(p, d.name)));
}

/** Secrets that occur in any of the files (secrets shorter than 12 characters are not looked for). */
export function findLeaks(secrets: Iterable<string>, files: string[]): Leak[] {
  const leaks: Leak[] = [];
  const needles = [...new Set(secrets)].filter((s) => s.length >= 12);
  for (const file of files) {
    if (!fs.existsSync(file)) continue;
    const bytes = fs.readFileSync(file);
    for (const s of needles) {
      if (variants(s).some((v) => bytes.indexOf(Buffer.from(v)) !== -1))
        leaks.push({ secret: `${s.slice(0, 4)}…(${s.length})`, file: path.relative(process.cwd(), file) });
    }
  }
  return leaks;
}

/** The log lines captured in this test process (see setup.ts). */
export function inProcessLogFile(): string {
  return process.env.CHAOS_INPROC_LOG ?? path.join(CHAOS_LOG_DIR, `inproc-${process.pid}.log`);
}

/** Number of lines in the captured log files (the figure the README reports). */
export function countLines(files: string[]): number {
  let n = 0;
  for (const f of files) if (fs.existsSync(f)) n += fs.readFileSync(f, "utf8").split("\n").filter(Boolean).length;
  return n;
}
