import "server-only";
import { env } from "@/lib/env.mjs";
import { logger } from "@/lib/log";
import { announceSetupCode } from "@/lib/auth/setup-code";
import { startDailyBackups } from "@/lib/db/backup-schedule";
import { startScheduler } from "@/lib/sync/scheduler";

// The process's background work, started once by instrumentation.ts register():
// - the sync scheduler (backfills, polls, webhook notifications, the personal_info snapshot,
//   and the upkeep of the webhook subscriptions, which its housekeeping queues);
// - the daily backup;
// - the first owner's setup code, printed in the log while the instance has no owner.
// Tests never come here: each starts what it exercises (a Scheduler of its own, runDailyBackupIfDue).

const STARTED = Symbol.for("ringside.backgroundStarted");
const flags = globalThis as unknown as Record<symbol, boolean | undefined>;

export async function startBackgroundWork(): Promise<void> {
  // `next build` loads the server code to collect pages: nothing runs then.
  if (flags[STARTED] || process.env.NEXT_PHASE === "phase-production-build") return;
  flags[STARTED] = true;
  const scheduler = env.SYNC_DISABLED ? null : startScheduler();
  const backups = startDailyBackups();
  logger.info({ scheduler: Boolean(scheduler), dailyBackup: backups }, "background work started");
  await announceSetupCode();
}
