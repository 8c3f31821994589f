import "server-only";
import { asBackground } from "@/lib/cpu-ledger";
import { logger } from "@/lib/log";
import type { SyncCollection } from "@/lib/resources";
import { syncStateUpdate, type SyncStatePatch } from "@/lib/db/queries/sync-state";
import { SyncStoppedError } from "@/lib/db/queries/sync-fence";
import { ingestDb, type Work } from "@/lib/db/ingest/driver";
import { cycleTrackingIn } from "@/lib/db/ingest/fence";
import { checkpointWrite } from "@/lib/db/ingest/checkpoint";
import type { CollectionSummary } from "@/lib/db/ingest/documents";
import { CYCLE_RESOURCE } from "@/lib/cycle";
import { storedSummary, summarize, summarizeInPage, type BackfillProgress, type CollectionOutcome, type EngineContext, type Totals } from "./context";
import { inRun, inRunTx, type SyncRun } from "./runs";

/** Updates the collection's SyncState for a run (fenced; never creates the row). */
export function updateRunState(run: SyncRun, collection: SyncCollection, patch: SyncStatePatch): Promise<boolean> {
  return inRunTx(run, (tx) => syncStateUpdate(tx, run.userId, collection, patch));
}

// How a page becomes stored: one transaction holds the page's rows (documents or samples, the
// rejected ones set aside) and, for a backfill, its checkpoint, so a crash at any point resumes
// with no gap and no duplicate (commitPage). A backfill is one loop over the pages of a source
// (runBackfill); documents and time series differ only in how they fetch, map and move their cursor.
// A page of the cycle's phases is written only while the person tracks their cycle, asked in
// the page's own transaction: tracking turned off while the page was in flight rolls it back.

/** A page of the cycle's phases met a person who does not track their cycle (now): nothing of it was written. */
export class CycleTrackingOff extends Error {
  constructor() {
    super("cycle tracking is off: the cycle's phases are not kept");
    this.name = "CycleTrackingOff";
  }
}

export type PageCommit = {
  run: SyncRun;
  collection: SyncCollection;
  /** the page's writes, a step of the transaction (lib/db/ingest: documentsWrite, sampleDaysMerge, …) */
  write: Work<number>;
  /** a backfill's checkpoint, written in the same transaction; `finished` adds the collection's totals */
  checkpoint?: { page: number; patch: SyncStatePatch; finished: boolean };
  /** a backfill's page without a checkpoint (newest first's recent pass): its number for the hooks */
  page?: number;
  /** the page's validation and mapping before the commit, ms (measured where they ran): they count as ingest */
  mapMs: number;
  /** what the page stored and set aside, for the engine's counters */
  count: { documents?: number; samples?: number; rejected: number; pages?: number };
};

/**
 * Commits one page (and its checkpoint) in one transaction, fenced by the run's generation (a
 * delete since the run started rolls it back: SyncStoppedError); a checkpoint only updates its
 * SyncState row, and a page whose row is gone rolls back too. Returns what the write returned and
 * the page's own ingest time: its mapping and its write. On SQLite the write runs whole inside
 * the call, so the time other collections' pages take while this one awaits its promise is
 * theirs, not counted here; on PostgreSQL the write is the wait for the server's answer.
 */
export async function commitPage(ctx: EngineContext, c: PageCommit): Promise<{ written: number; ownMs: number }> {
  const { run, collection, write, checkpoint } = c;
  const { userId } = run;
  const beforeCommit = ctx.hooks.beforeCommit;
  const writeStarted = performance.now();
  // on SQLite the transaction runs whole inside this call: background work (lib/cpu-ledger.ts)
  const pending = asBackground(() =>
    inRun(run, function* () {
      if (collection === CYCLE_RESOURCE && !(yield* cycleTrackingIn(userId))) throw new CycleTrackingOff();
      const n = yield* write;
      if (!checkpoint && c.page !== undefined) beforeCommit?.({ userId, collection, page: c.page });
      if (checkpoint) {
        beforeCommit?.({ userId, collection, page: checkpoint.page });
        // Counting the stored rows costs a scan of them: once, at the end.
        const totals: Totals | null = checkpoint.finished ? yield* summarizeInPage(userId, collection) : null;
        if (!(yield* checkpointWrite(userId, collection, totals ? { ...checkpoint.patch, ...totals } : checkpoint.patch))) throw new SyncStoppedError(userId);
      }
      return n;
    }),
  );
  const inCall = performance.now() - writeStarted;
  const result = await pending;
  const ownMs = c.mapMs + (ingestDb().provider === "sqlite" ? inCall : performance.now() - writeStarted);
  const s = ctx.stats;
  s.ingestMs += ownMs;
  s.pages += c.count.pages ?? 1;
  s.documents += c.count.documents ?? 0;
  s.samples += c.count.samples ?? 0;
  s.rejected += c.count.rejected;
  return { written: result, ownMs };
}

/**
 * The pipeline's next request, started before the page in hand is stored: unused (and not an
 * unhandled rejection) when that page's commit fails, and out on the wire before the commit (on
 * SQLite a synchronous transaction that holds the thread) once this resolves.
 */
export async function askAhead<T>(next: Promise<T>): Promise<{ next: Promise<T> }> {
  next.catch(() => undefined);
  await new Promise<void>((resolve) => setImmediate(resolve));
  return { next };
}

/**
 * Commits a page of newest first's recent pass (no checkpoint: a stop does the pass again) and
 * counts it in the collection's progress, which the history's pages then go on from.
 */
export async function commitRecentPage(
  ctx: EngineContext,
  c: Omit<PageCommit, "checkpoint" | "page" | "count"> & { stored: number; rejected: number; unit: "documents" | "samples" },
): Promise<void> {
  const { run, collection } = c;
  const key = `${run.userId}:${collection}`;
  const progress: BackfillProgress = ctx.progress.get(key) ?? {
    startedAt: ctx.clock.now(),
    pages: 0,
    documents: 0,
    firstDay: null,
    cursorDay: null,
    work: { pages: 0, stored: 0, ingestMs: 0, mapMs: 0 },
  };
  ctx.progress.set(key, progress);
  const page = progress.pages + 1;
  const { ownMs } = await commitPage(ctx, { run, collection, write: c.write, mapMs: c.mapMs, page, count: { [c.unit]: c.stored, rejected: c.rejected } });
  progress.pages++;
  progress.documents += c.stored;
  countWork(progress, { stored: c.stored, ingestMs: ownMs, mapMs: c.mapMs });
  await ctx.hooks.afterPage?.({ userId: run.userId, collection, page, documents: c.stored });
}

/** One fetched and mapped page of a backfill, ready to be committed with its checkpoint. */
export type BackfillPage = {
  mapMs: number;
  write: Work<number>;
  patch: SyncStatePatch;
  finished: boolean;
  /** documents or samples of the page, and those set aside */
  stored: number;
  rejected: number;
  /** the first and last day the page covers (the sync page's progress) */
  firstDay: string | null;
  lastDay: string | null;
  /** moves the source's cursor past the page (in memory: the next page may be asked for while this one is stored) */
  advance(): void;
};

export type BackfillSource = {
  unit: "documents" | "samples";
  /** The next page, or null when the history is complete. */
  next(): Promise<BackfillPage | null>;
  /** Stops what the source fetches ahead (the loop ended, done or not). */
  close?(): void;
};

/** Counts a committed page in the engine's own work on the backfill. */
function countWork(progress: BackfillProgress, page: { stored: number; ingestMs: number; mapMs: number }): void {
  progress.work.pages++;
  progress.work.stored += page.stored;
  progress.work.ingestMs += page.ingestMs;
  progress.work.mapMs += page.mapMs;
}

/**
 * A collection's backfill is whole: its progress is dropped, and what this engine did for it
 * (both passes: pages, rows, validating, mapping and writing) is logged once.
 */
export function backfillFinished(ctx: EngineContext, userId: string, collection: SyncCollection, unit: "documents" | "samples"): void {
  const key = `${userId}:${collection}`;
  const work = ctx.progress.get(key)?.work;
  ctx.progress.delete(key);
  if (!work || work.pages === 0) return;
  const ms = (v: number) => Math.round(v * 10) / 10;
  logger.info({ userId, collection, pages: work.pages, [unit]: work.stored, ingestMs: ms(work.ingestMs), mapMs: ms(work.mapMs) }, "backfill finished");
}

/** Widens a backfill's progress to the days of one more page. */
function widenProgressDays(progress: BackfillProgress, first: string | null, last: string | null): void {
  if (first && (!progress.firstDay || first < progress.firstDay)) progress.firstDay = first;
  if (last && (!progress.cursorDay || last > progress.cursorDay)) progress.cursorDay = last;
}

/**
 * A backfill's page loop: each page of the source committed with its checkpoint, counted, and
 * shown on the sync page's progress; then the progress dropped and the totals logged. The source
 * is made once the stored totals are known (a documents backfill moves its newest day on from them).
 */
export async function runBackfill(
  ctx: EngineContext,
  run: SyncRun,
  collection: SyncCollection,
  makeSource: (stored: CollectionSummary) => BackfillSource,
  opts: { newestFirst?: boolean } = {},
): Promise<CollectionOutcome> {
  const { userId } = run;
  const key = `${userId}:${collection}`;
  const summary = await storedSummary(userId, collection);
  // newest first, the history's days are those of its own pages (the recent days stored before it are not its progress)
  const newestFirst = opts.newestFirst ?? false;
  const progress: BackfillProgress = ctx.progress.get(key) ?? {
    startedAt: ctx.clock.now(),
    pages: 0,
    documents: summary.documents,
    firstDay: newestFirst ? null : summary.oldestDay,
    cursorDay: newestFirst ? null : summary.newestDay,
    work: { pages: 0, stored: 0, ingestMs: 0, mapMs: 0 },
  };
  ctx.progress.set(key, progress);
  const source = makeSource(summary);
  try {
    await commitPages(ctx, run, collection, source, progress);
  } finally {
    source.close?.();
  }
  backfillFinished(ctx, userId, collection, source.unit);
  const s = await summarize(userId, collection);
  return { collection, result: "done", documents: s.documentsTotal };
}

/** runBackfill's loop: each page of the source committed with its checkpoint, in order, and counted. */
async function commitPages(ctx: EngineContext, run: SyncRun, collection: SyncCollection, source: BackfillSource, progress: BackfillProgress): Promise<void> {
  const { userId } = run;
  for (let p = await source.next(); p;) {
    // the hooks number the collection's pages in this engine, the recent pass's first
    const number = progress.pages + 1;
    // The pipeline: the page after this one is asked for while this one is stored. The source's
    // cursor moves on in memory now; the checkpoint moves with the commit, in order, so a stop
    // leaves the page in flight unstored and a resumed run asks for it again.
    p.advance();
    const following = p.finished ? null : (await askAhead(source.next())).next;
    const { ownMs } = await commitPage(ctx, {
      run,
      collection,
      write: p.write,
      checkpoint: { page: number, patch: p.patch, finished: p.finished },
      mapMs: p.mapMs,
      count: { [source.unit]: p.stored, rejected: p.rejected },
    });
    countWork(progress, { stored: p.stored, ingestMs: ownMs, mapMs: p.mapMs });
    progress.pages++;
    progress.documents += p.stored;
    widenProgressDays(progress, p.firstDay, p.lastDay);
    await ctx.hooks.afterPage?.({ userId, collection, page: number, documents: p.stored });
    p = following ? await following : null;
  }
}
