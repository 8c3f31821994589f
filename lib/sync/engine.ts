import "server-only";
import { env } from "@/lib/env.mjs";
import { logger } from "@/lib/log";
import { RingClient, type RingClientOptions } from "@/lib/ring/client";
import { ReconnectRequiredError, RingAccountPausedError, RingApiError, RingRateLimitedError, TokenRefreshError } from "@/lib/ring/errors";
import { getResource, isSeriesCollection, SYNC_COLLECTIONS, type RingCollection, type SeriesCollection, type SyncCollection } from "@/lib/resources";
import type { DateTimeWindowRule, DateWindowRule, NoWindow } from "@/lib/resources/define";
import { getRingAccountForUser } from "@/lib/ring/tokens";
import {
  documentSummary,
  deleteDocumentById,
  deleteMissingDocuments,
  ingestDocuments,
  upsertPersonalInfo,
  type DocumentRow,
  type RejectedInput,
} from "@/lib/db/queries/ring-documents";
import { ensureSyncStates, getSyncState, syncStateUpdate, updateSyncState, type SyncStateRow, type SyncStatus } from "@/lib/db/queries/sync-state";
import { query, type Work } from "@/lib/db/sql";
import { toDbTime } from "@/lib/db/dialect";
import { clock as processClock, type Clock } from "@/lib/clock";
import { sliceDataArray } from "@/lib/ring/json-slices";
import { documentKey, instantOf, mapDocument, mapPersonalInfo, mapSamples } from "@/lib/sync/map";
import { mergeSampleDays, replaceSampleDays, seriesSummaryOf } from "@/lib/db/queries/time-series";
import { groupByUtcDay, type Sample } from "@/lib/db/sample-codec";
import { noteUnknownValues } from "@/lib/sync/unknown-values";
import {
  inWindow,
  isoInstant,
  latestPossibleDay,
  nextSeriesWindow,
  planBackfillWindows,
  queryWindow,
  resumeDayAfterPage,
  seriesQuery,
  seriesRecheckWindows,
  seriesWindowsLeft,
  trailingWindow,
  windowsStartAfterProbe,
  type DayWindow,
} from "@/lib/sync/plan";
import { getDataFamily } from "@/lib/sync/settings";

// The sync engine: backfill (whole history, checkpointed per page), incremental (trailing
// window re-check with deletions), webhook documents and the personal_info snapshot.
// Every page is validated document by document, mapped, and written with its checkpoint in
// one SQLite transaction (lib/db/queries/ring-documents.ts), so a crash at any point resumes
// with no gap and no duplicate.

export type SyncStats = {
  requests: number;
  pages: number;
  documents: number;
  /** time-series samples stored (heart rate, battery) */
  samples: number;
  rejected: number;
  /** time spent validating, mapping and writing (ms) */
  ingestMs: number;
  /** of which validating and mapping (ms) */
  mapMs: number;
};

export type CollectionOutcome = {
  collection: SyncCollection;
  result: "done" | "skipped" | "failed";
  reason?: string;
  error?: unknown;
  documents?: number;
  deleted?: number;
};

export type EngineHooks = {
  /** runs inside each page's transaction before it commits: throw to simulate a crash */
  beforeCommit?: (info: { userId: string; collection: SyncCollection; page: number }) => void;
  /** runs after each committed page */
  afterPage?: (info: { userId: string; collection: SyncCollection; page: number; documents: number }) => void | Promise<void>;
};

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

export type BackfillProgress = {
  startedAt: number;
  pages: number;
  documents: number;
  firstDay: string | null;
  cursorDay: string | null;
};

/** Which (internal) scope a collection needs: its registry entry's. */
function scopeFor(collection: SyncCollection): string {
  return getResource(collection).scope;
}

/** How the collection's route reads a date window: its registry entry's. */
function windowRule(collection: RingCollection): DateWindowRule | NoWindow {
  return getResource(collection).window;
}

function seriesRule(collection: SeriesCollection): DateTimeWindowRule {
  return getResource(collection).window;
}


function isPausedError(err: unknown): boolean {
  return err instanceof ReconnectRequiredError || err instanceof RingAccountPausedError || (err instanceof RingApiError && err.code === "unauthorized");
}

/** How the job runner should treat an error thrown by the engine. */
export type ErrorClass =
  | { kind: "postpone"; until: number }
  | { kind: "paused" }
  | { kind: "stop"; status: SyncStatus }
  | { kind: "bug" }
  | { kind: "retry" };

export function classifyError(err: unknown): ErrorClass {
  if (err instanceof RingRateLimitedError) return { kind: "postpone", until: err.until };
  if (isPausedError(err)) return { kind: "paused" };
  if (err instanceof RingApiError) {
    switch (err.code) {
      case "membership_expired":
        return { kind: "stop", status: "expired" };
      case "not_shared":
        return { kind: "stop", status: "not_shared" };
      case "bad_request":
      case "unprocessable":
      case "not_found":
        return { kind: "bug" };
      default:
        return { kind: "retry" };
    }
  }
  if (err instanceof TokenRefreshError) return { kind: "retry" };
  return { kind: "retry" };
}

/** A message for the sync page (no tokens, no URLs with queries). */
function describeError(err: unknown): string {
  const c = classifyError(err);
  if (c.kind === "postpone") return `Paused by the ring service's rate limit until ${new Date(c.until).toISOString()}.`;
  if (c.kind === "paused") return "The ring connection needs to be reconnected; syncing is paused.";
  if (err instanceof RingApiError) {
    if (c.kind === "stop" && c.status === "expired") return "The ring membership has expired: the service does not share this data.";
    if (c.kind === "stop") return "Not shared: the consent for this data was not given. Reconnect and allow it to sync.";
    if (c.kind === "bug") return `The ring service refused Ringside's request (HTTP ${err.status} at ${err.endpoint}). This is a bug in Ringside.`;
    if (err.code === "no_answer") return `The ring service did not answer (${err.detail ?? "network error"}); retrying later.`;
    return `The ring service failed (HTTP ${err.status}); retrying later.`;
  }
  if (err instanceof TokenRefreshError) {
    // The token endpoint failed for a passing reason (5xx, no answer): not an internal error.
    return `The ring service could not renew the access (${err.status ? `HTTP ${err.status}` : "no answer"}); retrying later.`;
  }
  return err instanceof Error ? `Internal error: ${err.message.slice(0, 200)}` : "Internal error.";
}

/** Widens a backfill's progress to the days of one more page. */
function widenProgressDays(progress: { firstDay: string | null; cursorDay: string | null }, first: string | null, last: string | null): void {
  if (first && (!progress.firstDay || first < progress.firstDay)) progress.firstDay = first;
  if (last && (!progress.cursorDay || last > progress.cursorDay)) progress.cursorDay = last;
}

export class SyncEngine {
  readonly stats: SyncStats = { requests: 0, pages: 0, documents: 0, samples: 0, rejected: 0, ingestMs: 0, mapMs: 0 };
  readonly progress = new Map<string, BackfillProgress>();
  private readonly clock: Clock;
  private readonly concurrency: number;
  private readonly clientOptions: Partial<Omit<RingClientOptions, "accountId">>;
  private readonly hooks: EngineHooks;
  private readonly backfillStart: string;
  private readonly trailingDays: number;
  private readonly maxWindowDays: number | undefined;

  constructor(opts: SyncEngineOptions = {}) {
    this.clock = opts.clock ?? processClock;
    this.concurrency = Math.max(1, opts.concurrency ?? 4);
    this.clientOptions = opts.clientOptions ?? {};
    this.hooks = opts.hooks ?? {};
    this.backfillStart = opts.backfillStart ?? env.RING_BACKFILL_START;
    this.trailingDays = opts.trailingDays ?? env.SYNC_TRAILING_DAYS;
    this.maxWindowDays = opts.maxWindowDays;
  }

  private async accountFor(userId: string): Promise<{ client: RingClient; scopes: string[]; ringUserId: string }> {
    const account = await getRingAccountForUser(userId);
    if (!account) throw new RingAccountPausedError("", "no ring account");
    if (account.status !== "active") throw new RingAccountPausedError(account.accountId, account.status);
    const userOnRequest = this.clientOptions.onRequest;
    const client = new RingClient({
      family: await getDataFamily(),
      clock: this.clock,
      ...this.clientOptions,
      accountId: account.accountId,
      onRequest: (info) => {
        this.stats.requests++;
        userOnRequest?.(info);
      },
    });
    return { client, scopes: account.scopes, ringUserId: account.ringUserId };
  }

  private now(): Date {
    return new Date(this.clock.now());
  }

  /** Records what went wrong on the collection's SyncState, then rethrows. */
  private async fail(userId: string, collection: SyncCollection, err: unknown, running: SyncStatus): Promise<never> {
    const c = classifyError(err);
    const status: SyncStatus =
      c.kind === "stop" ? c.status : c.kind === "paused" ? "paused" : c.kind === "bug" ? "error" : running;
    try {
      await updateSyncState(userId, collection, { status, lastError: describeError(err), lastAttemptAt: this.now() });
    } catch (dbErr) {
      logger.error({ userId, collection, err: dbErr instanceof Error ? dbErr.message : String(dbErr) }, "could not record a sync error");
    }
    if (c.kind === "bug" || c.kind === "retry") {
      logger.warn({ userId, collection, kind: c.kind, err: err instanceof Error ? err.message : String(err) }, "sync step failed");
    }
    throw err;
  }

  private *summarize(userId: string, collection: SyncCollection): Work<{ documentsTotal: number; newestDay: string | null }> {
    const s = isSeriesCollection(collection) ? yield* seriesSummaryOf(collection, userId) : yield* documentSummary(collection, userId);
    return { documentsTotal: s.documents, newestDay: s.newestDay };
  }

  /** Maps a page: rows inside the window, rejected documents, and the keys seen. */
  private mapPage(collection: RingCollection, userId: string, docs: unknown[], window: DayWindow, body: string | null = null) {
    // Each document's JSON exactly as received, sliced from the body (else re-serialised).
    const sliced = body ? sliceDataArray(body) : null;
    const rawTexts = sliced && sliced.length === docs.length ? sliced : null;
    const syncedAt = toDbTime(this.now());
    const rows: DocumentRow[] = [];
    const rejected: RejectedInput[] = [];
    const seen: string[] = [];
    const days: Array<string | null> = [];
    for (let i = 0; i < docs.length; i++) {
      const r = mapDocument(collection, docs[i], userId, syncedAt, rawTexts?.[i]);
      if (r.ok) {
        if (r.unknown) noteUnknownValues(collection, r.unknown);
        days.push(r.row.day);
        const key = documentKey(collection, r.row);
        if (key) seen.push(key);
        if (inWindow(r.row.day, window)) rows.push(r.row);
      } else {
        if (r.day) days.push(r.day);
        const key = documentKey(collection, r);
        if (key) seen.push(key);
        if (!r.day || inWindow(r.day, window)) rejected.push({ documentId: r.documentId, day: r.day, raw: r.raw, error: r.error });
      }
    }
    return { rows, rejected, seen, days };
  }

  private skipReason(state: SyncStateRow | undefined, scopes: string[], collection: SyncCollection): string | null {
    if (scopes.length > 0 && !scopes.includes(scopeFor(collection))) return "not_shared";
    if (state?.status === "not_shared") return "not_shared";
    if (state?.status === "expired") {
      // A lapsed membership may be renewed without a reconnect: ask again once a day.
      const last = state.lastAttemptAt ? Date.parse(state.lastAttemptAt) : 0;
      if (this.clock.now() - last < 24 * 3_600_000) return "expired";
    }
    return null;
  }

  /** A backfill that does not run, recorded (a scope newly not shared) and its outcome; null when it runs. */
  private async backfillSkipped(userId: string, state: SyncStateRow | undefined, scopes: string[], collection: SyncCollection): Promise<CollectionOutcome | null> {
    const skip = this.skipReason(state, scopes, collection);
    if (!skip) return null;
    if (skip === "not_shared" && state?.status !== "not_shared")
      await updateSyncState(userId, collection, { status: "not_shared", lastError: describeError(new RingApiError({ status: 403, endpoint: "" })) });
    return { collection, result: "skipped", reason: skip };
  }

  // ---------------------------------------------------------------------------
  // Backfill
  // ---------------------------------------------------------------------------

  /**
   * Fetches a collection's whole history from the backfill start to today, resuming from
   * the checkpoint. Idempotent: a finished backfill returns at once.
   */
  async backfillCollection(userId: string, collection: SyncCollection): Promise<CollectionOutcome> {
    await ensureSyncStates(userId, [collection]);
    const state = await getSyncState(userId, collection);
    if (state?.backfillDoneAt) return { collection, result: "done", reason: "already done" };
    try {
      const { client, scopes } = await this.accountFor(userId);
      const skipped = await this.backfillSkipped(userId, state, scopes, collection);
      if (skipped) return skipped;
      return isSeriesCollection(collection)
        ? await this.backfillSeries(userId, collection, state, client)
        : await this.backfillDocuments(userId, collection, state, client);
    } catch (err) {
      return await this.fail(userId, collection, err, "backfilling");
    }
  }

  /** A document collection's backfill: windows of days, page by page, each page with its checkpoint. */
  private async backfillDocuments(userId: string, collection: RingCollection, initial: SyncStateRow | undefined, client: RingClient): Promise<CollectionOutcome> {
    let state = initial;
    const key = `${userId}:${collection}`;
    if (!state?.backfillFrom || !state.backfillTo) {
      const from = this.backfillStart;
      const to = latestPossibleDay(this.clock.now());
      const windows = planBackfillWindows(from, to, this.maxWindowDays);
      await updateSyncState(userId, collection, {
        backfillFrom: from,
        backfillTo: to,
        windowsTotal: windows.length,
        windowsDone: 0,
        cursorStart: windows[0]?.from ?? from,
        cursorNextToken: null,
      });
      state = (await getSyncState(userId, collection))!;
    }
    const windows = planBackfillWindows(state.backfillFrom!, state.backfillTo!, this.maxWindowDays);
    const rule = windowRule(collection);
    let windowsDone = Math.min(state.windowsDone, windows.length);
    let cursorStart = state.cursorStart ?? windows[windowsDone]?.from ?? state.backfillFrom!;
    let token = state.cursorNextToken;
    await updateSyncState(userId, collection, { status: "backfilling", lastAttemptAt: this.now(), windowsTotal: windows.length });

    const summary = await query(documentSummary(collection, userId));
    const progress: BackfillProgress = this.progress.get(key) ?? {
      startedAt: this.clock.now(),
      pages: 0,
      documents: summary.documents,
      firstDay: summary.oldestDay,
      cursorDay: summary.newestDay,
    };
    this.progress.set(key, progress);
    let newestDay = summary.newestDay;

    let page = 0;
    let retriedToken = false;
    // this run's own work (validate, map, write), for the "backfill finished" log line
    let ingestMs = 0;
    let mapMs = 0;
    let documents = 0;
    while (windowsDone < windows.length) {
      const w = windows[windowsDone]!;
      const from = cursorStart > w.from ? cursorStart : w.from;
      let listed;
      try {
        listed = await client.listPage(collection, { ...queryWindow(rule, client.family, { from, to: w.to }), next_token: token });
      } catch (err) {
        // A next_token from before a restart may be gone (400): start again at the checkpoint day.
        if (token && !retriedToken && err instanceof RingApiError && err.status === 400) {
          retriedToken = true;
          token = null;
          continue;
        }
        throw err;
      }
      retriedToken = false;
      page++;
      const started = performance.now();
      const mapped = this.mapPage(collection, userId, listed.data, w, listed.text);
      const mappedMs = performance.now() - started;
      this.stats.mapMs += mappedMs;
      mapMs += mappedMs;
      let nextToken: string | null;
      let nextCursor: string;
      let nextDone = windowsDone;
      if (listed.nextToken) {
        nextToken = listed.nextToken;
        nextCursor = resumeDayAfterPage(mapped.days, from) ?? from;
      } else {
        nextToken = null;
        nextDone = windowsDone + 1;
        nextCursor = windows[nextDone]?.from ?? w.to;
      }
      const finished = nextDone >= windows.length;
      const pageNo = page;
      // the checkpoint runs inside the page's transaction, as a generator of statements
      const beforeCommit = (page: number) => this.hooks.beforeCommit?.({ userId, collection, page });
      const summarize = () => this.summarize(userId, collection);
      const now = () => this.now();
      await ingestDocuments({
        collection,
        userId,
        rows: mapped.rows,
        rejected: mapped.rejected,
        inTransaction: function* () {
          beforeCommit(pageNo);
          // Counting the stored rows costs a scan of them: once, at the end. Meanwhile the
          // newest day moves with the pages (the sync page counts live).
          for (const r of mapped.rows) if (r.day && (!newestDay || r.day > newestDay)) newestDay = r.day;
          const s = finished ? yield* summarize() : null;
          yield* syncStateUpdate(userId, collection, {
            cursorStart: nextCursor,
            cursorNextToken: nextToken,
            windowsDone: nextDone,
            ...(s ? { documentsTotal: s.documentsTotal, newestDay: s.newestDay } : { newestDay }),
            ...(finished
              ? { backfillDoneAt: now(), status: "idle" as const, lastSuccessAt: now(), lastError: null }
              : { lastError: null }),
          });
        },
      });
      const pageMs = performance.now() - started;
      this.stats.ingestMs += pageMs;
      ingestMs += pageMs;
      documents += mapped.rows.length;
      this.stats.pages++;
      this.stats.documents += mapped.rows.length;
      this.stats.rejected += mapped.rejected.length;
      progress.pages++;
      progress.documents += mapped.rows.length;
      widenProgressDays(progress, mapped.rows[0]?.day ?? null, mapped.days.findLast((d) => d !== null) ?? null);
      await this.hooks.afterPage?.({ userId, collection, page: pageNo, documents: mapped.rows.length });
      windowsDone = nextDone;
      cursorStart = nextCursor;
      token = nextToken;
    }
    return await this.finishBackfill(key, userId, collection, { pages: page, documents, ingestMs, mapMs });
  }

  /** A backfill's end: its progress dropped, its totals logged (ids and counts), its outcome. */
  private async finishBackfill(
    key: string,
    userId: string,
    collection: SyncCollection,
    totals: { pages: number; ingestMs: number; mapMs: number } & ({ documents: number } | { samples: number }),
  ): Promise<CollectionOutcome> {
    this.progress.delete(key);
    const s = await query(this.summarize(userId, collection));
    if (totals.pages > 0) {
      const ms = (v: number) => Math.round(v * 10) / 10;
      logger.info({ userId, collection, ...totals, ingestMs: ms(totals.ingestMs), mapMs: ms(totals.mapMs) }, "backfill finished");
    }
    return { collection, result: "done", documents: s.documentsTotal };
  }

  /** Runs `fn` for each collection, at most `concurrency` at once; errors are returned, not thrown. */
  private async forEachCollection(
    collections: readonly SyncCollection[],
    fn: (c: SyncCollection) => Promise<CollectionOutcome>,
  ): Promise<CollectionOutcome[]> {
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

  /** Backfills every collection of a person, time series included (bounded concurrency). */
  backfillUser(userId: string, collections: readonly SyncCollection[] = SYNC_COLLECTIONS): Promise<CollectionOutcome[]> {
    return this.forEachCollection(collections, (c) => this.backfillCollection(userId, c));
  }

  // ---------------------------------------------------------------------------
  // Incremental
  // ---------------------------------------------------------------------------

  /**
   * Re-reads the trailing window (SYNC_TRAILING_DAYS up to today): new, late and edited
   * documents are upserted; a stored document the service no longer has in that fully
   * fetched window is deleted.
   */
  async incrementalCollection(userId: string, collection: SyncCollection): Promise<CollectionOutcome> {
    if (isSeriesCollection(collection)) return this.incrementalSeries(userId, collection);
    await ensureSyncStates(userId, [collection]);
    const state = await getSyncState(userId, collection);
    if (!state?.backfillDoneAt) return { collection, result: "skipped", reason: "backfill pending" };
    try {
      const { client, scopes } = await this.accountFor(userId);
      const skip = this.skipReason(state, scopes, collection);
      if (skip) return { collection, result: "skipped", reason: skip };
      await updateSyncState(userId, collection, { status: "syncing", lastAttemptAt: this.now() });
      const w = trailingWindow(this.clock.now(), this.trailingDays);
      const rule = windowRule(collection);
      const q = queryWindow(rule, client.family, w);
      const seen: string[] = [];
      let token: string | null = null;
      let documents = 0;
      do {
        const listed = await client.listPage(collection, { ...q, next_token: token });
        const started = performance.now();
        const mapped = this.mapPage(collection, userId, listed.data, w, listed.text);
        seen.push(...mapped.seen);
        await ingestDocuments({ collection, userId, rows: mapped.rows, rejected: mapped.rejected });
        this.stats.ingestMs += performance.now() - started;
        this.stats.pages++;
        this.stats.documents += mapped.rows.length;
        this.stats.rejected += mapped.rejected.length;
        documents += mapped.rows.length;
        token = listed.nextToken;
      } while (token);
      // The window was fetched completely: what is no longer there was deleted upstream.
      const deleted = await deleteMissingDocuments({ collection, userId, window: rule.param === "none" ? null : { fromDay: w.from, toDay: w.to }, seenKeys: seen });
      const s = await query(this.summarize(userId, collection));
      await updateSyncState(userId, collection, {
        status: "idle",
        lastSuccessAt: this.now(),
        lastError: null,
        documentsTotal: s.documentsTotal,
        newestDay: s.newestDay,
      });
      if (deleted > 0) logger.info({ userId, collection, deleted }, "documents deleted upstream removed");
      return { collection, result: "done", documents, deleted };
    } catch (err) {
      return await this.fail(userId, collection, err, "idle");
    }
  }

  /** Incremental sync of every collection of a person, time series included. */
  syncUser(userId: string, collections: readonly SyncCollection[] = SYNC_COLLECTIONS): Promise<CollectionOutcome[]> {
    return this.forEachCollection(collections, (c) => this.incrementalCollection(userId, c));
  }

  // ---------------------------------------------------------------------------
  // Time series (heart rate, ring battery)
  // ---------------------------------------------------------------------------

  /** Validates and maps a page of samples; rejected rows go aside, unknown values are logged once. */
  private mapSeriesPage(collection: SeriesCollection, rows: unknown[]) {
    const started = performance.now();
    const mapped = mapSamples(collection, rows);
    if (mapped.unknown.length) noteUnknownValues(collection, mapped.unknown);
    const rejected: RejectedInput[] = mapped.rejected.map((r) => ({ documentId: null, day: r.day, raw: r.raw, error: r.error }));
    const ms = performance.now() - started;
    this.stats.mapMs += ms;
    return { samples: mapped.samples, days: groupByUtcDay(mapped.samples), rejected, rejectedCount: mapped.rejectedCount, ms };
  }

  /**
   * A time series' whole history, checkpointed per page. The first request asks for the whole
   * range and keeps its one page (the earliest samples: it finds where the history starts, so
   * the empty years before it cost nothing); from the newest instant on it the history is read in
   * windows of the route's `maxDays` (30), page by page with next_token. Where the service
   * refuses the long range (400), the windows start at the backfill start instead. Every page is
   * merged into its UTC days together with its checkpoint (window start, next_token) in one
   * transaction; samples met twice (on a window's bound, or after a resumed page) are stored once.
   */
  private async backfillSeries(userId: string, collection: SeriesCollection, initial: SyncStateRow | undefined, client: RingClient): Promise<CollectionOutcome> {
    let state = initial;
    const key = `${userId}:${collection}`;
    if (!state?.backfillFrom || !state.backfillTo) {
      await updateSyncState(userId, collection, {
        backfillFrom: this.backfillStart,
        backfillTo: latestPossibleDay(this.clock.now()),
        windowsTotal: 1,
        windowsDone: 0,
        cursorStart: null,
        cursorNextToken: null,
      });
      state = (await getSyncState(userId, collection))!;
    }
    const { maxDays } = seriesRule(collection);
    const startMs = Date.parse(`${state.backfillFrom}T00:00:00Z`);
    const endMs = Date.parse(`${state.backfillTo}T00:00:00Z`);
    let cursor: number | null = state.cursorStart ? instantOf(state.cursorStart) : null;
    if (cursor !== null && !Number.isFinite(cursor)) cursor = startMs;
    let token = state.cursorNextToken;
    let windowsDone = state.windowsDone;
    await updateSyncState(userId, collection, { status: "backfilling", lastAttemptAt: this.now() });

    const summary = await query(seriesSummaryOf(collection, userId));
    const progress: BackfillProgress = this.progress.get(key) ?? { startedAt: this.clock.now(), pages: 0, documents: summary.documents, firstDay: summary.oldestDay, cursorDay: summary.newestDay };
    this.progress.set(key, progress);
    let page = 0;
    let ingestMs = 0;
    let mapMs = 0;
    let samples = 0;
    let retriedToken = false;
    let finished = false;
    while (!finished) {
      const probe = cursor === null;
      const w = probe ? { start: startMs, end: endMs } : nextSeriesWindow(cursor!, endMs, maxDays);
      let listed;
      try {
        listed = await client.listSeriesPage(collection, { ...seriesQuery(w), next_token: probe ? null : token }, { mayRefuse: probe });
      } catch (err) {
        if (err instanceof RingApiError && err.status === 400) {
          if (probe) {
            // The long range is refused: read the whole range in windows from its start.
            cursor = startMs;
            token = null;
            await updateSyncState(userId, collection, { cursorStart: isoInstant(cursor), cursorNextToken: null, windowsTotal: seriesWindowsLeft(cursor, endMs, maxDays) });
            continue;
          }
          if (token && !retriedToken) {
            // A next_token from before a restart may be gone: read the window again.
            retriedToken = true;
            token = null;
            continue;
          }
        }
        throw err;
      }
      retriedToken = false;
      page++;
      const started = performance.now();
      const mapped = this.mapSeriesPage(collection, listed.data);
      mapMs += mapped.ms;
      let nextCursor: number;
      let nextToken: string | null = null;
      let nextDone = windowsDone;
      if (probe) {
        if (!listed.nextToken) {
          finished = true;
          nextCursor = endMs;
        } else {
          const rowInstants = mapped.samples.length ? mapped.samples.map((x) => x.t) : listed.data.map((r) => (r && typeof r === "object" && typeof (r as { timestamp?: unknown }).timestamp === "string" ? instantOf((r as { timestamp: string }).timestamp) : Number.NaN));
          nextCursor = windowsStartAfterProbe(rowInstants) ?? startMs;
        }
      } else if (listed.nextToken) {
        nextCursor = w.start;
        nextToken = listed.nextToken;
      } else {
        nextCursor = w.end;
        nextDone = windowsDone + 1;
        finished = w.end >= endMs;
      }
      const pageNo = page;
      const done = finished;
      // the checkpoint runs inside the page's transaction, as a generator of statements
      const beforeCommit = (page: number) => this.hooks.beforeCommit?.({ userId, collection, page });
      const summarize = () => this.summarize(userId, collection);
      const now = () => this.now();
      await mergeSampleDays({
        collection,
        userId,
        days: mapped.days,
        rejected: mapped.rejected,
        inTransaction: function* () {
          beforeCommit(pageNo);
          const s = done ? yield* summarize() : null;
          yield* syncStateUpdate(userId, collection, {
            // once done, the cursor says how far the history was fetched (the re-check starts there at the latest)
            cursorStart: isoInstant(done ? Math.min(endMs, now().getTime()) : nextCursor),
            cursorNextToken: nextToken,
            windowsDone: nextDone,
            windowsTotal: nextDone + (done ? 0 : Math.max(1, seriesWindowsLeft(nextCursor, endMs, maxDays))),
            ...(s ? { documentsTotal: s.documentsTotal, newestDay: s.newestDay } : {}),
            ...(done ? { backfillDoneAt: now(), status: "idle" as const, lastSuccessAt: now(), lastError: null } : { lastError: null }),
          });
        },
      });
      const pageMs = performance.now() - started;
      this.stats.ingestMs += pageMs;
      ingestMs += pageMs;
      samples += mapped.samples.length;
      this.stats.pages++;
      this.stats.samples += mapped.samples.length;
      this.stats.rejected += mapped.rejectedCount;
      progress.pages++;
      progress.documents += mapped.samples.length;
      const days = [...mapped.days.keys()];
      widenProgressDays(progress, days[0] ?? null, days.at(-1) ?? null);
      await this.hooks.afterPage?.({ userId, collection, page: pageNo, documents: mapped.samples.length });
      cursor = nextCursor;
      token = nextToken;
      windowsDone = nextDone;
    }
    return await this.finishBackfill(key, userId, collection, { pages: page, samples, ingestMs, mapMs });
  }

  /**
   * Re-reads a time series' recent days (SYNC_TRAILING_DAYS, and back to where the last fetch
   * ended after a long pause), in windows of whole UTC days; each window's days then hold
   * exactly what the service sent (a sample it no longer has is gone). There are no webhooks for
   * time series (facts §6.1): this poll is what keeps them current.
   */
  private async incrementalSeries(userId: string, collection: SeriesCollection): Promise<CollectionOutcome> {
    await ensureSyncStates(userId, [collection]);
    const state = await getSyncState(userId, collection);
    if (!state?.backfillDoneAt) return { collection, result: "skipped", reason: "backfill pending" };
    try {
      const { client, scopes } = await this.accountFor(userId);
      const skip = this.skipReason(state, scopes, collection);
      if (skip) return { collection, result: "skipped", reason: skip };
      await updateSyncState(userId, collection, { status: "syncing", lastAttemptAt: this.now() });
      const fetchedThrough = state.cursorStart ? instantOf(state.cursorStart) : null;
      const windows = seriesRecheckWindows({ nowMs: this.clock.now(), trailingDays: this.trailingDays, fetchedThrough, maxDays: seriesRule(collection).maxDays });
      let samples = 0;
      let removed = 0;
      for (const w of windows) {
        const fetched: Sample[] = [];
        const rejected: RejectedInput[] = [];
        let token: string | null = null;
        do {
          const listed = await client.listSeriesPage(collection, { ...seriesQuery(w), next_token: token });
          const started = performance.now();
          const mapped = this.mapSeriesPage(collection, listed.data);
          for (const x of mapped.samples) fetched.push(x);
          rejected.push(...mapped.rejected);
          this.stats.ingestMs += performance.now() - started;
          this.stats.pages++;
          this.stats.rejected += mapped.rejectedCount;
          token = listed.nextToken;
        } while (token);
        const started = performance.now();
        const byDay = groupByUtcDay(fetched);
        // The window's own days are now known whole; a sample on its end bound (the next day's
        // midnight) belongs to the next window and is merged only.
        const inside = new Map([...byDay].filter(([d]) => d >= w.days.from && d <= w.days.to));
        const outside = new Map([...byDay].filter(([d]) => d < w.days.from || d > w.days.to));
        removed += await replaceSampleDays({ collection, userId, fromDay: w.days.from, toDay: w.days.to, days: inside });
        if (outside.size || rejected.length) await mergeSampleDays({ collection, userId, days: outside, rejected });
        this.stats.ingestMs += performance.now() - started;
        samples += fetched.length;
        this.stats.samples += fetched.length;
      }
      const s = await query(this.summarize(userId, collection));
      await updateSyncState(userId, collection, {
        status: "idle",
        cursorStart: isoInstant(Math.min(this.clock.now(), windows.at(-1)?.end ?? this.clock.now())),
        lastSuccessAt: this.now(),
        lastError: null,
        documentsTotal: s.documentsTotal,
        newestDay: s.newestDay,
      });
      if (removed > 0) logger.info({ userId, collection, removed }, "samples the ring service no longer has removed");
      return { collection, result: "done", documents: samples, deleted: removed };
    } catch (err) {
      return await this.fail(userId, collection, err, "idle");
    }
  }

  // ---------------------------------------------------------------------------
  // Webhook documents and personal_info
  // ---------------------------------------------------------------------------

  /** Applies one notification: fetch the document, then upsert it, or delete it when the service answers 404. */
  async applyDocumentEvent(opts: {
    userId: string;
    collection: RingCollection;
    eventType: "create" | "update" | "delete";
    objectId: string | null;
  }): Promise<"applied" | "ignored"> {
    const { userId, collection, eventType, objectId } = opts;
    const state = await getSyncState(userId, collection);
    if (state?.status === "not_shared" || state?.status === "expired") return "ignored";
    if (!objectId) return "ignored";
    try {
      const { client } = await this.accountFor(userId);
      // Every notification is only a hint: the document is asked for, and a delete is applied
      // only when the service answers 404 for it (a forged or stale delete changes nothing).
      const doc = await client.getDocument(collection, objectId);
      if (eventType === "delete" && doc !== null) {
        logger.warn({ userId, collection, eventType }, "delete notification for a document the ring service still has: not deleted");
        return "ignored";
      }
      if (doc === null) {
        await deleteDocumentById(collection, userId, objectId);
      } else {
        const started = performance.now();
        const r = mapDocument(collection, doc, userId, toDbTime(this.now()));
        if (r.ok && r.unknown) noteUnknownValues(collection, r.unknown);
        if (r.ok) await ingestDocuments({ collection, userId, rows: [r.row] });
        else await ingestDocuments({ collection, userId, rows: [], rejected: [{ documentId: r.documentId ?? objectId, day: r.day, raw: r.raw, error: r.error }] });
        this.stats.ingestMs += performance.now() - started;
      }
    } catch (err) {
      const c = classifyError(err);
      if (c.kind === "stop") await this.fail(userId, collection, err, state?.status ?? "idle");
      throw err;
    }
    if (state) {
      const s = await query(this.summarize(userId, collection));
      await updateSyncState(userId, collection, { documentsTotal: s.documentsTotal, newestDay: s.newestDay, lastSuccessAt: this.now() });
    }
    return "applied";
  }

  /**
   * Takes the personal_info snapshot (on connect and daily). A snapshot without `id` degrades
   * to the ring account already known for the person (the connection's account id) instead of
   * failing.
   */
  async snapshotPersonalInfo(userId: string): Promise<void> {
    const { client, ringUserId: known } = await this.accountFor(userId);
    try {
      const { info, raw } = await client.personalInfo();
      if (!info.id) logger.warn({ userId }, "personal_info came without an id; kept the known ring account");
      const row = mapPersonalInfo(raw, userId, known);
      if (row) await upsertPersonalInfo(row);
    } catch (err) {
      // personal_info answers every token with its id: a 403 here means the membership lapsed.
      if (err instanceof RingApiError && err.status === 403) {
        for (const c of SYNC_COLLECTIONS) {
          await updateSyncState(userId, c, { status: "expired", lastError: describeError(new RingApiError({ status: 403, endpoint: err.endpoint, detail: "membership expired" })), lastAttemptAt: this.now() });
        }
      }
      throw err;
    }
  }
}

const globalForEngine = globalThis as unknown as { ringsideSyncEngine?: SyncEngine };

/** The process-wide engine the scheduler, the webhook worker and the API share. */
export function getSyncEngine(): SyncEngine {
  globalForEngine.ringsideSyncEngine ??= new SyncEngine();
  return globalForEngine.ringsideSyncEngine;
}
