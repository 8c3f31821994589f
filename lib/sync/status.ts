import "server-only";
import { clock } from "@/lib/clock";
import { env } from "@/lib/env.mjs";
import { getResource, isSeriesCollection, SYNC_COLLECTIONS, type SyncCollection } from "@/lib/resources";
import { getRingAccountForUser } from "@/lib/ring/tokens";
import { collectionSummary } from "@/lib/db/queries/ring-documents";
import { seriesSummary } from "@/lib/db/queries/time-series";
import { listActiveJobs } from "@/lib/db/queries/jobs";
import { countRejectedByCollection, listRejectedDocuments } from "@/lib/db/queries/rejected-documents";
import { listSyncStates, type SyncStateRow } from "@/lib/db/queries/sync-state";
import { readSyncGeneration } from "@/lib/db/queries/sync-fence";
import { findCycleSettings } from "@/lib/db/queries/cycle";
import { CYCLE_RESOURCE } from "@/lib/cycle";
import { getSyncEngine } from "@/lib/sync/engine";
import { estimateEtaSeconds, progressFraction } from "@/lib/sync/plan";
import { getRateGate } from "@/lib/ring/rate-gate";
import { getDataFamily, getPollMinutes, WEBHOOK_POLL_MINUTES } from "@/lib/sync/settings";
import { webhookOverview, type WebhookOverview } from "@/lib/sync/subscriptions";

// GET /api/sync/status: what the sync page and the dashboard show about freshness.

export type CollectionSyncStatus = {
  collection: SyncCollection;
  label: string;
  /** what `documents` counts: documents, or a time series' samples */
  unit: "documents" | "samples";
  /** idle | backfilling | syncing | not_shared | expired | error | paused | queued */
  status: string;
  documents: number;
  backfillDone: boolean;
  windowsDone: number;
  windowsTotal: number;
  /** pages fetched in the running backfill (this process) */
  pages: number;
  /** 0..1 through the backfill's days */
  progress: number;
  etaSeconds: number | null;
  lastSuccessAt: string | null;
  lastAttemptAt: string | null;
  newestDay: string | null;
  /**
   * How far back the stored history reaches: the oldest stored day (YYYY-MM-DD), null with
   * nothing stored. While `backfillDone` is false the back-fill is still reaching further back.
   */
  oldestDay: string | null;
  lastError: string | null;
  rejected: number;
  queued: boolean;
};

export type SyncStatusResponse = {
  running: boolean;
  /** "Delete all my data" paused the person's sync: nothing syncs until "Download my history again" */
  historyDeleted: boolean;
  account: { status: string } | null;
  dataFamily: "usercollection" | "sandbox";
  pollMinutes: number;
  trailingDays: number;
  webhooks: WebhookOverview;
  rateLimitedUntil: string | null;
  lastSuccessAt: string | null;
  sleepLag: { lagging: boolean; newestActivityDay: string | null; newestSleepDay: string | null };
  totals: { documents: number; samples: number; rejected: number };
  collections: CollectionSyncStatus[];
  rejected: Array<{ id: number; collection: string; documentId: string | null; day: string | null; error: string; seenAt: string }>;
};

function iso(value: Date | null): string | null {
  return value?.toISOString() ?? null;
}

export async function getSyncStatus(userId: string, now = clock.now()): Promise<SyncStatusResponse> {
  const account = await getRingAccountForUser(userId);
  const states = new Map<string, SyncStateRow>((await listSyncStates(userId)).map((s) => [s.collection, s]));
  const jobs = await listActiveJobs(userId);
  const rejectedCounts = await countRejectedByCollection(userId);
  const engine = getSyncEngine();
  const fence = await readSyncGeneration(userId);
  // the cycle's phases are synced only while the person tracks their cycle: otherwise not listed
  const tracksCycle = Boolean((await findCycleSettings(userId))?.tracking);

  const collections: CollectionSyncStatus[] = await Promise.all(
    SYNC_COLLECTIONS.filter((c) => tracksCycle || c !== CYCLE_RESOURCE).map(async (collection) => {
      const s = states.get(collection);
      const summary = isSeriesCollection(collection) ? await seriesSummary(collection, userId) : await collectionSummary(collection, userId);
      const done = Boolean(s?.backfillDoneAt);
      const progressInfo = engine.progress.get(`${userId}:${collection}`);
      const firstDay = progressInfo?.firstDay ?? summary.oldestDay;
      const cursorDay = progressInfo?.cursorDay ?? (done ? summary.newestDay : (s?.cursorStart?.slice(0, 10) ?? null));
      const endDay = s?.backfillTo ?? summary.newestDay ?? new Date(now).toISOString().slice(0, 10);
      const progress = progressFraction({ firstDay, cursorDay, endDay, done });
      const queued = jobs.some((j) => j.collection === collection);
      const status = s?.status ?? (queued ? "queued" : "idle");
      return {
        collection,
        label: getResource(collection).label,
        unit: isSeriesCollection(collection) ? "samples" : "documents",
        status: status === "idle" && queued && !done ? "queued" : status,
        documents: summary.documents,
        backfillDone: done,
        windowsDone: s?.windowsDone ?? 0,
        windowsTotal: s?.windowsTotal ?? 0,
        pages: progressInfo?.pages ?? 0,
        progress,
        etaSeconds: progressInfo && !done ? estimateEtaSeconds(progress, now - progressInfo.startedAt) : null,
        lastSuccessAt: iso(s?.lastSuccessAt ?? null),
        lastAttemptAt: iso(s?.lastAttemptAt ?? null),
        newestDay: summary.newestDay,
        oldestDay: summary.oldestDay,
        lastError: s?.lastError ?? null,
        rejected: rejectedCounts[collection] ?? 0,
        queued,
      };
    }),
  );

  const newestActivityDay = collections.find((c) => c.collection === "daily_activity")?.newestDay ?? null;
  const newestSleepDay = collections.find((c) => c.collection === "sleep")?.newestDay ?? null;
  const pause = await getRateGate().pausedUntil(account ? account.accountId : null);
  const successes = collections
    .map((c) => c.lastSuccessAt)
    .filter((x): x is string => Boolean(x))
    .sort();
  const webhooks = await webhookOverview(now);
  const basePoll = await getPollMinutes();
  return {
    running: collections.some((c) => c.status === "backfilling" || c.status === "syncing" || c.queued),
    historyDeleted: fence?.paused ?? false,
    account: account ? { status: account.status } : null,
    dataFamily: await getDataFamily(),
    pollMinutes: webhooks.mode === "active" ? Math.max(basePoll, WEBHOOK_POLL_MINUTES) : basePoll,
    trailingDays: env.SYNC_TRAILING_DAYS,
    webhooks,
    rateLimitedUntil: pause ? new Date(pause.until).toISOString() : null,
    lastSuccessAt: successes.at(-1) ?? null,
    sleepLag: {
      // Activity syncs in the background; sleep needs the phone app opened (interface §1.6).
      lagging: Boolean(newestActivityDay && newestSleepDay && newestSleepDay < newestActivityDay),
      newestActivityDay,
      newestSleepDay,
    },
    totals: {
      documents: collections.reduce((n, c) => n + (c.unit === "documents" ? c.documents : 0), 0),
      samples: collections.reduce((n, c) => n + (c.unit === "samples" ? c.documents : 0), 0),
      rejected: collections.reduce((n, c) => n + c.rejected, 0),
    },
    collections,
    rejected: (await listRejectedDocuments(userId, 20)).map((r) => ({ ...r, seenAt: r.seenAt.toISOString() })),
  };
}
