import "server-only";
import { listSyncStates, type SyncStateRow } from "@/lib/db/queries/sync-state";
import { CYCLE_RESOURCE } from "@/lib/cycle";
import { env } from "@/lib/env.mjs";

// Whether a person's history is still downloading (the back-fill of a collection they share has
// not finished), and the first day not here yet: the pages, the report and its PDF say it at the
// top ("History still downloading: data from … on"), and an empty chart gives it as its reason.

/** The back-fill still running: the earliest day not downloaded yet (null when unknown); null when every shared collection is in. */
export type HistoryDownloading = { from: string | null } | null;

/**
 * The day a collection's back-fill resumes at (days before it are downloaded); newest first, a
 * back-fill tried whose recent days are not in yet has no range: it starts at the back-fill start.
 */
const resumeDay = (s: SyncStateRow): string | null =>
  (s.cursorStart ?? s.backfillFrom ?? (s.lastAttemptAt ? env.RING_BACKFILL_START : null))?.slice(0, 10) ?? null;

export async function historyDownloading(userId: string): Promise<HistoryDownloading> {
  // never the cycle's phases: synced only while the person tracks their cycle (else their state
  // stays idle), they fill no chart of their own, and a reader without the cycle kind must not
  // learn that they are downloading
  const running = (await listSyncStates(userId)).filter(
    (s) => !s.backfillDoneAt && s.status !== "not_shared" && s.status !== "expired" && s.collection !== CYCLE_RESOURCE,
  );
  if (running.length === 0) return null;
  const days = running.map(resumeDay).filter((d): d is string => d !== null);
  return { from: days.length ? days.reduce((a, b) => (a < b ? a : b)) : null };
}
