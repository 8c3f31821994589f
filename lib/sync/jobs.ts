import "server-only";
import { clock } from "@/lib/clock";
import { logger } from "@/lib/log";
import { isSyncCollection, SYNC_COLLECTIONS, type SyncCollection } from "@/lib/resources";
import { completeJob, enqueueJob, failJob, postponeJob, type JobRow } from "@/lib/db/queries/jobs";
import { clearSharingStates, ensureSyncStates, listSyncStates, updateSyncState } from "@/lib/db/queries/sync-state";
import { jobRetryDelay } from "@/lib/limits/backoff";
import { classifyError, type SyncEngine } from "@/lib/sync/engine";
import { syncWebhookSubscriptions } from "@/lib/sync/subscriptions";

// What each job kind does, and how its outcome moves the Job row:
//   done → completeJob; 429 pause → postponed to the pause's end (attempt not counted);
//   paused account / 403 / 400-422 bug → failed without retry (a reconnect or "Sync now"
//   starts again); 5xx, network, anything else → retried with backoff until maxAttempts,
//   then failed (the next poll queues a fresh job).

export async function runJob(engine: SyncEngine, job: JobRow, now: () => number = () => clock.now()): Promise<void> {
  try {
    const collection = job.collection && isSyncCollection(job.collection) ? job.collection : null;
    switch (job.kind) {
      case "backfill":
        if (!job.userId || !collection) throw new Error("backfill job without person or collection");
        await engine.backfillCollection(job.userId, collection);
        break;
      case "incremental":
        if (!job.userId || !collection) throw new Error("incremental job without person or collection");
        await engine.incrementalCollection(job.userId, collection);
        break;
      case "personal_info":
        if (!job.userId) throw new Error("personal_info job without person");
        await engine.snapshotPersonalInfo(job.userId);
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
      await failJob(job.id, message, null);
    }
  }
}

/** Queues the backfill of every collection not yet backfilled, plus the personal_info snapshot. */
export async function enqueueBackfill(userId: string, opts: { runAt?: number } = {}): Promise<void> {
  await ensureSyncStates(userId, SYNC_COLLECTIONS);
  for (const s of await listSyncStates(userId)) {
    if (!isSyncCollection(s.collection) || s.backfillDoneAt) continue;
    await enqueueJob({ kind: "backfill", userId, collection: s.collection, runAt: opts.runAt, ifAbsent: true });
  }
  await enqueueJob({ kind: "personal_info", userId, ifAbsent: true });
}

/** Queues the backfill of one collection (the cycle's phases once tracking is turned on); one already queued is kept. */
export async function enqueueCollectionBackfill(userId: string, collection: SyncCollection): Promise<void> {
  await ensureSyncStates(userId, [collection]);
  await enqueueJob({ kind: "backfill", userId, collection, ifAbsent: true });
}

/**
 * "Sync now": errors are forgiven (a 400-bug or an expired membership is asked again),
 * backfills continue, backfilled collections get an incremental run now.
 */
export async function enqueueSyncNow(userId: string): Promise<void> {
  await ensureSyncStates(userId, SYNC_COLLECTIONS);
  for (const s of await listSyncStates(userId)) {
    if (!isSyncCollection(s.collection)) continue;
    const collection: SyncCollection = s.collection;
    if (s.status === "error" || s.status === "expired") await updateSyncState(userId, collection, { status: "idle", lastAttemptAt: null });
    if (s.status === "not_shared") continue;
    if (!s.backfillDoneAt) await enqueueJob({ kind: "backfill", userId, collection, runAt: clock.now() });
    else await enqueueJob({ kind: "incremental", userId, collection, runAt: clock.now() });
  }
  await enqueueJob({ kind: "personal_info", userId, runAt: clock.now() });
}

/** After a (re)connect: consent may have changed, so sharing states start over. */
export async function enqueueAfterConnect(userId: string): Promise<void> {
  await clearSharingStates(userId);
  await ensureSyncStates(userId, SYNC_COLLECTIONS);
  for (const s of await listSyncStates(userId)) {
    if (!isSyncCollection(s.collection)) continue;
    if (s.backfillDoneAt) await enqueueJob({ kind: "incremental", userId, collection: s.collection });
    else await enqueueJob({ kind: "backfill", userId, collection: s.collection });
  }
  await enqueueJob({ kind: "personal_info", userId });
}
