// @ts-check
// Online SQLite backups (safe while the app writes: `VACUUM INTO` copies one consistent
// snapshot inside a single read transaction, and in WAL mode readers never block the
// writer; the page-by-page backup API would restart on every concurrent write), retention,
// and restore. Used by `npm run backup`, by `npm start`
// before it migrates, and by the daily scheduled backup.
import fs from "node:fs";
import path from "node:path";
import { openSqlite } from "./sqlite.mjs";

/** @param {Date} d */
function stamp(d) {
  return d
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
}

/**
 * The instant a backup's name was stamped with (ringside-<label>-<UTC stamp>.db), or null.
 * @param {string} name
 * @returns {Date | null}
 */
export function backupStamp(name) {
  const m = /-(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z\.db$/.exec(name);
  if (!m) return null;
  const [y, mo, d, h, mi, se] = m.slice(1).map(Number);
  return new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(se)));
}

/**
 * Takes an online backup of `file` into `dir`, named ringside-<label>-<UTC stamp of `at`>.db.
 * @param {string} file
 * @param {string} dir
 * @param {string} [label]
 * @param {Date} [at] when it is taken (the scheduled backup passes the app's clock)
 * @returns {Promise<string>} the backup's path
 */
export async function backupDatabase(file, dir, label = "backup", at = new Date()) {
  if (!fs.existsSync(file)) throw new Error(`No database at ${file}`);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const target = path.join(dir, `ringside-${label}-${stamp(at)}.db`);
  const tmp = `${target}.partial`;
  fs.rmSync(tmp, { force: true });
  const db = openSqlite(file, { readonly: true, fileMustExist: true, timeoutMs: 10_000 });
  try {
    db.prepare("VACUUM INTO ?").run(tmp);
  } finally {
    db.close();
  }
  // A backup is complete only when it passes an integrity check; then it gets its name.
  const check = openSqlite(tmp, { readonly: true, fileMustExist: true });
  try {
    const result = check.pragma("integrity_check", { simple: true });
    if (result !== "ok") throw new Error(`Backup failed its integrity check: ${String(result)}`);
  } finally {
    check.close();
  }
  fs.renameSync(tmp, target);
  fs.chmodSync(target, 0o600);
  return target;
}

/**
 * Keeps the newest `keep` backups with the given label, deletes older ones.
 * @param {string} dir
 * @param {number} keep
 * @param {string} [label]
 * @returns {string[]} deleted paths
 */
export function pruneBackups(dir, keep, label = "daily") {
  if (!fs.existsSync(dir)) return [];
  const prefix = `ringside-${label}-`;
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.startsWith(prefix) && f.endsWith(".db"))
    .sort()
    .reverse();
  const doomed = files.slice(keep).map((f) => path.join(dir, f));
  for (const f of doomed) fs.rmSync(f, { force: true });
  return doomed;
}

/**
 * Restores a backup file as the database (the app must be stopped). The current database,
 * if any, is kept beside it as ringside.db.before-restore-<stamp>.
 * @param {string} backupFile
 * @param {string} file
 */
export function restoreDatabase(backupFile, file) {
  if (!fs.existsSync(backupFile)) throw new Error(`No backup at ${backupFile}`);
  const probe = openSqlite(backupFile, { readonly: true, fileMustExist: true });
  try {
    const ok = probe.pragma("integrity_check", { simple: true });
    if (ok !== "ok") throw new Error(`The backup fails its integrity check: ${String(ok)}`);
  } finally {
    probe.close();
  }
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  if (fs.existsSync(file)) fs.renameSync(file, `${file}.before-restore-${stamp(new Date())}`);
  for (const suffix of ["-wal", "-shm"]) fs.rmSync(file + suffix, { force: true });
  fs.copyFileSync(backupFile, file);
  fs.chmodSync(file, 0o600);
}
