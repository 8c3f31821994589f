import "server-only";
import { asBackground } from "@/lib/cpu-ledger";
import { logger } from "@/lib/log";
import type { RingClient } from "@/lib/ring/client";
import { RingApiError } from "@/lib/ring/errors";
import { getResource, type SeriesCollection } from "@/lib/resources";
import type { RejectedInput } from "@/lib/db/ingest/documents";
import { getSyncState, type SyncStateRow } from "@/lib/db/queries/sync-state";
import { sampleDaysMerge, sampleDaysReplace } from "@/lib/db/ingest/series";
import { groupByUtcDay, type Sample } from "@/lib/db/sample-codec";
import type { Work } from "@/lib/db/ingest/driver";
import { instantOf, mapSamples } from "@/lib/sync/map";
import { noteUnknownValues } from "@/lib/sync/unknown-values";
import { windowChains, type WindowChains } from "@/lib/sync/window-chains";
import {
  isoInstant,
  latestPossibleDay,
  type InstantWindow,
  newestFirstRanges,
  nextSeriesWindow,
  recentSeriesWindows,
  SERIES_PAGES_AHEAD,
  SERIES_WINDOWS_AT_ONCE,
  seriesQuery,
  seriesRecheckWindows,
  seriesWindowsLeft,
  windowsStartAfterProbe,
} from "@/lib/sync/plan";
import { askAhead, backfillFinished, commitPage, commitRecentPage, runBackfill, updateRunState, type BackfillPage } from "./commit";
import { summarize, type CollectionOutcome, type EngineContext } from "./context";
import type { SyncRun } from "./runs";

// Time series (heart rate, ring battery): stored per person and UTC day, fetched in windows of
// instants. There are no webhooks for them (facts §6.1): the incremental poll keeps them current.

/** Validates and maps a page of samples; rejected rows go aside, unknown values are logged once. */
function mapSeriesPage(ctx: EngineContext, collection: SeriesCollection, rows: unknown[]) {
  return asBackground(() => mapSeriesPageNow(ctx, collection, rows));
}

function mapSeriesPageNow(ctx: EngineContext, collection: SeriesCollection, rows: unknown[]) {
  const started = performance.now();
  const mapped = mapSamples(collection, rows);
  if (mapped.unknown.length) noteUnknownValues(collection, mapped.unknown);
  const rejected: RejectedInput[] = mapped.rejected.map((r) => ({ documentId: null, day: r.day, raw: r.raw, error: r.error }));
  const days = groupByUtcDay(mapped.samples);
  const ms = performance.now() - started;
  ctx.stats.mapMs += ms;
  return { samples: mapped.samples, days, rejected, rejectedCount: mapped.rejectedCount, ms };
}

/** The instant of each row of a page (NaN where it has none), from its samples or its raw rows. */
function rowInstants(samples: readonly Sample[], rows: readonly unknown[]): number[] {
  if (samples.length) return samples.map((x) => x.t);
  return rows.map((r) =>
    r && typeof r === "object" && typeof (r as { timestamp?: unknown }).timestamp === "string" ? instantOf((r as { timestamp: string }).timestamp) : Number.NaN,
  );
}

/**
 * Newest first, the recent pass of a new backfill: the recent days (lib/sync/plan.ts
 * newestFirstRanges) in windows of the route's `maxDays`, each page merged as it comes; then, in
 * one write, the history's checkpoint behind them (its range ends where the recent days begin),
 * or the backfill's end. `recentThrough` keeps the instant everything was fetched up to (the
 * re-check starts there once the history is done). A stop before that write does the pass again:
 * samples met twice are stored once.
 */
export async function recentSeries(ctx: EngineContext, run: SyncRun, collection: SeriesCollection, client: RingClient): Promise<CollectionOutcome> {
  const { userId } = run;
  const { recent, history } = newestFirstRanges(ctx.backfillStart, latestPossibleDay(ctx.clock.now()));
  const { maxDays } = getResource(collection).window;
  const startMs = Date.parse(`${recent.from}T00:00:00Z`);
  const endMs = Date.parse(`${recent.to}T00:00:00Z`);
  await updateRunState(run, collection, { status: "backfilling", lastAttemptAt: ctx.now() });
  // the windows in the order they are read: what Today shows, its newest day first (plan.ts)
  const windows = recentSeriesWindows(collection, startMs, endMs, maxDays);
  // the service answers with what it had when it was asked: everything up to the last ask for the
  // window that ends the pass (read first or last)
  let askedAt = ctx.clock.now();
  // pipelined: the next page (of this window, else the next one) is asked for while this one is stored
  const ask = (k: number, token: string | null) => {
    const at = ctx.clock.now();
    return client.listSeriesPage(collection, { ...seriesQuery(windows[k]!), next_token: token }).then((listed) => ({ listed, k, at }));
  };
  type Asked = Awaited<ReturnType<typeof ask>>;
  for (let pending: Promise<Asked> | null = windows.length > 0 ? ask(0, null) : null; pending;) {
    const { listed, k, at } = await pending;
    if (windows[k]!.end >= endMs) askedAt = at;
    const following: Promise<Asked> | null = listed.nextToken ? ask(k, listed.nextToken) : k + 1 < windows.length ? ask(k + 1, null) : null;
    pending = following ? (await askAhead(following)).next : null;
    {
      const mapped = mapSeriesPage(ctx, collection, listed.data);
      await commitRecentPage(ctx, {
        run,
        collection,
        write: sampleDaysMerge({ collection, userId, days: mapped.days, rejected: mapped.rejected }),
        mapMs: mapped.ms,
        unit: "samples",
        stored: mapped.samples.length,
        rejected: mapped.rejectedCount,
      });
    }
  }
  const through = isoInstant(Math.min(endMs, askedAt));
  const s = await summarize(userId, collection);
  if (!history) {
    backfillFinished(ctx, userId, collection, "samples");
    const now = ctx.now();
    await updateRunState(run, collection, {
      backfillFrom: recent.from,
      backfillTo: recent.to,
      recentThrough: through,
      cursorStart: through,
      cursorNextToken: null,
      windowsTotal: 1,
      windowsDone: 1,
      backfillDoneAt: now,
      status: "idle",
      lastSuccessAt: now,
      lastError: null,
      ...s,
    });
    return { collection, result: "done", documents: s.documentsTotal };
  }
  await updateRunState(run, collection, {
    backfillFrom: history.from,
    backfillTo: recent.from,
    recentThrough: through,
    cursorStart: null,
    cursorNextToken: null,
    windowsTotal: 1,
    windowsDone: 0,
    lastError: null,
    ...s,
  });
  return { collection, result: "done", more: true, documents: s.documentsTotal };
}

/**
 * A time series' whole history, checkpointed per page (newest first: the history behind the
 * recent days; a backfill begun before newest first: the whole range). The first request asks for the whole
 * range and keeps its one page (the earliest samples: it finds where the history starts, so
 * the empty years before it cost nothing); from the newest instant on it the history is read in
 * windows of the route's `maxDays` (30), page by page with next_token. Where the service
 * refuses the long range (400), the windows start at the backfill start instead. Every page is
 * merged into its UTC days together with its checkpoint (window start, next_token) in one
 * transaction; samples met twice (on a window's bound, or after a resumed page) are stored once.
 */
export async function backfillSeries(
  ctx: EngineContext,
  run: SyncRun,
  collection: SeriesCollection,
  initial: SyncStateRow | undefined,
  client: RingClient,
): Promise<CollectionOutcome> {
  const { userId } = run;
  let state = initial;
  if (!state?.backfillFrom || !state.backfillTo) {
    await updateRunState(run, collection, {
      backfillFrom: ctx.backfillStart,
      backfillTo: latestPossibleDay(ctx.clock.now()),
      windowsTotal: 1,
      windowsDone: 0,
      cursorStart: null,
      cursorNextToken: null,
    });
    state = (await getSyncState(userId, collection))!;
  }
  const { maxDays } = getResource(collection).window;
  const recentThrough = state.recentThrough;
  const startMs = Date.parse(`${state.backfillFrom}T00:00:00Z`);
  const endMs = Date.parse(`${state.backfillTo}T00:00:00Z`);
  let cursor: number | null = state.cursorStart ? instantOf(state.cursorStart) : null;
  if (cursor !== null && !Number.isFinite(cursor)) cursor = startMs;
  let token = state.cursorNextToken;
  let windowsDone = state.windowsDone;
  let finished = false;
  await updateRunState(run, collection, { status: "backfilling", lastAttemptAt: ctx.now() });

  /** The probe: the whole range at once, its first page kept (where the history starts). */
  async function probePage() {
    const w = { start: startMs, end: endMs };
    // the service answers with what it had when it was asked: every sample up to this instant
    const askedAt = ctx.clock.now();
    try {
      return { w, listed: await client.listSeriesPage(collection, { ...seriesQuery(w), next_token: null }, { mayRefuse: true }), askedAt };
    } catch (err) {
      if (!(err instanceof RingApiError && err.status === 400)) throw err;
      // The long range is refused: read the whole range in windows from its start.
      cursor = startMs;
      token = null;
      const windowsTotal = seriesWindowsLeft(cursor, endMs, maxDays);
      await updateRunState(run, collection, { cursorStart: isoInstant(cursor), cursorNextToken: null, windowsTotal });
      return null;
    }
  }

  /** A window's page (`pageToken` null: its first); a next_token from before a restart may be gone (400): the window is read again. */
  async function windowPage(w: InstantWindow, pageToken: string | null) {
    const askedAt = ctx.clock.now();
    try {
      return { listed: await client.listSeriesPage(collection, { ...seriesQuery(w), next_token: pageToken }), askedAt };
    } catch (err) {
      if (!(err instanceof RingApiError && err.status === 400) || !pageToken) throw err;
      return { listed: await client.listSeriesPage(collection, { ...seriesQuery(w), next_token: null }), askedAt: ctx.clock.now() };
    }
  }

  /** After the probe, the windows from the cursor on: several read at once, their pages in order (lib/sync/window-chains.ts). */
  let chains: WindowChains<InstantWindow, Awaited<ReturnType<typeof windowPage>>> | null = null;
  const chained = (from: number, fromToken: string | null) =>
    windowChains({
      first: nextSeriesWindow(from, endMs, maxDays),
      firstToken: fromToken,
      following: (w) => (w.end < endMs ? nextSeriesWindow(w.end, endMs, maxDays) : null),
      fetch: windowPage,
      nextToken: (p) => p.listed.nextToken,
      windowsAtOnce: SERIES_WINDOWS_AT_ONCE,
      pagesAhead: SERIES_PAGES_AHEAD,
    });

  /** The next page: the probe of the whole range first, then window by window. */
  async function fetchPage() {
    if (cursor === null) {
      const probed = await probePage();
      if (probed) return { probe: true, ...probed };
    }
    chains ??= chained(cursor!, token);
    const next = await chains.take();
    if (!next) throw new Error(`the ${collection} history ran out of windows before its end`);
    return { probe: false, w: next.window, ...next.page };
  }

  return runBackfill(
    ctx,
    run,
    collection,
    () => ({
      unit: "samples",
      async next(): Promise<BackfillPage | null> {
        if (finished) return null;
        const { probe, w, listed, askedAt } = await fetchPage();
        const mapped = mapSeriesPage(ctx, collection, listed.data);
        let nextCursor: number;
        let nextToken: string | null = null;
        let nextDone = windowsDone;
        let done = false;
        if (probe) {
          if (!listed.nextToken) {
            done = true;
            nextCursor = endMs;
          } else {
            nextCursor = windowsStartAfterProbe(rowInstants(mapped.samples, listed.data)) ?? startMs;
          }
        } else if (listed.nextToken) {
          nextCursor = w.start;
          nextToken = listed.nextToken;
        } else {
          nextCursor = w.end;
          nextDone = windowsDone + 1;
          done = w.end >= endMs;
        }
        const days = [...mapped.days.keys()];
        const now = ctx.now();
        return {
          mapMs: mapped.ms,
          write: sampleDaysMerge({ collection, userId, days: mapped.days, rejected: mapped.rejected }),
          patch: {
            // once done, the cursor says how far the history was fetched — everything up to when its last
            // page was asked for (the re-check starts there at the latest)
            // (newest first: when the recent days were fetched, after this history)
            cursorStart: done ? (recentThrough ?? isoInstant(Math.min(endMs, askedAt))) : isoInstant(nextCursor),
            cursorNextToken: nextToken,
            windowsDone: nextDone,
            windowsTotal: nextDone + (done ? 0 : Math.max(1, seriesWindowsLeft(nextCursor, endMs, maxDays))),
            lastError: null,
            ...(done ? { backfillDoneAt: now, status: "idle" as const, lastSuccessAt: now } : {}),
          },
          finished: done,
          stored: mapped.samples.length,
          rejected: mapped.rejectedCount,
          firstDay: days[0] ?? null,
          lastDay: days.at(-1) ?? null,
          advance() {
            cursor = nextCursor;
            token = nextToken;
            windowsDone = nextDone;
            finished = done;
          },
        };
      },
      close() {
        chains?.close();
      },
    }),
    { newestFirst: recentThrough !== null },
  );
}

/**
 * Re-reads a time series' recent days (SYNC_TRAILING_DAYS, and back to where the last fetch
 * ended after a long pause), in windows of whole UTC days; each window's days then hold
 * exactly what the service sent (a sample it no longer has is gone).
 */
export async function incrementalSeries(
  ctx: EngineContext,
  run: SyncRun,
  collection: SeriesCollection,
  state: SyncStateRow,
  client: RingClient,
): Promise<CollectionOutcome> {
  const { userId } = run;
  const fetchedThrough = state.cursorStart ? instantOf(state.cursorStart) : null;
  // every window is asked for after this instant: the service's samples up to it are all read
  const startedAt = ctx.clock.now();
  const windows = seriesRecheckWindows({
    nowMs: startedAt,
    trailingDays: ctx.trailingDays,
    fetchedThrough,
    maxDays: getResource(collection).window.maxDays,
  });
  let samples = 0;
  let removed = 0;
  for (const w of windows) {
    const fetched: Sample[] = [];
    const rejected: RejectedInput[] = [];
    let token: string | null = null;
    do {
      const listed = await client.listSeriesPage(collection, { ...seriesQuery(w), next_token: token });
      const mapped = mapSeriesPage(ctx, collection, listed.data);
      for (const x of mapped.samples) fetched.push(x);
      rejected.push(...mapped.rejected);
      ctx.stats.ingestMs += mapped.ms;
      ctx.stats.pages++;
      ctx.stats.rejected += mapped.rejectedCount;
      token = listed.nextToken;
    } while (token);
    const started = performance.now();
    const byDay = groupByUtcDay(fetched);
    // The window's own days are now known whole; a sample on its end bound (the next day's
    // midnight) belongs to the next window and is merged only.
    const inside = new Map([...byDay].filter(([d]) => d >= w.days.from && d <= w.days.to));
    const outside = new Map([...byDay].filter(([d]) => d < w.days.from || d > w.days.to));
    const write = function* (): Work<number> {
      const gone = yield* sampleDaysReplace({ collection, userId, fromDay: w.days.from, toDay: w.days.to, days: inside });
      if (outside.size || rejected.length) yield* sampleDaysMerge({ collection, userId, days: outside, rejected });
      return gone;
    };
    const prepared = performance.now() - started;
    removed += (await commitPage(ctx, { run, collection, write: write(), mapMs: prepared, count: { pages: 0, samples: fetched.length, rejected: 0 } })).written;
    samples += fetched.length;
  }
  const s = await summarize(userId, collection);
  await updateRunState(run, collection, {
    status: "idle",
    cursorStart: isoInstant(Math.min(startedAt, windows.at(-1)?.end ?? startedAt)),
    lastSuccessAt: ctx.now(),
    lastError: null,
    ...s,
  });
  if (removed > 0) logger.info({ userId, collection, removed }, "samples the ring service no longer has removed");
  return { collection, result: "done", documents: samples, deleted: removed };
}
