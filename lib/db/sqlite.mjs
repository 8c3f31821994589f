// @ts-check
// The one way Ringside opens its SQLite file: the file a DATABASE_URL names, its directory
// (0700), and the connection settings every connection gets — the app's (lib/db/client.ts),
// the backup and migration commands (lib/db/backup.mjs, lib/db/migrate.mjs), the test databases
// and the tests' Prisma client (lib/test/prisma.ts). Plain JS so the command-line tools, which run
// before anything is built, use it too.
//
// PostgreSQL's twin is lib/db/postgres.ts (its pool) with lib/db/migrate-postgres.mjs. Queries go
// through Prisma Client (lib/db/prisma.ts), the sync's hot writes through the ingest store
// (lib/db/ingest), whose statements stand in both databases' words side by side.
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";

/** How long a connection waits for another's write lock before failing (ms). */
export const BUSY_TIMEOUT_MS = 5_000;

/**
 * Set on every read-write connection. WAL lets readers and the one writer work at once (and
 * persists in the file); NORMAL is durable with WAL except for the last transactions on power
 * loss; foreign keys are off by default in SQLite.
 */
export const PRAGMAS = ["journal_mode = WAL", "synchronous = NORMAL", "foreign_keys = ON"];

/** The PRAGMAs as one script (for drivers that take SQL, such as Prisma's adapter). */
export function pragmaScript() {
  return PRAGMAS.map((p) => `PRAGMA ${p};`).join(" ");
}

/**
 * The file path of a `file:` SQLite URL, resolved against the working directory.
 * @param {string} databaseUrl
 */
export function sqliteFile(databaseUrl) {
  // a PostgreSQL URL is never taken for a file name (a mistake would leave files named after it)
  if (/^(?!file:)[a-z][a-z0-9+.-]*:\/\//i.test(databaseUrl)) throw new Error("DATABASE_URL is not a SQLite file URL");
  return path.resolve(/*turbopackIgnore: true*/ process.cwd(), databaseUrl.replace(/^file:/, ""));
}

/**
 * Creates the directory that holds the SQLite file (mode 0700).
 * @param {string} file
 */
export function ensureDatabaseDir(file) {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
}

/**
 * Opens a connection with Ringside's settings. Read-only connections (backups, checks) skip
 * the PRAGMAs that write. `forMigrations` leaves foreign keys off, as SQLite's recipe for
 * changing a table requires (with them on, dropping a parent table deletes its children).
 * @param {string} file
 * @param {{ readonly?: boolean, fileMustExist?: boolean, timeoutMs?: number, forMigrations?: boolean }} [opts]
 * @returns {import("better-sqlite3").Database}
 */
export function openSqlite(file, opts = {}) {
  if (!opts.readonly) ensureDatabaseDir(file);
  const db = new Database(file, { readonly: opts.readonly ?? false, fileMustExist: opts.fileMustExist ?? false, timeout: opts.timeoutMs ?? BUSY_TIMEOUT_MS });
  if (!opts.readonly) db.exec(pragmaScript());
  if (opts.forMigrations) db.exec("PRAGMA foreign_keys = OFF;");
  return db;
}
