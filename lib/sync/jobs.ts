import "server-only";
import { clock } from "@/lib/clock";
import { logger } from "@/lib/log";
import { isSeriesCollection, isSyncCollection, SYNC_COLLECTIONS, type SyncCollection } from "@/lib/resources";
import { completeJob, dueRecentPasses, enqueueJob, failJob, postponeJob, type JobRow } from "@/lib/db/queries/jobs";
import { clearSharingStates, listSyncStates, syncStatesEnsure, updateSyncState } from "@/lib/db/queries/sync-state";
import { fencedTransaction, readSyncGeneration, resumeSync } from "@/lib/db/queries/sync-fence";
import { jobRetryDelay } from "@/lib/limits/backoff";
import { classifyError, type RunOptions, type SyncEngine } from "@/lib/sync/engine";
import { historyRunAt, inNewestFirstOrder } from "@/lib/sync/plan";
import { syncWebhookSubscriptions } from "@/lib/sync/subscriptions";

// What each job kind does, and how its outcome moves the Job row:
//   done → completeJob; 429 pause → postponed to the pause's end (attempt not counted);
//   paused account / 403 / 400-422 bug → failed without retry (a reconnect or "Sync now"
//   starts again); 5xx, network, anything else → retried with backoff until maxAttempts,
//   then failed (the next poll queues a fresh job); the person's sync stopped (a delete, a
//   disconnect) → failed without retry, nothing of it stored.

/** Runs a job; a person's job is a run of their sync (`run`: the generation it started with, what stops it). */
export async function runJob(engine: SyncEngine, job: JobRow, now: () => number = () => clock.now(), run: RunOptions = {}): Promise<void> {
  try {
    const collection = job.collection && isSyncCollection(job.collection) ? job.collection : null;
    switch (job.kind) {
      case "backfill":
        if (!job.userId || !collection) throw new Error("backfill job without person or collection");
        // newest first: once its recent days are stored, the job waits for the history behind
        // them: a document collection's behind everything queued before it, a time series' (the
        // longest chain) right after the recent passes still waiting (plan.ts historyRunAt)
        if ((await engine.backfillCollection(job.userId, collection, run)).more) {
          const at = now();
          const recentPassesDue = isSeriesCollection(collection) ? await dueRecentPasses(at) : [];
          await postponeJob(job.id, historyRunAt(collection, { now: at, queuedAt: job.runAt.getTime(), recentPassesDue }));
          return;
        }
        break;
      case "incremental":
        if (!job.userId || !collection) throw new Error("incremental job without person or collection");
        await engine.incrementalCollection(job.userId, collection, run);
        break;
      case "personal_info":
        if (!job.userId) throw new Error("personal_info job without person");
        await engine.snapshotPersonalInfo(job.userId, run);
        break;
      case "subscriptions":
        await syncWebhookSubscriptions();
        break;
      default:
        throw new Error(`unknown job kind ${String(job.kind)}`);
    }
    await completeJob(job.id);
  } catch (err) {
    const c = classifyError(err);
    const message = err instanceof Error ? err.message : String(err);
    if (c.kind === "postpone") {
      await postponeJob(job.id, c.until, "rate limited");
    } else if (c.kind === "retry") {
      const status = await failJob(job.id, message, now() + jobRetryDelay(job.attempts));
      if (status === "failed") logger.warn({ jobId: job.id, kind: job.kind, attempts: job.attempts }, "job failed after its last attempt");
    } else {
      // paused, stopped, a 403 or a bug: no retry
      await failJob(job.id, message, null);
    }
  }
}

/**
 * The person's sync generation when their sync may run (null: the person is gone, or "Delete all
 * my data" paused it), with their sync states made sure of under it: what is queued with it is
 * queued only while no delete came in between (lib/db/queries/sync-fence.ts).
 */
async function syncableGeneration(userId: string): Promise<number | null> {
  const now = await readSyncGeneration(userId);
  if (!now || now.paused) return null;
  await fencedTransaction(userId, now.generation, (tx) => syncStatesEnsure(tx, userId, SYNC_COLLECTIONS));
  return now.generation;
}

/** The person's sync states in the order their jobs are queued (lib/sync/plan.ts inNewestFirstOrder: what Today shows first). */
async function statesInQueueOrder(userId: string) {
  return inNewestFirstOrder(await listSyncStates(userId), (s) => s.collection);
}

/** Queues the backfill of every collection not yet backfilled, plus the personal_info snapshot (nothing while the person's sync is paused). */
export async function enqueueBackfill(userId: string, opts: { runAt?: number } = {}): Promise<void> {
  const generation = await syncableGeneration(userId);
  if (generation === null) return;
  for (const s of await statesInQueueOrder(userId)) {
    if (!isSyncCollection(s.collection) || s.backfillDoneAt) continue;
    await enqueueJob({ kind: "backfill", userId, collection: s.collection, runAt: opts.runAt, ifAbsent: true, generation });
  }
  await enqueueJob({ kind: "personal_info", userId, ifAbsent: true, generation });
}

/**
 * Queues the backfill of one collection (the cycle's phases once tracking is turned on); one
 * already queued is kept; nothing while the person's sync is paused.
 */
export async function enqueueCollectionBackfill(userId: string, collection: SyncCollection): Promise<void> {
  const generation = await syncableGeneration(userId);
  if (generation === null) return;
  await enqueueJob({ kind: "backfill", userId, collection, ifAbsent: true, generation });
}

/**
 * "Sync now": errors are forgiven (a 400-bug or an expired membership is asked again),
 * backfills continue, backfilled collections get an incremental run now. False (nothing
 * queued) while "Delete all my data" holds the person's sync.
 */
export async function enqueueSyncNow(userId: string): Promise<boolean> {
  const generation = await syncableGeneration(userId);
  if (generation === null) return false;
  for (const s of await statesInQueueOrder(userId)) {
    if (!isSyncCollection(s.collection)) continue;
    const collection: SyncCollection = s.collection;
    if (s.status === "error" || s.status === "expired") await updateSyncState(userId, collection, { status: "idle", lastAttemptAt: null });
    if (s.status === "not_shared") continue;
    if (!s.backfillDoneAt) await enqueueJob({ kind: "backfill", userId, collection, runAt: clock.now(), generation });
    else await enqueueJob({ kind: "incremental", userId, collection, runAt: clock.now(), generation });
  }
  await enqueueJob({ kind: "personal_info", userId, runAt: clock.now(), generation });
  return true;
}

/** After a (re)connect: consent may have changed, so sharing states start over (nothing is queued while the person's sync is paused). */
export async function enqueueAfterConnect(userId: string): Promise<void> {
  await clearSharingStates(userId);
  const generation = await syncableGeneration(userId);
  if (generation === null) return;
  for (const s of await statesInQueueOrder(userId)) {
    if (!isSyncCollection(s.collection)) continue;
    if (s.backfillDoneAt) await enqueueJob({ kind: "incremental", userId, collection: s.collection, generation });
    else await enqueueJob({ kind: "backfill", userId, collection: s.collection, generation });
  }
  await enqueueJob({ kind: "personal_info", userId, generation });
}

/** Why nothing syncs after "Delete all my data" (the sync page and "Sync now" say it). */
export const HISTORY_DELETED_MESSAGE = "You deleted your data: nothing syncs until you press “Download my history again” (Settings → Your data).";

/**
 * "Download my history again" (after "Delete all my data"): the person's sync runs again and
 * their whole history is queued for download. False when their sync was not paused.
 */
export async function downloadHistoryAgain(userId: string): Promise<boolean> {
  if (!(await resumeSync(userId))) return false;
  await enqueueBackfill(userId, { runAt: clock.now() });
  return true;
}
