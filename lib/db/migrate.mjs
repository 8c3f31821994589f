// @ts-check
// Applies pending migrations from prisma/migrations to the SQLite file, compatible with
// Prisma's `_prisma_migrations` bookkeeping (same table, sha256 checksums), so that
// `prisma migrate status` agrees. Used by `npm start`, which must not need the Prisma CLI
// (the production image has no dev dependencies). Plain JS: runs before anything is built.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { openSqlite } from "./sqlite.mjs";

const HISTORY_DDL = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    TEXT PRIMARY KEY NOT NULL,
    "checksum"              TEXT NOT NULL,
    "finished_at"           DATETIME,
    "migration_name"        TEXT NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        DATETIME,
    "started_at"            DATETIME NOT NULL DEFAULT current_timestamp,
    "applied_steps_count"   INTEGER UNSIGNED NOT NULL DEFAULT 0
)`;

/**
 * @param {string} migrationsDir
 * @returns {{ name: string, sql: string, checksum: string }[]}
 */
export function readMigrations(migrationsDir) {
  return fs
    .readdirSync(migrationsDir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(migrationsDir, d.name, "migration.sql")))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const sql = fs.readFileSync(path.join(migrationsDir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: crypto.createHash("sha256").update(sql).digest("hex") };
    });
}

/**
 * The migrations not yet applied to the file (all of them for a new or empty file).
 * @param {string} file
 * @param {string} migrationsDir
 */
export function pendingMigrations(file, migrationsDir) {
  const all = readMigrations(migrationsDir);
  if (!fs.existsSync(file)) return all;
  const db = openSqlite(file, { readonly: true, fileMustExist: true });
  try {
    const hasTable = db.prepare("SELECT 1 FROM sqlite_master WHERE type='table' AND name='_prisma_migrations'").get();
    if (!hasTable) return all;
    const done = new Set(
      db
        .prepare("SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL")
        .all()
        .map((r) => /** @type {{migration_name: string}} */ (r).migration_name),
    );
    return all.filter((m) => !done.has(m.name));
  } finally {
    db.close();
  }
}

/**
 * Applies every pending migration, each in its own write transaction; one that another process
 * applied meanwhile is skipped. Returns the names this call applied.
 * @param {string} file
 * @param {string} migrationsDir
 */
export function applyPendingMigrations(file, migrationsDir) {
  const pending = pendingMigrations(file, migrationsDir);
  if (pending.length === 0) return [];
  const db = openSqlite(file, { timeoutMs: 10_000, forMigrations: true });
  try {
    db.exec(HISTORY_DDL);
    const insert = db.prepare(
      `INSERT INTO _prisma_migrations (id, checksum, finished_at, migration_name, logs, rolled_back_at, started_at, applied_steps_count)
       VALUES (?, ?, ?, ?, NULL, NULL, ?, 1)`,
    );
    const recorded = db.prepare("SELECT 1 FROM _prisma_migrations WHERE migration_name = ? AND finished_at IS NOT NULL AND rolled_back_at IS NULL");
    /** @type {string[]} */
    const applied = [];
    for (const m of pending) {
      const started = new Date().toISOString();
      // Under the write lock (IMMEDIATE), looked at again: another process starting at the same
      // time (ROLE=web beside ROLE=worker) may have applied it meanwhile.
      const ran = db
        .transaction(() => {
          if (recorded.get(m.name)) return false;
          db.exec(m.sql);
          insert.run(crypto.randomUUID(), m.checksum, new Date().toISOString(), m.name, started);
          return true;
        })
        .immediate();
      if (ran) applied.push(m.name);
    }
    return applied;
  } finally {
    db.close();
  }
}
