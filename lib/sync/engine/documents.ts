import "server-only";
import { asBackground } from "@/lib/cpu-ledger";
import { logger } from "@/lib/log";
import type { RingClient } from "@/lib/ring/client";
import { RingApiError } from "@/lib/ring/errors";
import { sliceDataArray } from "@/lib/ring/json-slices";
import { getResource, type RingCollection } from "@/lib/resources";
import { documentsWrite, type DocumentRow, type RejectedInput } from "@/lib/db/ingest/documents";
import { dbTime } from "@/lib/db/ingest/driver";
import { missingDocumentsDelete } from "@/lib/db/queries/ring-documents";
import { getSyncState, type SyncStateRow } from "@/lib/db/queries/sync-state";
import { documentKey, mapDocument } from "@/lib/sync/map";
import { noteUnknownValues } from "@/lib/sync/unknown-values";
import {
  inWindow,
  latestPossibleDay,
  newestFirstRanges,
  planBackfillWindows,
  queryWindow,
  resumeDayAfterPage,
  trailingWindow,
  type DayWindow,
} from "@/lib/sync/plan";
import { askAhead, backfillFinished, commitPage, commitRecentPage, runBackfill, updateRunState, type BackfillPage } from "./commit";
import { summarize, type CollectionOutcome, type EngineContext } from "./context";
import { inRunTx, type SyncRun } from "./runs";

/** A page of a document list, as the ring client returns it. */
type ListedPage = Awaited<ReturnType<RingClient["listPage"]>>;

// Document collections (the daily ones, sleep, workouts, tags, the ring's configuration…):
// backfill in windows of days, page by page with next_token, and the incremental re-check of
// the trailing window, which also deletes what the service no longer has.

/** Maps a page: rows inside the window, rejected documents, and the keys seen. */
/** A page's documents validated and mapped (background work of the process: lib/cpu-ledger.ts). */
export function mapPage(ctx: EngineContext, collection: RingCollection, userId: string, docs: unknown[], window: DayWindow, body: string | null = null) {
  return asBackground(() => mapPageNow(ctx, collection, userId, docs, window, body));
}

function mapPageNow(ctx: EngineContext, collection: RingCollection, userId: string, docs: unknown[], window: DayWindow, body: string | null) {
  // Each document's JSON exactly as received, sliced from the body (else re-serialised).
  const sliced = body ? sliceDataArray(body) : null;
  const rawTexts = sliced && sliced.length === docs.length ? sliced : null;
  const syncedAt = dbTime(ctx.now());
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

/**
 * Newest first, the recent pass of a new backfill: the recent days' pages (lib/sync/plan.ts
 * newestFirstRanges), each committed as it comes; then, in one write, the history's checkpoint
 * behind them, or the backfill's end when there is no history (a route without a date filter
 * lists everything at once). A stop before that write does the pass again: its pages are upserts.
 */
export async function recentDocuments(ctx: EngineContext, run: SyncRun, collection: RingCollection, client: RingClient): Promise<CollectionOutcome> {
  const { userId } = run;
  const latest = latestPossibleDay(ctx.clock.now());
  const rule = getResource(collection).window;
  const { recent, history } =
    rule.param === "none" ? { recent: { from: ctx.backfillStart, to: latest }, history: null } : newestFirstRanges(ctx.backfillStart, latest);
  await updateRunState(run, collection, { status: "backfilling", lastAttemptAt: ctx.now() });
  const q = queryWindow(rule, client.family, recent);
  // pipelined: the next page is asked for while this one is stored
  for (let pending: Promise<ListedPage> | null = client.listPage(collection, { ...q, next_token: null }); pending;) {
    const listed: ListedPage = await pending;
    pending = listed.nextToken ? (await askAhead(client.listPage(collection, { ...q, next_token: listed.nextToken }))).next : null;
    const started = performance.now();
    const mapped = mapPage(ctx, collection, userId, listed.data, recent, listed.text);
    await commitRecentPage(ctx, {
      run,
      collection,
      write: documentsWrite({ collection, userId, rows: mapped.rows, rejected: mapped.rejected }),
      mapMs: performance.now() - started,
      unit: "documents",
      stored: mapped.rows.length,
      rejected: mapped.rejected.length,
    });
  }
  const s = await summarize(userId, collection);
  if (!history) {
    backfillFinished(ctx, userId, collection, "documents");
    await updateRunState(run, collection, {
      backfillFrom: recent.from,
      backfillTo: recent.to,
      recentThrough: recent.to,
      windowsTotal: 1,
      windowsDone: 1,
      cursorStart: recent.to,
      cursorNextToken: null,
      backfillDoneAt: ctx.now(),
      status: "idle",
      lastSuccessAt: ctx.now(),
      lastError: null,
      ...s,
    });
    return { collection, result: "done", documents: s.documentsTotal };
  }
  const windows = planBackfillWindows(history.from, history.to, ctx.maxWindowDays);
  await updateRunState(run, collection, {
    backfillFrom: history.from,
    backfillTo: history.to,
    recentThrough: recent.to,
    windowsTotal: windows.length,
    windowsDone: 0,
    cursorStart: windows[0]?.from ?? history.from,
    cursorNextToken: null,
    lastError: null,
    ...s,
  });
  return { collection, result: "done", more: true, documents: s.documentsTotal };
}

/**
 * A document collection's backfill: windows of days, page by page, each page with its checkpoint
 * (newest first: the history behind the recent days; a backfill begun before newest first: the
 * whole range).
 */
export async function backfillDocuments(
  ctx: EngineContext,
  run: SyncRun,
  collection: RingCollection,
  initial: SyncStateRow | undefined,
  client: RingClient,
): Promise<CollectionOutcome> {
  const { userId } = run;
  let state = initial;
  if (!state?.backfillFrom || !state.backfillTo) {
    const from = ctx.backfillStart;
    const to = latestPossibleDay(ctx.clock.now());
    const windows = planBackfillWindows(from, to, ctx.maxWindowDays);
    await updateRunState(run, collection, {
      backfillFrom: from,
      backfillTo: to,
      windowsTotal: windows.length,
      windowsDone: 0,
      cursorStart: windows[0]?.from ?? from,
      cursorNextToken: null,
    });
    state = (await getSyncState(userId, collection))!;
  }
  const windows = planBackfillWindows(state.backfillFrom!, state.backfillTo!, ctx.maxWindowDays);
  const rule = getResource(collection).window;
  let windowsDone = Math.min(state.windowsDone, windows.length);
  let cursorStart = state.cursorStart ?? windows[windowsDone]?.from ?? state.backfillFrom!;
  let token = state.cursorNextToken;
  await updateRunState(run, collection, { status: "backfilling", lastAttemptAt: ctx.now(), windowsTotal: windows.length });

  return runBackfill(
    ctx,
    run,
    collection,
    (stored) => {
      // The newest day moves with the pages (the sync page counts live); the count waits for the end.
      let newestDay = stored.newestDay;
      let retriedToken = false;
      return {
        unit: "documents",
        async next(): Promise<BackfillPage | null> {
          if (windowsDone >= windows.length) return null;
          const w = windows[windowsDone]!;
          const from = cursorStart > w.from ? cursorStart : w.from;
          let listed;
          for (;;) {
            try {
              listed = await client.listPage(collection, { ...queryWindow(rule, client.family, { from, to: w.to }), next_token: token });
              break;
            } catch (err) {
              // A next_token from before a restart may be gone (400): start again at the checkpoint day.
              if (!(token && !retriedToken && err instanceof RingApiError && err.status === 400)) throw err;
              retriedToken = true;
              token = null;
            }
          }
          retriedToken = false;
          const started = performance.now();
          const mapped = mapPage(ctx, collection, userId, listed.data, w, listed.text);
          const mapMs = performance.now() - started;
          ctx.stats.mapMs += mapMs;
          const nextToken = listed.nextToken || null;
          const nextDone = nextToken ? windowsDone : windowsDone + 1;
          const nextCursor = nextToken ? (resumeDayAfterPage(mapped.days, from) ?? from) : (windows[nextDone]?.from ?? w.to);
          const finished = nextDone >= windows.length;
          for (const r of mapped.rows) if (r.day && (!newestDay || r.day > newestDay)) newestDay = r.day;
          return {
            mapMs,
            write: documentsWrite({ collection, userId, rows: mapped.rows, rejected: mapped.rejected }),
            patch: {
              cursorStart: nextCursor,
              cursorNextToken: nextToken,
              windowsDone: nextDone,
              newestDay,
              lastError: null,
              ...(finished ? { backfillDoneAt: ctx.now(), status: "idle" as const, lastSuccessAt: ctx.now() } : {}),
            },
            finished,
            stored: mapped.rows.length,
            rejected: mapped.rejected.length,
            firstDay: mapped.rows[0]?.day ?? null,
            lastDay: mapped.days.findLast((d) => d !== null) ?? null,
            advance() {
              windowsDone = nextDone;
              cursorStart = nextCursor;
              token = nextToken;
            },
          };
        },
      };
    },
    { newestFirst: state.recentThrough !== null },
  );
}

/**
 * Re-reads the trailing window (SYNC_TRAILING_DAYS up to today): new, late and edited documents
 * are upserted; a stored document the service no longer has in that fully fetched window is deleted.
 */
export async function incrementalDocuments(ctx: EngineContext, run: SyncRun, collection: RingCollection, client: RingClient): Promise<CollectionOutcome> {
  const { userId } = run;
  const w = trailingWindow(ctx.clock.now(), ctx.trailingDays);
  const rule = getResource(collection).window;
  const q = queryWindow(rule, client.family, w);
  const seen: string[] = [];
  let token: string | null = null;
  let documents = 0;
  do {
    const listed = await client.listPage(collection, { ...q, next_token: token });
    const started = performance.now();
    const mapped = mapPage(ctx, collection, userId, listed.data, w, listed.text);
    seen.push(...mapped.seen);
    await commitPage(ctx, {
      run,
      collection,
      write: documentsWrite({ collection, userId, rows: mapped.rows, rejected: mapped.rejected }),
      mapMs: performance.now() - started,
      count: { documents: mapped.rows.length, rejected: mapped.rejected.length },
    });
    documents += mapped.rows.length;
    token = listed.nextToken;
  } while (token);
  // The window was fetched completely: what is no longer there was deleted upstream.
  const window = rule.param === "none" ? null : { fromDay: w.from, toDay: w.to };
  const deleted = await inRunTx(run, (tx) => missingDocumentsDelete(tx, { collection, userId, window, seenKeys: seen }));
  const s = await summarize(userId, collection);
  await updateRunState(run, collection, { status: "idle", lastSuccessAt: ctx.now(), lastError: null, ...s });
  if (deleted > 0) logger.info({ userId, collection, deleted }, "documents deleted upstream removed");
  return { collection, result: "done", documents, deleted };
}
