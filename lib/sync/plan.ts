import "server-only";

import { addDays, diffDays, utcDay } from "@/lib/metrics/days";
import type { DateWindowRule, Inclusivity } from "@/lib/resources/define";

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

/** The start_date/end_date to send for a logical window under the route's rule (see the file comment). */
export function queryWindow(rule: DateWindowRule, family: DataFamilyName, w: DayWindow): { start_date: string; end_date: string } {
  const end: Inclusivity = family === "sandbox" ? "exclusive" : rule.end;
  return {
    start_date: addDays(w.from, -Math.max(TIME_ZONE_MARGIN_DAYS, padFor(rule.start))),
    end_date: addDays(w.to, Math.max(TIME_ZONE_MARGIN_DAYS, padFor(end))),
  };
}

/** Keep a document only when its `day` lies in the logical window (drops padding days). */
export function inWindow(day: string, w: DayWindow): boolean {
  return day >= w.from && day <= w.to;
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
export function resumeDayAfterPage(days: string[], previous: string): string | null {
  let last = "";
  for (const d of days) {
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
