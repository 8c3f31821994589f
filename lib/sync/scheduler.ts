import "server-only";
import { clock } from "@/lib/clock";
import { env } from "@/lib/env.mjs";
import { logger } from "@/lib/log";
import { isSyncCollection, SYNC_COLLECTIONS } from "@/lib/resources";
import {
  claimDueJobs,
  enqueueJob,
  nextJobDueAt,
  postponeJob,
  pruneFinishedJobs,
  recoverInterruptedJobs,
  renewJobLease,
  type JobRow,
} from "@/lib/db/queries/jobs";
import { ensureAndListSyncStates, listRingUsers, listSyncStates, updateSyncState, type ConnectedRingUser } from "@/lib/db/queries/sync-state";
import { readSyncGeneration, SyncStoppedError } from "@/lib/db/queries/sync-fence";
import { personalInfoSyncedAt } from "@/lib/db/queries/ring-documents";
import { findCycleSettings } from "@/lib/db/queries/cycle";
import { CYCLE_RESOURCE } from "@/lib/cycle";
import { pruneWebhookEvents, queuedWebhookWatermark } from "@/lib/db/queries/webhook-events";
import { getSyncEngine, type SyncEngine } from "@/lib/sync/engine";
import { runJob } from "@/lib/sync/jobs";
import { SYNC_CONCURRENCY } from "@/lib/sync/plan";
import { getPollMinutes, WEBHOOK_POLL_MINUTES } from "@/lib/sync/settings";
import { SUBSCRIPTION_CHECK_MS, subscriptionsCheckedAt, webhookCallbackUrl, webhooksActive } from "@/lib/sync/subscriptions";
import { drainWebhookEvents, webhookScanFrom, type WebhookDrainState } from "@/lib/sync/webhooks";
import { processSlot } from "@/lib/process-singleton";
import { backoffDelay } from "@/lib/limits/backoff";
import { noteDatabaseError } from "@/lib/http/outage";

/** After failed ticks (the database away): 1 s doubling to at most TICK_RETRY_MAX_MS, with jitter. */
const TICK_RETRY_MAX_MS = 4_000;

// The in-process scheduler: a timer loop over the durable Job table. One per process
// (lib/process-singleton.ts), started once at server start (lib/server/background.ts, from
// instrumentation.ts) — never during `next build`, never with SYNC_DISABLED; request code only
// wakes it. Jobs carry a lease that is renewed while they run; at start, jobs left
// "running" by a previous process are taken again, so a restart resumes where it stopped.

export type SchedulerOptions = {
  /** jobs running at once (collections are fetched concurrently, bounded) */
  concurrency?: number;
  /** webhook notifications applied at once */
  webhookConcurrency?: number;
  leaseMs?: number;
  /** how often users, polls, snapshots and subscriptions are looked at */
  housekeepingMs?: number;
  /** longest sleep between two looks at the job table */
  idleMs?: number;
  /**
   * Called when a sync of a person's data ended (a backfill, incremental or personal_info job,
   * done or failed, or webhook notifications applied): the alerts worker evaluates their rules.
   */
  onSynced?: (userId: string) => void;
};

const DAY_MS = 86_400_000;
/** Jobs that read a person's data from the ring service (their end is "after a sync"). */
const SYNC_JOB_KINDS = new Set<string>(["backfill", "incremental", "personal_info"]);
const WAKE_DELAY_MS = 20;

export class Scheduler {
  private timer: NodeJS.Timeout | null = null;
  private timerDue = 0;
  private readonly inflight = new Map<number, Promise<void>>();
  private readonly webhookState: WebhookDrainState = { inflight: new Set() };
  private webhookRunning = 0;
  private lastHousekeeping = 0;
  private lastPrune = 0;
  private stopped = true;
  private ticking = false;
  private again = false;
  /** ticks failed in a row (reset by one that works) */
  private failedTicks = 0;
  private housekeepings = 0;
  private readonly concurrency: number;
  private readonly webhookConcurrency: number;
  private readonly leaseMs: number;
  private readonly housekeepingMs: number;
  private readonly idleMs: number;
  private readonly onSynced: ((userId: string) => void) | undefined;

  constructor(
    readonly engine: SyncEngine,
    opts: SchedulerOptions = {},
  ) {
    this.concurrency = opts.concurrency ?? SYNC_CONCURRENCY;
    this.webhookConcurrency = opts.webhookConcurrency ?? 4;
    this.leaseMs = opts.leaseMs ?? env.JOB_LEASE_SECONDS * 1000;
    this.housekeepingMs = opts.housekeepingMs ?? 30_000;
    this.idleMs = opts.idleMs ?? 15_000;
    this.onSynced = opts.onSynced;
  }

  get running(): boolean {
    return !this.stopped;
  }

  /** How many times the periodic duties have run (tests wait on it instead of on time). */
  get housekeepingRuns(): number {
    return this.housekeepings;
  }

  /** Resolves when the jobs running now have finished. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.inflight.values()]);
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    // Before the first look at the table, so an interrupted job is taken up at once.
    void recoverInterruptedJobs()
      .then((recovered) => {
        if (recovered > 0) logger.info({ recovered }, "interrupted sync jobs taken up again");
      })
      .catch((err) => logger.error({ err: err instanceof Error ? err.message : String(err) }, "recovering interrupted jobs failed"))
      .finally(() => this.schedule(0));
  }

  /** Stops taking work; resolves when the jobs already running have finished. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await Promise.allSettled([...this.inflight.values()]);
  }

  /** Look at the job table and the webhook inbox now (new work arrived). */
  wake(): void {
    // Coalesced: a burst of webhooks wakes the loop once, not once per notification.
    if (!this.stopped && !(this.timer && this.timerDue <= clock.now() + WAKE_DELAY_MS)) this.schedule(WAKE_DELAY_MS);
  }

  /** Number of jobs this process is running now. */
  get busy(): number {
    return this.inflight.size + this.webhookRunning;
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerDue = clock.now() + Math.max(0, ms);
    this.timer = setTimeout(
      () => {
        this.timer = null;
        void this.tick();
      },
      Math.max(0, ms),
    );
    this.timer.unref?.();
  }

  private async tick(): Promise<void> {
    if (this.stopped) return;
    if (this.ticking) {
      this.again = true;
      return;
    }
    this.ticking = true;
    let next = this.idleMs;
    try {
      const now = clock.now();
      if (now - this.lastHousekeeping >= this.housekeepingMs) {
        this.lastHousekeeping = now;
        await this.housekeeping(now);
        this.housekeepings++;
      }
      await this.startWebhookDrain();
      const free = this.concurrency - this.inflight.size;
      if (free > 0) {
        const jobs = await claimDueJobs({ now, leaseMs: this.leaseMs, limit: free, excludeIds: [...this.inflight.keys()] });
        // stop() may have come while the claim was on its way: hand the jobs back untouched.
        if (this.stopped) for (const job of jobs) await postponeJob(job.id, clock.now());
        else for (const job of jobs) this.launch(job);
      }
      const due = await nextJobDueAt();
      if (due) next = Math.min(next, Math.max(50, due.getTime() - clock.now()));
      next = Math.min(next, Math.max(50, this.lastHousekeeping + this.housekeepingMs - clock.now()));
      this.failedTicks = 0;
    } catch (err) {
      // an outage is logged once where it is noted; anything else on each failure
      if (!noteDatabaseError(err)) logger.error({ err: err instanceof Error ? err.message : String(err) }, "scheduler tick failed");
      next = backoffDelay(this.failedTicks++, { baseMs: 1_000, maxMs: TICK_RETRY_MAX_MS });
    } finally {
      this.ticking = false;
    }
    if (this.again) {
      this.again = false;
      next = 0;
    }
    this.schedule(next);
  }

  private launch(job: JobRow): void {
    // A person's job is a run of their sync: it starts with their sync generation read now, and
    // stops (its request in flight aborted) when a delete moves it on, here or in another process
    // (the heartbeat looks at it: lib/db/queries/sync-fence.ts).
    const stop = new AbortController();
    const started = job.userId ? readSyncGeneration(job.userId) : Promise.resolve(null);
    const heartbeat = setInterval(
      () => {
        renewJobLease(job.id, clock.now() + this.leaseMs).catch((err) =>
          logger.warn({ jobId: job.id, err: err instanceof Error ? err.message : String(err) }, "job lease renewal failed"),
        );
        if (job.userId) void this.stopIfMoved(job.userId, started, stop);
      },
      Math.max(1_000, this.leaseMs / 3),
    );
    heartbeat.unref?.();
    const p = started
      .then((at) => runJob(this.engine, job, undefined, job.userId ? { generation: at?.generation ?? -1, signal: stop.signal } : {}))
      .catch((err) => logger.error({ jobId: job.id, err: err instanceof Error ? err.message : String(err) }, "job runner crashed"))
      .finally(() => {
        clearInterval(heartbeat);
        this.inflight.delete(job.id);
        if (job.userId && SYNC_JOB_KINDS.has(job.kind)) this.synced(job.userId);
        this.wake();
      });
    this.inflight.set(job.id, p);
  }

  /** Aborts a running job of the person when their sync generation moved past the one it started with (a delete, maybe in another process). */
  private async stopIfMoved(userId: string, started: Promise<{ generation: number } | null>, stop: AbortController): Promise<void> {
    try {
      const [at, now] = await Promise.all([started, readSyncGeneration(userId)]);
      if (!now || now.paused || !at || now.generation !== at.generation) stop.abort(new SyncStoppedError(userId));
    } catch (err) {
      logger.warn({ userId, err: err instanceof Error ? err.message : String(err) }, "could not read the sync generation of a running job");
    }
  }

  private synced(userId: string): void {
    try {
      this.onSynced?.(userId);
    } catch (err) {
      logger.error({ userId, err: err instanceof Error ? err.message : String(err) }, "after-sync hook failed");
    }
  }

  private async startWebhookDrain(): Promise<void> {
    if (this.webhookRunning > 0) return;
    this.webhookRunning++; // taken before the first await: one drain at a time
    let draining = false;
    try {
      const { firstQueuedId, maxId } = await queuedWebhookWatermark(webhookScanFrom(this.webhookState));
      if (firstQueuedId === null) {
        this.webhookState.fromId = Math.max(this.webhookState.fromId ?? 0, maxId + 1);
        return;
      }
      this.webhookState.fromId = firstQueuedId;
      const touched = new Set<string>();
      draining = true;
      void drainWebhookEvents(this.engine, this.webhookState, this.webhookConcurrency, undefined, touched)
        .then((n) => {
          for (const userId of touched) this.synced(userId);
          if (n > 0) this.wake();
        })
        .catch((err) => logger.error({ err: err instanceof Error ? err.message : String(err) }, "webhook drain failed"))
        .finally(() => {
          this.webhookRunning--;
        });
    } finally {
      if (!draining) this.webhookRunning--;
    }
  }

  /**
   * Periodic duties: start the backfill of people who connected while nothing ran (no
   * SyncState yet; the cycle's phases only for people who track their cycle), queue due polls (every SYNC_POLL_MINUTES without webhooks, every 6 h
   * with them), the daily personal_info snapshot, subscription upkeep, pruning. The tick runs it
   * every housekeepingMs (tests run one pass at a time).
   */
  async housekeeping(now: number): Promise<void> {
    const pollMs = ((await webhooksActive(now)) ? Math.max(await getPollMinutes(), WEBHOOK_POLL_MINUTES) : await getPollMinutes()) * 60_000;
    for (const u of await listRingUsers()) {
      try {
        await this.keepPerson(u, now, pollMs);
      } catch (err) {
        // a delete overtook the look at this person: nothing of theirs was queued or created
        if (!(err instanceof SyncStoppedError)) throw err;
      }
    }
    // The inbox's watermark is a hint: once a pass, the next scan looks at the whole inbox again.
    this.webhookState.fromId = 0;
    if (webhookCallbackUrl()) {
      const checked = await subscriptionsCheckedAt();
      if (!checked || now - checked >= SUBSCRIPTION_CHECK_MS) await enqueueJob({ kind: "subscriptions", ifAbsent: true, maxAttempts: 3 });
    }
    if (now - this.lastPrune >= DAY_MS) {
      this.lastPrune = now;
      await pruneFinishedJobs(now - 7 * DAY_MS);
      await pruneWebhookEvents(now - 30 * DAY_MS);
    }
  }

  /**
   * One person's share of the housekeeping, under their sync generation as listed: their sync
   * states made sure of and their due jobs queued, each only while no delete came in between.
   * A person whose sync "Delete all my data" paused is left alone; a disconnected one keeps
   * what the disconnect left (nothing is created for them).
   */
  private async keepPerson(u: ConnectedRingUser, now: number, pollMs: number): Promise<void> {
    if (u.syncPaused) return;
    const generation = u.syncGeneration;
    // Each step writes only when something must change: an idle pass is reads alone (no
    // transaction), for every person every housekeepingMs.
    if (u.status !== "active") {
      const states = u.status === "disconnected" ? await listSyncStates(u.userId) : await ensureAndListSyncStates(u.userId, generation, SYNC_COLLECTIONS);
      for (const s of states)
        if (s.status !== "paused" && s.status !== "not_shared")
          await updateSyncState(u.userId, s.collection, { status: "paused", lastError: "The ring connection needs to be reconnected; syncing is paused." });
      return;
    }
    const states = await ensureAndListSyncStates(u.userId, generation, SYNC_COLLECTIONS);
    // the cycle's phases only while the person tracks their cycle (turning it on queues their backfill)
    const tracksCycle = Boolean((await findCycleSettings(u.userId))?.tracking);
    for (const s of states) {
      if (!isSyncCollection(s.collection) || s.status === "not_shared") continue;
      if (s.collection === CYCLE_RESOURCE && !tracksCycle) continue;
      if (s.status === "paused")
        await updateSyncState(u.userId, s.collection, { status: s.backfillDoneAt ? "idle" : "backfilling", lastError: null }, { resume: true });
      const lastAttempt = s.lastAttemptAt?.getTime() ?? 0;
      if (!s.backfillDoneAt) {
        if (s.status === "error") continue; // a request bug: wait for "Sync now"
        // After a failure, try again at the next poll; otherwise now.
        const runAt = s.lastError && lastAttempt ? Math.max(now, lastAttempt + pollMs) : now;
        await enqueueJob({ kind: "backfill", userId: u.userId, collection: s.collection, runAt, ifAbsent: true, generation });
      } else if (now - lastAttempt >= pollMs) {
        await enqueueJob({ kind: "incremental", userId: u.userId, collection: s.collection, ifAbsent: true, generation });
      }
    }
    const snap = await personalInfoSyncedAt(u.userId);
    if (!snap || now - snap.getTime() >= DAY_MS) await enqueueJob({ kind: "personal_info", userId: u.userId, ifAbsent: true, generation });
  }
}

const running = processSlot<Scheduler>("scheduler");

/** Starts the process's scheduler (at server start only; idempotent). */
export function startScheduler(opts: Pick<SchedulerOptions, "onSynced" | "idleMs"> = {}): Scheduler {
  let scheduler = running.get();
  if (!scheduler) {
    scheduler = new Scheduler(getSyncEngine(), opts);
    running.set(scheduler);
    scheduler.start();
    const webhooks = Boolean(webhookCallbackUrl());
    getPollMinutes().then(
      (pollMinutes) => logger.info({ pollMinutes, webhooks }, "sync scheduler started"),
      () => logger.info({ webhooks }, "sync scheduler started"),
    );
  }
  return scheduler;
}

/** The running scheduler, if any. */
export function getScheduler(): Scheduler | null {
  return running.get() ?? null;
}

/** Wakes the scheduler (new jobs or notifications). */
export function wakeScheduler(): void {
  running.get()?.wake();
}

/** Replaces the process's scheduler (tests): stops the old one first. */
export async function replaceScheduler(next: Scheduler | null): Promise<void> {
  const old = running.get();
  if (old && old !== next) await old.stop();
  running.set(next ?? undefined);
  next?.start();
}
