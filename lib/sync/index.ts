import "server-only";
import { enqueueJob } from "@/lib/db/queries/jobs";
import { enqueueAfterConnect } from "@/lib/sync/jobs";
import { stopRunsOf } from "@/lib/sync/engine";
import { wakeScheduler } from "@/lib/sync/scheduler";
import { webhookCallbackUrl, webhooksActive } from "@/lib/sync/subscriptions";

// The sync feature's entry points for the rest of the app.

export { wakeScheduler } from "@/lib/sync/scheduler";
export { downloadHistoryAgain, enqueueSyncNow } from "@/lib/sync/jobs";

/**
 * Stops every sync of the person running in this process, where it is: its requests in flight
 * are aborted. Called after a delete moved the person's sync generation on (which alone keeps
 * anything in flight from being stored, here or in another process, whose scheduler stops its
 * own runs at their next heartbeat). Returns how many were running.
 */
export function stopSyncOf(userId: string): number {
  return stopRunsOf(userId);
}

/**
 * Called by the auth code after a person connects (or reconnects) their ring: queues the
 * backfill of every collection (or a catch-up sync when it was done before) and the
 * personal_info snapshot, sets up webhooks if they are not active yet, and wakes the
 * scheduler. Safe to call repeatedly.
 */
export async function onAccountConnected(userId: string): Promise<void> {
  await enqueueAfterConnect(userId);
  if (webhookCallbackUrl() && !(await webhooksActive())) await enqueueJob({ kind: "subscriptions", maxAttempts: 3 });
  wakeScheduler();
}
