import "server-only";
import { env } from "@/lib/env.mjs";
import { clock as processClock, type Clock } from "@/lib/clock";
import { RingClient, type RingClientOptions } from "@/lib/ring/client";
import { RingAccountPausedError, RingApiError } from "@/lib/ring/errors";
import { getRingAccountForUser } from "@/lib/ring/tokens";
import { getResource, isSeriesCollection, SYNC_COLLECTIONS, type SyncCollection } from "@/lib/resources";
import { getSyncState, syncStatesEnsure, type SyncStateRow } from "@/lib/db/queries/sync-state";
import { findCycleSettings } from "@/lib/db/queries/cycle";
import { CYCLE_RESOURCE } from "@/lib/cycle";
import { getDataFamily } from "@/lib/sync/settings";
import { inNewestFirstOrder, SYNC_CONCURRENCY } from "@/lib/sync/plan";
import { processSingleton } from "@/lib/process-singleton";
import type { BackfillProgress, CollectionOutcome, EngineContext, EngineHooks, RingAccess, SyncStats } from "./context";
import { CycleTrackingOff, updateRunState } from "./commit";
import { backfillDocuments, incrementalDocuments, recentDocuments } from "./documents";
import { describeError, recordFailure } from "./errors";
import { applyDocumentEvent, snapshotPersonalInfo, type DocumentEvent } from "./events";
import { inRunTx, withRun, type RunOptions } from "./runs";
import { backfillSeries, incrementalSeries, recentSeries } from "./series";

// The sync engine: backfill (newest first: the recent days of every collection, then the whole
// history behind them, checkpointed per page), incremental (trailing
// window re-check with deletions), webhook documents and the personal_info snapshot.
// Every page is validated document by document, mapped, and written with its checkpoint in
// one transaction (commit.ts commitPage), so a crash at any point resumes with no gap and no
// duplicate. The parts: documents.ts and series.ts (the two kinds of collection), events.ts
// (webhook documents, personal_info), commit.ts (a page's transaction, a backfill's page loop),
// errors.ts (what an error means for the job, the sync page and the SyncState).
// The cycle's phases (daily_cycle_phases) are fetched only while the person tracks their cycle:
// otherwise they are skipped ("cycle_off") without a request, and a page met after tracking was
// turned off is not written (commit.ts).

export type { BackfillProgress, CollectionOutcome, EngineHooks, SyncStats } from "./context";
export { classifyError, type ErrorClass } from "./errors";
export { stopRunsOf, type RunOptions } from "./runs";

export type SyncEngineOptions = {
  clock?: Clock;
  /** collections fetched at the same time for one person */
  concurrency?: number;
  /** passed to every RingClient (tests: base URL, backoff, gate, fetch) */
  clientOptions?: Partial<Omit<RingClientOptions, "accountId">>;
  hooks?: EngineHooks;
  backfillStart?: string;
  trailingDays?: number;
  /** split backfill windows (default: one window per collection) */
  maxWindowDays?: number;
};

export class SyncEngine {
  readonly stats: SyncStats = { requests: 0, pages: 0, documents: 0, samples: 0, rejected: 0, ingestMs: 0, mapMs: 0 };
  readonly progress = new Map<string, BackfillProgress>();
  private readonly ctx: EngineContext;
  private readonly concurrency: number;

  constructor(opts: SyncEngineOptions = {}) {
    const clock = opts.clock ?? processClock;
    const clientOptions = opts.clientOptions ?? {};
    const stats = this.stats;
    this.concurrency = Math.max(1, opts.concurrency ?? SYNC_CONCURRENCY);
    this.ctx = {
      clock,
      stats,
      progress: this.progress,
      hooks: opts.hooks ?? {},
      backfillStart: opts.backfillStart ?? env.RING_BACKFILL_START,
      trailingDays: opts.trailingDays ?? env.SYNC_TRAILING_DAYS,
      maxWindowDays: opts.maxWindowDays,
      now: () => new Date(clock.now()),
      async accessFor(run): Promise<RingAccess> {
        const account = await getRingAccountForUser(run.userId);
        if (!account) throw new RingAccountPausedError("", "no ring account");
        if (account.status !== "active") throw new RingAccountPausedError(account.accountId, account.status);
        const userOnRequest = clientOptions.onRequest;
        const client = new RingClient({
          family: await getDataFamily(),
          clock,
          ...clientOptions,
          accountId: account.accountId,
          // the run's signal, with a test's own (clientOptions) when there is one
          signal: clientOptions.signal ? AbortSignal.any([run.signal, clientOptions.signal]) : run.signal,
          onRequest: (info) => {
            stats.requests++;
            userOnRequest?.(info);
          },
        });
        return { client, scopes: account.scopes, ringUserId: account.ringUserId };
      },
    };
  }

  /** The cycle's phases while the person does not track their cycle: nothing is fetched or kept. */
  private async cycleOff(userId: string, collection: SyncCollection): Promise<boolean> {
    return collection === CYCLE_RESOURCE && !(await findCycleSettings(userId))?.tracking;
  }

  /** What is left of a run that met tracking turned off: the page rolled back, nothing recorded as failed. */
  private cycleStopped(userId: string, collection: SyncCollection): CollectionOutcome {
    this.progress.delete(`${userId}:${collection}`);
    return { collection, result: "skipped", reason: "cycle_off" };
  }

  private skipReason(state: SyncStateRow | undefined, scopes: string[], collection: SyncCollection): string | null {
    if (scopes.length > 0 && !scopes.includes(getResource(collection).scope)) return "not_shared";
    if (state?.status === "not_shared") return "not_shared";
    if (state?.status === "expired") {
      // A lapsed membership may be renewed without a reconnect: ask again once a day.
      const last = state.lastAttemptAt?.getTime() ?? 0;
      if (this.ctx.clock.now() - last < 24 * 3_600_000) return "expired";
    }
    return null;
  }

  /**
   * Fetches a collection's whole history from the backfill start to today, resuming from
   * the checkpoint. Idempotent: a finished backfill returns at once. A run of the person's
   * sync (runs.ts): skipped when their sync is stopped, fenced by their generation.
   */
  backfillCollection(userId: string, collection: SyncCollection, opts: RunOptions = {}): Promise<CollectionOutcome> {
    return withRun(
      userId,
      opts,
      () => stoppedOutcome(collection),
      async (run) => {
        if (await this.cycleOff(userId, collection)) return { collection, result: "skipped", reason: "cycle_off" };
        await inRunTx(run, (tx) => syncStatesEnsure(tx, userId, [collection]));
        const state = await getSyncState(userId, collection);
        if (state?.backfillDoneAt) return { collection, result: "done", reason: "already done" };
        try {
          const { client, scopes } = await this.ctx.accessFor(run);
          const skip = this.skipReason(state, scopes, collection);
          if (skip) {
            // a scope newly not shared is recorded
            if (skip === "not_shared" && state?.status !== "not_shared")
              await updateRunState(run, collection, { status: "not_shared", lastError: describeError(new RingApiError({ status: 403, endpoint: "" })) });
            return { collection, result: "skipped", reason: skip };
          }
          // newest first: a new backfill stores the recent days, and says the history is still to come
          if (!state?.backfillFrom || !state.backfillTo)
            return isSeriesCollection(collection)
              ? await recentSeries(this.ctx, run, collection, client)
              : await recentDocuments(this.ctx, run, collection, client);
          return isSeriesCollection(collection)
            ? await backfillSeries(this.ctx, run, collection, state, client)
            : await backfillDocuments(this.ctx, run, collection, state, client);
        } catch (err) {
          if (err instanceof CycleTrackingOff) return this.cycleStopped(userId, collection);
          return await recordFailure(this.ctx, run, collection, err, "backfilling");
        }
      },
    );
  }

  /**
   * Backfills every collection of a person, time series included (bounded concurrency), newest
   * first: every collection's recent days (what Today shows first: plan.ts inNewestFirstOrder),
   * then the history behind them.
   */
  async backfillUser(userId: string, collections: readonly SyncCollection[] = SYNC_COLLECTIONS): Promise<CollectionOutcome[]> {
    const recent = await this.forEachCollection(
      inNewestFirstOrder(collections, (c) => c),
      (c) => this.backfillCollection(userId, c),
    );
    // the time series' histories first: theirs are the longest chains (plan.ts historyRunAt)
    const more = recent
      .filter((o) => o.more)
      .map((o) => o.collection)
      .sort((a, b) => Number(isSeriesCollection(b)) - Number(isSeriesCollection(a)));
    if (more.length === 0) return recent;
    const history = await this.forEachCollection(more, (c) => this.backfillCollection(userId, c));
    return [...recent.filter((o) => !o.more), ...history];
  }

  /**
   * Re-reads the recent days of a collection (documents: the trailing window, with deletions;
   * time series: the recent UTC days, back to where the last fetch ended). A run, as a backfill.
   */
  incrementalCollection(userId: string, collection: SyncCollection, opts: RunOptions = {}): Promise<CollectionOutcome> {
    return withRun(
      userId,
      opts,
      () => stoppedOutcome(collection),
      async (run) => {
        if (await this.cycleOff(userId, collection)) return { collection, result: "skipped", reason: "cycle_off" };
        await inRunTx(run, (tx) => syncStatesEnsure(tx, userId, [collection]));
        const state = await getSyncState(userId, collection);
        if (!state?.backfillDoneAt) return { collection, result: "skipped", reason: "backfill pending" };
        try {
          const { client, scopes } = await this.ctx.accessFor(run);
          const skip = this.skipReason(state, scopes, collection);
          if (skip) return { collection, result: "skipped", reason: skip };
          await updateRunState(run, collection, { status: "syncing", lastAttemptAt: this.ctx.now() });
          return isSeriesCollection(collection)
            ? await incrementalSeries(this.ctx, run, collection, state, client)
            : await incrementalDocuments(this.ctx, run, collection, client);
        } catch (err) {
          if (err instanceof CycleTrackingOff) return this.cycleStopped(userId, collection);
          return await recordFailure(this.ctx, run, collection, err, "idle");
        }
      },
    );
  }

  /** Incremental sync of every collection of a person, time series included. */
  syncUser(userId: string, collections: readonly SyncCollection[] = SYNC_COLLECTIONS): Promise<CollectionOutcome[]> {
    return this.forEachCollection(collections, (c) => this.incrementalCollection(userId, c));
  }

  /**
   * Applies one notification: fetch the document, then upsert it, or delete it when the service
   * answers 404 (the cycle's phases: ignored while the person does not track their cycle). A run:
   * ignored when the person's sync is stopped, fenced by their generation.
   */
  applyDocumentEvent(event: DocumentEvent, opts: RunOptions = {}): Promise<"applied" | "ignored"> {
    return withRun(
      event.userId,
      opts,
      () => "ignored" as const,
      async (run) => {
        if (await this.cycleOff(event.userId, event.collection)) return "ignored";
        try {
          return await applyDocumentEvent(this.ctx, run, event);
        } catch (err) {
          if (err instanceof CycleTrackingOff) return "ignored";
          throw err;
        }
      },
    );
  }

  /** Takes the personal_info snapshot (on connect and daily); nothing when the person's sync is stopped. */
  snapshotPersonalInfo(userId: string, opts: RunOptions = {}): Promise<void> {
    return withRun(
      userId,
      opts,
      () => undefined,
      (run) => snapshotPersonalInfo(this.ctx, run),
    );
  }

  /** Runs `fn` for each collection, at most `concurrency` at once; errors are returned, not thrown. */
  private async forEachCollection(collections: readonly SyncCollection[], fn: (c: SyncCollection) => Promise<CollectionOutcome>): Promise<CollectionOutcome[]> {
    const queue = [...collections];
    const out: CollectionOutcome[] = [];
    const worker = async () => {
      for (let c = queue.shift(); c !== undefined; c = queue.shift()) {
        try {
          out.push(await fn(c));
        } catch (error) {
          out.push({ collection: c, result: "failed", error, reason: describeError(error) });
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.concurrency, queue.length) }, worker));
    return out;
  }
}

/** What a job of a person whose sync is stopped does: nothing. */
const stoppedOutcome = (collection: SyncCollection): CollectionOutcome => ({ collection, result: "skipped", reason: "sync stopped" });

/** The process-wide engine the scheduler, the webhook worker and the API share. */
export function getSyncEngine(): SyncEngine {
  return processSingleton("syncEngine", () => new SyncEngine());
}
