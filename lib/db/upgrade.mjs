// @ts-check
// What `npm start` does to the database before the server starts (lib/server/start.mjs), in one
// place that the tests and the upgrade suite (e2e/upgrade) run as well:
// - SQLite: holds the applied migrations to their files (an edited or unknown one: no start);
//   when some are pending, checks the disk has room for a backup, takes it
//   (BACKUP_DIR/ringside-pre-migrate-<time>.db) and applies them; checks foreign keys; after
//   migrations that succeeded, keeps the newest BACKUP_KEEP_PRE_MIGRATE backups of that kind.
// - PostgreSQL: the same checks and the migrations under the advisory lock
//   (lib/db/migrate-postgres.mjs); a copy before migrating is the operator's pg_dump.
// A refusal is a StartRefusal whose message is what start prints: what is wrong, what was
// changed, what to do (after a failed migration, the one `npm run restore` line that goes back).
import fs from "node:fs";
import path from "node:path";
import { backupDatabase, pruneBackups } from "./backup.mjs";
import { applyPendingMigrations, checkForeignKeys, MigrationCheckError, pendingMigrations } from "./migrate.mjs";

/** A start that must not go on: its message is for the person starting Ringside. */
export class StartRefusal extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = "StartRefusal";
  }
}

/** The label of the backups taken before migrating. */
export const PRE_MIGRATE_LABEL = "pre-migrate";

const MB = 1024 * 1024;
/** Free disk kept beyond the backup itself: 64 MB, or a tenth of the database when that is more. */
export function backupMargin(/** @type {number} */ databaseBytes) {
  return Math.max(64 * MB, Math.ceil(databaseBytes / 10));
}

/** @param {string} dir */
async function statfsFree(dir) {
  const s = await fs.promises.statfs(dir);
  return Number(s.bavail) * Number(s.bsize);
}

/** The size of the database as a backup copies it: the file and its WAL. */
function databaseBytes(/** @type {string} */ file) {
  const size = (/** @type {string} */ f) => (fs.existsSync(f) ? fs.statSync(f).size : 0);
  return size(file) + size(`${file}-wal`);
}

/**
 * Refuses (StartRefusal) when the disk of `backupDir` has no room for a backup of `file` plus
 * the margin; when the backups are on another disk than the database, that one keeps the margin
 * free for the migrations' own writes.
 * @param {string} file
 * @param {string} backupDir (created when missing)
 * @param {(dir: string) => Promise<number>} freeBytes
 */
export async function ensureRoomForBackup(file, backupDir, freeBytes = statfsFree) {
  fs.mkdirSync(backupDir, { recursive: true, mode: 0o700 });
  const size = databaseBytes(file);
  const margin = backupMargin(size);
  const mb = (/** @type {number} */ n) => Math.ceil(n / MB);
  const free = await freeBytes(backupDir);
  if (free < size + margin)
    throw new StartRefusal(
      `Not enough free disk for the backup npm start takes before migrating: ${backupDir} has ${mb(free)} MB free; ` +
        `the backup needs ${mb(size)} MB and ${mb(margin)} MB are kept free beside it. Nothing was changed: ` +
        `free some space (older backups are in ${backupDir}) or set BACKUP_DIR to a disk with room, then start again.`,
    );
  const dataDir = path.dirname(file);
  if (fs.statSync(dataDir).dev !== fs.statSync(backupDir).dev) {
    const dataFree = await freeBytes(dataDir);
    if (dataFree < margin)
      throw new StartRefusal(
        `Not enough free disk to migrate the database: ${dataDir} has ${mb(dataFree)} MB free, and npm start keeps ${mb(margin)} MB free ` +
          "for the migrations. Nothing was changed: free some space, then start again.",
      );
  }
}

/** The one line that puts the database back as the backup holds it. */
export function restoreLine(/** @type {string} */ backup) {
  const arg = /^[\w./@:+-]+$/.test(backup) ? backup : `'${backup.replaceAll("'", "'\\''")}'`;
  return `To put the database back as it was before this start: stop Ringside, then run  npm run restore -- ${arg}`;
}

/**
 * @typedef {{ applied: string[], backup: string | null, pruned: string[] }} SqliteUpgrade
 */

/**
 * Checks, backs up and migrates a SQLite database as `npm start` does.
 * @param {{ file: string, migrationsDir: string, backupDir: string, keepBackups: number, freeBytes?: (dir: string) => Promise<number> }} opts
 * @returns {Promise<SqliteUpgrade>}
 */
export async function upgradeSqlite(opts) {
  const { file, migrationsDir, backupDir } = opts;
  let pending;
  try {
    pending = pendingMigrations(file, migrationsDir);
  } catch (e) {
    if (e instanceof MigrationCheckError) throw new StartRefusal(e.message);
    throw e;
  }
  /** @type {string | null} */
  let backup = null;
  if (pending.length > 0 && fs.existsSync(file) && fs.statSync(file).size > 0) {
    await ensureRoomForBackup(file, backupDir, opts.freeBytes);
    backup = await backupDatabase(file, backupDir, PRE_MIGRATE_LABEL);
  }
  const andRestore = (/** @type {string} */ message) => (backup ? `${message}\n${restoreLine(backup)}` : message);
  /** @type {string[]} */
  let applied = [];
  if (pending.length > 0) {
    try {
      applied = applyPendingMigrations(file, migrationsDir);
    } catch (e) {
      throw new StartRefusal(
        andRestore(`The database could not be migrated: ${/** @type {Error} */ (e).message} (rolled back; any migration before it stays applied).`),
      );
    }
  }
  if (fs.existsSync(file)) {
    try {
      checkForeignKeys(file);
    } catch (e) {
      if (!(e instanceof MigrationCheckError)) throw e;
      throw new StartRefusal(
        andRestore(backup ? e.message : `${e.message} Restore a backup from before them (npm run restore -- <file>), or delete those rows.`),
      );
    }
  }
  const pruned = backup ? pruneBackups(backupDir, opts.keepBackups, PRE_MIGRATE_LABEL) : [];
  return { applied, backup, pruned };
}

/**
 * Checks and migrates a PostgreSQL database as `npm start` does (several processes may run this
 * at once: one migrates, lib/db/migrate-postgres.mjs).
 * @param {{ url: string, migrationsDir: string }} opts
 * @returns {Promise<string[]>} the migrations this call applied
 */
export async function upgradePostgres(opts) {
  // the URL carries a password: name the host and database only
  const u = new URL(opts.url);
  const where = `${u.hostname}:${u.port || 5432}${u.pathname}`;
  try {
    // loaded here: a SQLite start never loads the PostgreSQL driver
    const { applyPendingPostgresMigrations } = await import("./migrate-postgres.mjs");
    return await applyPendingPostgresMigrations(opts.url, opts.migrationsDir);
  } catch (e) {
    const message = /** @type {Error} */ (e).message;
    if (e instanceof MigrationCheckError) throw new StartRefusal(`PostgreSQL database ${where}: ${message}`);
    throw new StartRefusal(
      /^migration \S+ failed/.test(message)
        ? `Cannot migrate the PostgreSQL database ${where} (DATABASE_URL): ${message} (rolled back; any migration before it stays applied).\n` +
            "To go back: stop every Ringside process, restore the pg_dump you took before updating " +
            "(docs/operations.md, Updating), and start the previous version."
        : `Cannot migrate the PostgreSQL database ${where} (DATABASE_URL): ${message}`,
    );
  }
}
