import "server-only";
import { env } from "@/lib/env.mjs";
import { logger } from "@/lib/log";
import { announceSetupCode } from "@/lib/auth/setup-code";
import { startDailyBackups } from "@/lib/db/backup-schedule";
import { startScheduler } from "@/lib/sync/scheduler";
import { startAlertWorker } from "@/lib/alerts/service";

// The process's background work, started once by instrumentation.ts register():
// - the sync scheduler (backfills, polls, webhook notifications, the personal_info snapshot,
//   and the upkeep of the webhook subscriptions, which its housekeeping queues);
// - the alert worker (rules after each person's sync, digests on their schedule, deliveries);
// - the daily backup;
// - the first owner's setup code, printed in the log while the instance has no owner.
// Tests never come here: each starts what it exercises (a Scheduler of its own, runDailyBackupIfDue).

const STARTED = Symbol.for("ringside.backgroundStarted");
const flags = globalThis as unknown as Record<symbol, boolean | undefined>;

export async function startBackgroundWork(): Promise<void> {
  // `next build` loads the server code to collect pages: nothing runs then.
  if (flags[STARTED] || process.env.NEXT_PHASE === "phase-production-build") return;
  flags[STARTED] = true;
  // Alerts are evaluated after each person's sync; SYNC_DISABLED stops both.
  const alerts = env.SYNC_DISABLED ? null : startAlertWorker();
  const scheduler = alerts ? startScheduler({ onSynced: (userId) => alerts.markSynced(userId) }) : null;
  const backups = startDailyBackups();
  logger.info({ scheduler: Boolean(scheduler), alerts: Boolean(alerts), dailyBackup: backups }, "background work started");
  await announceSetupCode();
}
