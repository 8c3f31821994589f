import "server-only";
import { clock } from "@/lib/clock";
import fs from "node:fs";
import path from "node:path";
import { env } from "@/lib/env.mjs";
import { logger } from "@/lib/log";
import { sqliteFile } from "@/lib/db/sqlite.mjs";
import { backupDatabase, backupStamp, pruneBackups } from "@/lib/db/backup.mjs";
import { claimLease } from "@/lib/db/queries/app-settings";
import { dbProvider, prisma } from "@/lib/db/prisma";
import { processSlot } from "@/lib/process-singleton";

// The daily backup: once a day, in the hour BACKUP_HOUR (server time), an online backup
// into BACKUP_DIR named ringside-daily-<stamp>.db, keeping the newest BACKUP_KEEP. Started
// with the rest of the background work at server start (lib/server/background.ts). Several
// processes on one database take turns through a lease: one of them takes the day's backup.
// SQLite only: a PostgreSQL database is backed up by its operator (pg_dump, README).

const CHECK_EVERY_MS = 5 * 60_000;
/** How long a process holds the backup lease: longer than a backup of a large file takes. */
const BACKUP_LEASE_MS = 30 * 60_000;
const PROCESS_ID = `${process.pid}-${Math.random().toString(36).slice(2, 10)}`;

/** The server's local calendar day of an instant (BACKUP_HOUR is an hour of that day). */
function localDay(d: Date): string {
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}

/** Whether a daily backup was taken on the server's local day of `now` (its name's stamp is UTC). */
function hasBackupForDay(dir: string, now: Date): boolean {
  if (!fs.existsSync(dir)) return false;
  const day = localDay(now);
  return fs.readdirSync(dir).some((f) => {
    const at = f.startsWith("ringside-daily-") ? backupStamp(f) : null;
    return at !== null && localDay(at) === day;
  });
}

/** Takes today's backup if it is due (the hour has come and none exists yet). Returns its path. */
export async function runDailyBackupIfDue(
  now = clock.date(),
  opts = { hour: env.BACKUP_HOUR, dir: env.BACKUP_DIR, keep: env.BACKUP_KEEP },
): Promise<string | null> {
  if (opts.hour < 0 || now.getHours() < opts.hour) return null;
  const dir = path.resolve(opts.dir);
  if (hasBackupForDay(dir, now)) return null;
  if (!(await claimLease("daily-backup", PROCESS_ID, BACKUP_LEASE_MS, now.getTime()))) return null;
  const file = await backupDatabase(sqliteFile(env.DATABASE_URL), dir, "daily", now);
  const pruned = pruneBackups(dir, opts.keep, "daily");
  logger.info({ backup: path.basename(file), pruned: pruned.length }, "daily backup taken");
  return file;
}

const timer = processSlot<NodeJS.Timeout>("backupTimer");

/** Checks every few minutes whether today's backup is due. Returns false when BACKUP_HOUR turns it off. */
export function startDailyBackups(): boolean {
  if (env.BACKUP_HOUR < 0) return false;
  if (dbProvider(prisma()) === "postgresql") {
    logger.info({}, "daily backups are pg_dump's on PostgreSQL (see the README): BACKUP_HOUR is not used");
    return false;
  }
  if (timer.get()) return true;
  const check = () => {
    runDailyBackupIfDue().catch((err: unknown) => logger.error({ err: err instanceof Error ? err.message : String(err) }, "daily backup failed"));
  };
  timer.set(setInterval(check, CHECK_EVERY_MS).unref());
  setTimeout(check, 10_000).unref();
  return true;
}
