import fs from "node:fs";
import path from "node:path";

/** The file path of a `file:` SQLite URL, resolved against the working directory. */
export function sqlitePath(databaseUrl: string): string {
  const p = databaseUrl.replace(/^file:/, "");
  return path.resolve(/*turbopackIgnore: true*/ process.cwd(), p);
}

/** Creates the directory that holds the SQLite file (mode 0700). */
export function ensureDataDir(databaseUrl: string): void {
  fs.mkdirSync(path.dirname(sqlitePath(databaseUrl)), { recursive: true, mode: 0o700 });
}
