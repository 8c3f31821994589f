import "server-only";
import { logger } from "@/lib/log";
import type { DataFamily } from "@/lib/ring/client";
import { cancelQueuedJobs } from "@/lib/db/queries/jobs";
import { deleteAllRingDocuments } from "@/lib/db/queries/ring-documents";
import { deleteSyncStates, listRingUsers } from "@/lib/db/queries/sync-state";
import { enqueueBackfill } from "@/lib/sync/jobs";
import { wakeScheduler } from "@/lib/sync/scheduler";
import { getDataFamily, saveDataFamily, savePollMinutes } from "@/lib/sync/settings";

// Instance-wide sync settings changed by the owner (settings page).

/**
 * Switches between the person's real data and the service's sandbox samples. The two must
 * not mix in the charts, so the synced ring data (not notes or tags) is cleared and every
 * connected person's backfill starts again from the chosen family.
 */
export async function changeDataFamily(family: DataFamily): Promise<boolean> {
  if (family === (await getDataFamily())) return false;
  await cancelQueuedJobs(null);
  await deleteAllRingDocuments();
  await deleteSyncStates();
  await saveDataFamily(family);
  for (const u of await listRingUsers()) if (u.status === "active") await enqueueBackfill(u.userId);
  logger.info({ family }, "data family changed; ring data cleared and backfill queued");
  wakeScheduler();
  return true;
}

export async function changePollMinutes(minutes: number): Promise<void> {
  await savePollMinutes(minutes);
  wakeScheduler();
}
