import "server-only";
import { enqueueJob } from "@/lib/db/queries/jobs";
import { enqueueAfterConnect } from "@/lib/sync/jobs";
import { wakeScheduler } from "@/lib/sync/scheduler";
import { webhookCallbackUrl, webhooksActive } from "@/lib/sync/subscriptions";

// The sync feature's entry points for the rest of the app.

export { wakeScheduler } from "@/lib/sync/scheduler";
export { enqueueSyncNow } from "@/lib/sync/jobs";

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
