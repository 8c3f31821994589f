import "server-only";
import { env } from "@/lib/env.mjs";
import { logger } from "@/lib/log";
import { announceSetupCode } from "@/lib/auth/setup-code";
import { startDailyBackups } from "@/lib/db/backup-schedule";
import { startScheduler } from "@/lib/sync/scheduler";
import { startAlertWorker } from "@/lib/services/alerts";
import { processSlot } from "@/lib/process-singleton";
import { dbProvider, prisma } from "@/lib/db/prisma";
import { sweepImports } from "@/lib/import/sweep";
import { notifyDataChange } from "@/lib/db/data-changes";
import { startHomeAssistantPublisher } from "@/lib/services/home-assistant-publisher";

// The process's background work, started once by instrumentation.ts register():
// - the sync scheduler (backfills, polls, webhook notifications, the personal_info snapshot,
//   and the upkeep of the webhook subscriptions, which its housekeeping queues);
// - the alert worker (rules after each person's sync, digests on their schedule, deliveries);
// - the daily backup;
// - the first owner's setup code, printed in the log while the instance has no owner;
// - the Home Assistant publisher (MQTT_URL set), one per installation (a lease);
// - before them, the sweep of what a stop left of an import (lib/import/sweep.ts).
// ROLE decides which of them this process runs (backgroundPlan). Tests never come here: each
// starts what it exercises (a Scheduler of its own, runDailyBackupIfDue).

const started = processSlot<true>("backgroundStarted");
const running = processSlot<{ stop(): Promise<void>; wake(): void }>("backgroundRunning");

/** The background work a process with this role and these settings runs. */
export function backgroundPlan(opts: { role: typeof env.ROLE; syncDisabled: boolean; sharedDatabase?: boolean; mqtt?: boolean }) {
  const works = opts.role !== "web";
  return {
    // Alerts are evaluated after each person's sync; SYNC_DISABLED stops both.
    sync: works && !opts.syncDisabled,
    dailyBackup: works,
    // with a broker (MQTT_URL): of all the processes that run background work, the lease's holder publishes
    homeAssistant: works && Boolean(opts.mqtt),
    // The setup code is for the person signing in, through a process that serves pages.
    setupCode: opts.role !== "worker",
    // A worker beside web processes picks up the jobs they queue (they cannot wake it); so does
    // any process on PostgreSQL, where another process may have queued them (in bench:scale a
    // second process idling 15 s did a fifth of the first one's work).
    idleMs: opts.role === "worker" || (works && opts.sharedDatabase) ? 2_000 : undefined,
  };
}

export async function startBackgroundWork(): Promise<void> {
  // `next build` loads the server code to collect pages: nothing runs then.
  if (started.get() || process.env.NEXT_PHASE === "phase-production-build") return;
  started.set(true);
  // what a stop left of an import (a spool, a state "checking"): before any request
  await sweepImports().catch((err: unknown) => logger.warn({ err: err instanceof Error ? err.message : String(err) }, "import sweep failed"));
  const plan = backgroundPlan({
    role: env.ROLE,
    syncDisabled: env.SYNC_DISABLED,
    sharedDatabase: dbProvider(prisma()) === "postgresql",
    mqtt: env.MQTT !== null,
  });
  const alerts = plan.sync ? startAlertWorker() : null;
  const onSynced = (userId: string) => {
    alerts?.markSynced(userId);
    // the last sync's time changed, whether or not any data did: the publisher (here or in another process) shows it
    if (env.MQTT) notifyDataChange(userId).catch(() => undefined);
  };
  const scheduler = alerts ? startScheduler({ onSynced, idleMs: plan.idleMs }) : null;
  const backups = plan.dailyBackup && startDailyBackups();
  const publisher =
    plan.homeAssistant && env.MQTT
      ? await startHomeAssistantPublisher({
          broker: { url: env.MQTT.url, username: env.MQTT.username, password: env.MQTT.password, clientId: env.MQTT.clientId },
          topics: { baseTopic: env.MQTT.baseTopic, discoveryPrefix: env.MQTT.discoveryPrefix },
        }).catch((err: unknown) => {
          logger.error({ err: err instanceof Error ? err.name : "error" }, "home assistant publisher could not start");
          return null;
        })
      : null;
  running.set({
    // no new job is claimed, no alert sent; the jobs in flight end at their next page (each page
    // is written with its checkpoint, so whatever is cut short resumes there)
    stop: async () => {
      await Promise.allSettled([scheduler?.stop(), alerts?.stop(), publisher?.stop()]);
    },
    wake: () => {
      scheduler?.wake();
      alerts?.wake();
      publisher?.resync();
    },
  });
  logger.info(
    { role: env.ROLE, scheduler: Boolean(scheduler), alerts: Boolean(alerts), dailyBackup: backups, homeAssistant: Boolean(publisher) },
    "background work started",
  );
  if (plan.setupCode) await announceSetupCode();
}

/** Looks again now (the database is back after an outage). */
export function wakeBackgroundWork(): void {
  running.get()?.wake();
}

/**
 * Stops the background work for a shutdown: nothing new starts; what is in flight gets up to
 * `graceMs` to finish (a page that does not is not committed and is fetched again after the
 * restart, from its checkpoint).
 */
export async function stopBackgroundWork(graceMs: number): Promise<"stopped" | "cut"> {
  const work = running.get();
  if (!work) return "stopped";
  let timer: NodeJS.Timeout | undefined;
  const cut = new Promise<"cut">((resolve) => {
    timer = setTimeout(() => resolve("cut"), graceMs);
    timer.unref();
  });
  try {
    return await Promise.race([work.stop().then(() => "stopped" as const), cut]);
  } finally {
    clearTimeout(timer);
  }
}
