import "server-only";

import { addDays, diffDays, utcDay } from "@/lib/days";
import type { DateWindowRule, Inclusivity, NoWindow } from "@/lib/resources/define";
import { TODAY_COLLECTIONS } from "@/lib/metrics/today-layout";
import { isSeriesCollection, type SyncCollection } from "@/lib/resources";

// Pure: which date windows to ask for, and how to read the answers (ring-api-facts §2.4).
// No I/O here; unit-tested in plan.test.ts.
//
// A "logical" window [from, to] is the set of days we want (inclusive). The service's date
// filters differ per route (each resource's `window` in lib/resources: daily_activity and
// sleep need end + 1 day, one report says sleep's start is exclusive; the sandbox is
// end-exclusive everywhere), so a request asks for a padded window and only documents whose
// `day` lies inside [from, to] are kept. Padding costs no extra request; it only makes the
// answer complete.

export type DayWindow = { from: string; to: string };
export type DataFamilyName = "usercollection" | "sandbox";

/**
 * Collections fetched at the same time: the scheduler's jobs running at once, and the engine's
 * backfillUser. A collection's pages come one after the other (each asks with the last one's
 * next_token), except a time series' history, which reads SERIES_WINDOWS_AT_ONCE of its windows
 * at once: the most requests a backfill has in flight is mostRequestsInFlight.
 */
export const SYNC_CONCURRENCY = 4;

/**
 * A time series' history (heart rate: five years are some 60 windows of 30 days, each a chain of
 * about ten pages) reads this many windows at once, each a chain of its own, their pages stored
 * in order (lib/sync/window-chains.ts). Against a service a tenth of a second away, one chain
 * waits on the wire for nearly all of its time.
 */
export const SERIES_WINDOWS_AT_ONCE = 4;

/** How far a window read ahead of the one being stored may run: pages held in memory per window. */
export const SERIES_PAGES_AHEAD = 8;

/** The most requests a backfill of these collections has in flight: SYNC_CONCURRENCY of them at once, a time series' history SERIES_WINDOWS_AT_ONCE. */
export function mostRequestsInFlight(collections: readonly SyncCollection[]): number {
  const each = collections.map((c) => (isSeriesCollection(c) ? SERIES_WINDOWS_AT_ONCE : 1)).sort((a, b) => b - a);
  return each.slice(0, SYNC_CONCURRENCY).reduce((a, b) => a + b, 0);
}

/**
 * The last day any document can carry right now. A person east of UTC is already on the
 * next calendar day, so one day past the UTC date.
 */
export function latestPossibleDay(nowMs: number): string {
  return addDays(utcDay(nowMs), 1);
}

/**
 * Days of margin on each side of every window, whatever the route's rule: a document's `day`
 * is the person's local day while the service compares its own timestamps with the bounds
 * (facts §2.4, "likely mechanism"), so a person far from UTC can fall just outside an inclusive
 * bound. The facts file's "safe client recipe" is exactly [D-1, D+1].
 */
const TIME_ZONE_MARGIN_DAYS = 1;

/** Days a bound must move outward so that its own day is inside. */
function padFor(how: Inclusivity): number {
  return how === "inclusive" ? 0 : 1; // exclusive, and conflicting reports: one day
}

/**
 * The start_date/end_date to send for a logical window under the route's rule (see the file
 * comment); nothing for a route without a date filter (it lists everything).
 */
export function queryWindow(rule: DateWindowRule | NoWindow, family: DataFamilyName, w: DayWindow): { start_date?: string; end_date?: string } {
  if (rule.param === "none") return {};
  const end: Inclusivity = family === "sandbox" ? "exclusive" : rule.end;
  return {
    start_date: addDays(w.from, -Math.max(TIME_ZONE_MARGIN_DAYS, padFor(rule.start))),
    end_date: addDays(w.to, Math.max(TIME_ZONE_MARGIN_DAYS, padFor(end))),
  };
}

/** Keep a document only when its `day` lies in the logical window (drops padding days); a document of no day always. */
export function inWindow(day: string | null, w: DayWindow): boolean {
  return day === null || (day >= w.from && day <= w.to);
}

/**
 * The backfill windows from `start` to `end`. One window by default: the list endpoints
 * page with next_token, so one window per collection needs the fewest requests
 * (ceil(documents / page size), and one request for an empty history); a far-past start
 * costs nothing extra. `maxDays` splits it for services that limit the range.
 */
export function planBackfillWindows(start: string, end: string, maxDays?: number): DayWindow[] {
  if (start > end) return [];
  if (!maxDays || maxDays <= 0) return [{ from: start, to: end }];
  const out: DayWindow[] = [];
  for (let from = start; from <= end; from = addDays(from, maxDays)) {
    const to = addDays(from, maxDays - 1);
    out.push({ from, to: to < end ? to : end });
  }
  return out;
}

/**
 * Newest first (issue 53): a backfill first stores the recent days of every collection (Today,
 * the Day view and the 30-day charts are whole at once), then the history behind them.
 */
export const RECENT_DAYS = 30;

/**
 * A new backfill's two ranges: the recent days (RECENT_DAYS before the latest possible day, to
 * it) and the history behind them, from `start` to the day before the recent ones (null when
 * `start` is already inside the recent days: the recent pass is the whole backfill).
 */
export function newestFirstRanges(start: string, latest: string): { recent: DayWindow; history: DayWindow | null } {
  const recentFrom = addDays(latest, -RECENT_DAYS);
  if (start >= recentFrom) return { recent: { from: start, to: latest }, history: null };
  return { recent: { from: recentFrom, to: latest }, history: { from: start, to: addDays(recentFrom, -1) } };
}

const ON_TODAY: ReadonlySet<string> = new Set(TODAY_COLLECTIONS);

/**
 * The order a person's collections are queued in, newest first: what Today shows first, so that
 * its recent days are stored before the other collections' are; and within each part a time
 * series first (its recent days take several pages, where a document collection's take one or
 * two), so that with several collections at once the longest starts first. Otherwise as given.
 */
export function inNewestFirstOrder<T>(items: readonly T[], collectionOf: (item: T) => string): T[] {
  const rank = (item: T) => {
    const c = collectionOf(item);
    return (ON_TODAY.has(c) ? 0 : 2) + (isSeriesCollection(c) ? 0 : 1);
  };
  return items
    .map((item, i) => ({ item, i, rank: rank(item) }))
    .sort((a, b) => a.rank - b.rank || a.i - b.i)
    .map((x) => x.item);
}

/**
 * When a collection's history runs, once its recent days are stored (its backfill job is put back
 * in the queue, which runs jobs by due time, then in the order they were queued). A document
 * collection's history waits behind everything queued before `now`. A time series' history is the
 * longest chain of the backfill (heart rate: some five hundred requests), so it goes ahead of the
 * documents' histories, as the fetch floor starts it: right after the recent passes still waiting
 * (`recentPassesDue`: the due times of the queued backfill jobs whose recent days are not stored
 * yet, anyone's), or, when none waits, at its own due time (`queuedAt`), first in line. Never
 * later than `now`: a recent pass held back (a retry's delay) does not hold the history.
 */
export function historyRunAt(collection: SyncCollection, p: { now: number; queuedAt: number; recentPassesDue: readonly number[] }): number {
  if (!isSeriesCollection(collection)) return p.now;
  let last = -Infinity;
  for (const t of p.recentPassesDue) if (t <= p.now && t > last) last = t;
  return last === -Infinity ? Math.min(p.queuedAt, p.now) : Math.min(last + 1, p.now);
}

/** The trailing window re-checked on every incremental sync: the last `days` days up to now. */
export function trailingWindow(nowMs: number, days: number): DayWindow {
  const to = latestPossibleDay(nowMs);
  return { from: addDays(utcDay(nowMs), -Math.max(1, days)), to };
}

/**
 * Where to resume after a page: the newest day on the page, if the page was in day order
 * (the service sorts by day). Resuming there re-reads that day (harmless: upserts), so a
 * day split across two pages is never skipped. Null = keep the previous resume point.
 */
export function resumeDayAfterPage(days: ReadonlyArray<string | null>, previous: string): string | null {
  let last = "";
  for (const d of days) {
    if (d === null) continue;
    if (d < last) return null; // not in day order: do not trust a resume point inside it
    last = d;
  }
  if (!last) return previous;
  return last > previous ? last : previous;
}

/** Progress of a backfill through its range by days (0..1), from the first day seen. */
export function progressFraction(opts: { firstDay: string | null; cursorDay: string | null; endDay: string; done: boolean }): number {
  if (opts.done) return 1;
  if (!opts.firstDay || !opts.cursorDay) return 0;
  const total = diffDays(opts.firstDay, opts.endDay);
  if (total <= 0) return 0.99;
  return Math.min(0.99, Math.max(0, diffDays(opts.firstDay, opts.cursorDay) / total));
}

/** Seconds left at the rate so far, or null when it cannot be told yet. */
export function estimateEtaSeconds(fraction: number, elapsedMs: number): number | null {
  if (fraction <= 0.01 || fraction >= 1 || elapsedMs <= 0) return null;
  return Math.max(0, Math.round(((elapsedMs / fraction) * (1 - fraction)) / 1000));
}

// ---------------------------------------------------------------------------------------
// Time series: windows of instants
// ---------------------------------------------------------------------------------------

const DAY_MS = 86_400_000;

/** A time series' request window: instants (epoch ms), both bounds inclusive. */
export type InstantWindow = { start: number; end: number };

/** An instant as a query bound: ISO 8601 in UTC, whole seconds unless it has milliseconds. */
export function isoInstant(ms: number): string {
  const iso = new Date(ms).toISOString();
  return ms % 1000 === 0 ? iso.replace(".000Z", "Z") : iso;
}

/** The query of an instant window. */
export function seriesQuery(w: InstantWindow): { start_datetime: string; end_datetime: string } {
  return { start_datetime: isoInstant(w.start), end_datetime: isoInstant(w.end) };
}

/**
 * The window a time series is read in next: from `cursor` for at most `maxDays` days (the
 * window clients ask for, facts §2.4), never past `end`. Windows meet at their bounds: the
 * service reads both inclusively, so a sample on a bound comes twice and is de-duplicated.
 */
export function nextSeriesWindow(cursor: number, end: number, maxDays: number): InstantWindow {
  return { start: cursor, end: Math.min(end, cursor + maxDays * DAY_MS) };
}

/**
 * The recent pass's windows of a time series, in the order they are read. A series Today shows
 * reads its newest UTC day first (its own window, the day before `end`), so that Today's newest
 * value is stored with the pass's first page rather than its last (a window's pages come oldest
 * first); the rest of [start, end) follows in windows of `maxDays`, oldest first, as the history
 * walks them. The newest day costs a request of its own at most once per pass.
 */
export function recentSeriesWindows(collection: string, start: number, end: number, maxDays: number): InstantWindow[] {
  const newestDay = ON_TODAY.has(collection) && end - start > DAY_MS ? { start: end - DAY_MS, end } : null;
  const out: InstantWindow[] = newestDay ? [newestDay] : [];
  const until = newestDay?.start ?? end;
  for (let from = start; from < until;) {
    const w = nextSeriesWindow(from, until, maxDays);
    out.push(w);
    from = w.end;
  }
  return out;
}

/** How many windows are left from `cursor` to `end` (progress on the Sync page). */
export function seriesWindowsLeft(cursor: number, end: number, maxDays: number): number {
  return cursor >= end ? 0 : Math.ceil((end - cursor) / (maxDays * DAY_MS));
}

/**
 * Where the 30-day windows of a backfill start after its first request, which asks for the
 * whole range at once and keeps one page (the earliest samples): at the newest instant on that
 * page (its samples there come again and are de-duplicated). Null when there is nothing to go
 * on (no instant on the page).
 */
export function windowsStartAfterProbe(instants: readonly number[]): number | null {
  let max = -Infinity;
  for (const t of instants) if (Number.isFinite(t) && t > max) max = t;
  return Number.isFinite(max) ? max : null;
}

/**
 * The re-check windows of a time series: whole UTC days from `trailingDays` before today — or
 * from the day before the last fetched instant, when that is earlier (after a long pause
 * nothing in between is skipped) — to `end` (the start of the latest possible day's next day),
 * cut into `maxDays` windows that begin at midnight. Each window's days (`days`: the UTC days
 * it covers whole) can then be replaced by what it brought.
 */
export function seriesRecheckWindows(opts: {
  nowMs: number;
  trailingDays: number;
  fetchedThrough: number | null;
  maxDays: number;
}): Array<InstantWindow & { days: DayWindow }> {
  const trailingFrom = addDays(utcDay(opts.nowMs), -Math.max(1, opts.trailingDays));
  const fetched = opts.fetchedThrough !== null && Number.isFinite(opts.fetchedThrough) ? addDays(utcDay(opts.fetchedThrough), -1) : trailingFrom;
  const fromDay = fetched < trailingFrom ? fetched : trailingFrom;
  const endDay = addDays(latestPossibleDay(opts.nowMs), 1);
  const out: Array<InstantWindow & { days: DayWindow }> = [];
  for (let from = fromDay; from < endDay; from = addDays(from, opts.maxDays)) {
    const toExclusive = addDays(from, opts.maxDays) < endDay ? addDays(from, opts.maxDays) : endDay;
    out.push({ start: Date.parse(`${from}T00:00:00Z`), end: Date.parse(`${toExclusive}T00:00:00Z`), days: { from, to: addDays(toExclusive, -1) } });
  }
  return out;
}
