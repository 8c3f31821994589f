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

/** @param {string} text */
const sha256 = (text) => crypto.createHash("sha256").update(text).digest("hex");

/**
 * @param {string} migrationsDir
 * @returns {{ name: string, sql: string, checksum: string, file: string }[]}
 */
export function readMigrations(migrationsDir) {
  return fs
    .readdirSync(migrationsDir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(migrationsDir, d.name, "migration.sql")))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const file = path.join(migrationsDir, name, "migration.sql");
      const sql = fs.readFileSync(file, "utf8");
      return { name, sql, checksum: sha256(sql), file };
    });
}

/**
 * Whether a migration's script is the one whose checksum was recorded when it ran. Line endings
 * do not count (a checkout with CRLF, or one with LF of a file applied from a CRLF checkout):
 * the script matches as it is, with every CR removed (Prisma Migrate's own rule), or with
 * every line ending made CRLF. Any other byte changed, whitespace and comments included, is an
 * edit: the runner cannot tell a harmless edit from one that changes what the script did.
 * @param {string} sql
 * @param {string} recorded
 */
export function scriptMatchesChecksum(sql, recorded) {
  const lf = sql.replace(/\r/g, "");
  return [sql, lf, lf.replace(/\n/g, "\r\n")].some((text) => sha256(text) === recorded);
}

/** A start refused because of the database's migrations: the message says what and what to do. */
export class MigrationCheckError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = "MigrationCheckError";
  }
}

/**
 * Holds the migrations a database records as applied to the migration files: each must still be
 * there, unedited (scriptMatchesChecksum). Throws a MigrationCheckError naming the first file
 * that is not, before anything is applied.
 * @param {ReadonlyArray<{ name: string, checksum: string }>} applied the database's finished migrations
 * @param {ReturnType<typeof readMigrations>} all the migration files
 * @param {string} migrationsDir
 */
export function checkAppliedMigrations(applied, all, migrationsDir) {
  const files = new Map(all.map((m) => [m.name, m]));
  const shown = (/** @type {string} */ name) => path.relative(process.cwd(), path.join(migrationsDir, name, "migration.sql"));
  for (const a of applied) {
    const m = files.get(a.name);
    if (!m)
      throw new MigrationCheckError(
        `The database has migration ${a.name} applied, which this version of Ringside does not have (${shown(a.name)}): ` +
          "it was made by a newer version, or the migration's folder was renamed or deleted. Start that version again, " +
          "or restore the backup taken before it migrated (docs/operations.md, Updating). Nothing was changed.",
      );
    if (!scriptMatchesChecksum(m.sql, a.checksum))
      throw new MigrationCheckError(
        `${shown(a.name)} was edited after it was applied to this database (its checksum is no longer ` +
          `${a.checksum.slice(0, 12)}…, recorded when it ran): Ringside does not start on an edited migration. ` +
          "Put the file back as it was released (git checkout -- <file>); a change to the schema goes in a new migration. Nothing was changed.",
      );
  }
}

/**
 * The migrations the file records as applied (finished, not rolled back), in name order; none
 * for a new or empty file.
 * @param {string} file
 * @returns {{ name: string, checksum: string }[]}
 */
export function appliedMigrations(file) {
  if (!fs.existsSync(file)) return [];
  const db = openSqlite(file, { readonly: true, fileMustExist: true });
  try {
    const hasTable = db.prepare("SELECT 1 FROM sqlite_master WHERE type='table' AND name='_prisma_migrations'").get();
    if (!hasTable) return [];
    return db
      .prepare("SELECT migration_name, checksum FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name")
      .all()
      .map((r) => {
        const row = /** @type {{ migration_name: string, checksum: string }} */ (r);
        return { name: row.migration_name, checksum: row.checksum };
      });
  } finally {
    db.close();
  }
}

/**
 * The migrations not yet applied to the file (all of them for a new or empty file), after
 * holding the applied ones to their files (checkAppliedMigrations: throws on an edited or
 * unknown one).
 * @param {string} file
 * @param {string} migrationsDir
 */
export function pendingMigrations(file, migrationsDir) {
  const all = readMigrations(migrationsDir);
  const applied = appliedMigrations(file);
  checkAppliedMigrations(applied, all, migrationsDir);
  const done = new Set(applied.map((a) => a.name));
  return all.filter((m) => !done.has(m.name));
}

/**
 * Applies every pending migration, each in its own write transaction; one that another process
 * applied meanwhile is skipped. Returns the names this call applied. Refuses (before applying
 * anything) when an applied migration was edited; a failing migration is rolled back and
 * throws an error naming it (the ones before it stay applied).
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
      let ran;
      try {
        ran = db
          .transaction(() => {
            if (recorded.get(m.name)) return false;
            db.exec(m.sql);
            insert.run(crypto.randomUUID(), m.checksum, new Date().toISOString(), m.name, started);
            return true;
          })
          .immediate();
      } catch (err) {
        throw new Error(`migration ${m.name} failed: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
      }
      if (ran) applied.push(m.name);
    }
    return applied;
  } finally {
    db.close();
  }
}

/**
 * Rows whose foreign key points at no row (`PRAGMA foreign_key_check`): migrations run with
 * foreign keys off (SQLite's recipe for changing a table), so nothing else would notice one that
 * left a reference dangling. Each with its table, rowid, the table it points to and the values
 * of its key's columns.
 * @param {string} file
 * @returns {{ table: string, rowid: number | null, parent: string, key: Record<string, unknown> }[]}
 */
export function danglingForeignKeys(file) {
  const db = openSqlite(file, { readonly: true, fileMustExist: true });
  try {
    const found = /** @type {{ table: string, rowid: number | null, parent: string, fkid: number }[]} */ (db.pragma("foreign_key_check"));
    return found.map((v) => {
      const q = (/** @type {string} */ n) => `"${n.replaceAll('"', '""')}"`;
      const columns = /** @type {{ id: number, from: string }[]} */ (db.pragma(`foreign_key_list(${q(v.table)})`))
        .filter((c) => c.id === v.fkid)
        .map((c) => c.from);
      /** @type {Record<string, unknown>} */
      let key = {};
      if (v.rowid !== null && columns.length > 0) {
        const row = db.prepare(`SELECT ${columns.map(q).join(", ")} FROM ${q(v.table)} WHERE rowid = ?`).get(v.rowid);
        key = /** @type {Record<string, unknown>} */ (row ?? {});
      }
      return { table: v.table, rowid: v.rowid, parent: v.parent, key };
    });
  } finally {
    db.close();
  }
}

/**
 * Throws a MigrationCheckError naming the dangling foreign keys (the first five, and how many in
 * all) when the file has any.
 * @param {string} file
 */
export function checkForeignKeys(file) {
  const found = danglingForeignKeys(file);
  if (found.length === 0) return;
  const named = found.slice(0, 5).map((v) => {
    const key = Object.entries(v.key)
      .map(([k, val]) => `${k} = ${JSON.stringify(val)}`)
      .join(", ");
    return `table "${v.table}" row ${v.rowid ?? "?"}${key ? ` (${key})` : ""} points to no row of "${v.parent}"`;
  });
  throw new MigrationCheckError(
    `Dangling foreign key${found.length > 1 ? "s" : ""} in the database after migrating: ${named.join("; ")}` +
      `${found.length > named.length ? `; ${found.length} in all` : ""}. A migration left these references without the rows they point to.`,
  );
}
