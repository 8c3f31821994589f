#!/usr/bin/env node
// @ts-check
// `npm run backup` — an online backup of the database (safe while Ringside runs) into
// BACKUP_DIR (default DATA_DIR/backups), named ringside-manual-<UTC stamp>.db.
// `npm run restore -- <backup file>` — restores it (stop Ringside first); the current file
// is kept beside it as ringside.db.before-restore-<stamp>.
import path from "node:path";
import { backupDatabase, restoreDatabase } from "./backup.mjs";
import { sqliteFile } from "./sqlite.mjs";
import { loadDotenv } from "../load-dotenv.mjs";
import { stdioState } from "../process.mjs";

// a closed stdout (`npm run backup | head`) never turns a written backup into a crash
stdioState();
loadDotenv();
let env;
try {
  ({ env } = await import("../env.mjs"));
} catch (e) {
  process.stderr.write(`${/** @type {Error} */ (e).message}\n`);
  process.exit(1);
}
if (/^postgres(ql)?:\/\//.test(env.DATABASE_URL)) {
  console.error("DATABASE_URL is a PostgreSQL database: back it up with pg_dump and restore with pg_restore (see the README's Backup section).");
  process.exit(1);
}
const dbFile = sqliteFile(env.DATABASE_URL);
const [command, arg] = process.argv.slice(2);

try {
  if (command === "backup") {
    const file = await backupDatabase(dbFile, path.resolve(arg ?? env.BACKUP_DIR), "manual");
    console.log(`Backup written: ${file}`);
  } else if (command === "restore") {
    if (!arg) throw new Error("Usage: npm run restore -- <backup file>");
    restoreDatabase(path.resolve(arg), dbFile);
    console.log(`Restored ${arg} into ${dbFile}. Start Ringside again.`);
  } else {
    throw new Error("Usage: backup-cli.mjs backup [dir] | restore <file>");
  }
} catch (e) {
  console.error(/** @type {Error} */ (e).message);
  process.exit(1);
}
