import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addDays, diffDays as daysBetween } from "@/lib/days";
import * as plan from "@/lib/sync/plan";
import { getResource, isSeriesCollection, RING_COLLECTIONS, SYNC_COLLECTIONS } from "@/lib/resources";
import { TODAY_COLLECTIONS } from "@/lib/metrics/today-layout";

describe("date windows", () => {
  it("pads every request by a day on both sides so exclusive ends and starts still cover the window", () => {
    const w = { from: "2026-03-01", to: "2026-03-15" };
    const inclusive = { param: "date", start: "inclusive", end: "inclusive" } as const;
    expect(plan.queryWindow(inclusive, "usercollection", w)).toEqual({ start_date: "2026-02-28", end_date: "2026-03-16" });
    // The sandbox is end-exclusive everywhere: the end day is still inside.
    expect(plan.queryWindow(inclusive, "sandbox", w).end_date! > w.to).toBe(true);
    // a route without a date filter (the ring's configuration) is asked for everything
    expect(plan.queryWindow({ param: "none" }, "usercollection", w)).toEqual({});
  });

  it("covers the window under every registry resource's own rule, on both data families", () => {
    const w = { from: "2026-03-01", to: "2026-03-15" };
    for (const c of RING_COLLECTIONS) {
      const rule = getResource(c).window;
      if (rule.param === "none") continue;
      for (const family of ["usercollection", "sandbox"] as const) {
        const q = plan.queryWindow(rule, family, w) as { start_date: string; end_date: string };
        const end = family === "sandbox" ? "exclusive" : rule.end;
        // an exclusive (or disputed) bound must lie strictly outside the window's own day
        expect(rule.start === "inclusive" ? q.start_date <= w.from : q.start_date < w.from, `${c} start`).toBe(true);
        expect(end === "inclusive" ? q.end_date >= w.to : q.end_date > w.to, `${c} ${family} end`).toBe(true);
      }
    }
  });

  it("keeps documents by their day inside the logical window only", () => {
    const w = { from: "2026-03-01", to: "2026-03-15" };
    expect(plan.inWindow("2026-02-28", w)).toBe(false);
    expect(plan.inWindow("2026-03-01", w)).toBe(true);
    expect(plan.inWindow("2026-03-15", w)).toBe(true);
    expect(plan.inWindow("2026-03-16", w)).toBe(false);
    // a document of no day (the ring's configuration) belongs to every window
    expect(plan.inWindow(null, w)).toBe(true);
  });

  it("plans one window for the whole history unless told to split", () => {
    expect(plan.planBackfillWindows("2015-01-01", "2026-11-23")).toEqual([{ from: "2015-01-01", to: "2026-11-23" }]);
    expect(plan.planBackfillWindows("2026-11-24", "2026-11-23")).toEqual([]);
  });

  it("splits into contiguous windows that cover every day exactly once", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4000 }), fc.integer({ min: 0, max: 900 }), fc.integer({ min: 1, max: 400 }), (offset, len, size) => {
        const start = addDays("2015-01-01", offset);
        const end = addDays(start, len);
        const windows = plan.planBackfillWindows(start, end, size);
        expect(windows[0]!.from).toBe(start);
        expect(windows.at(-1)!.to).toBe(end);
        for (let i = 1; i < windows.length; i++) expect(windows[i]!.from).toBe(addDays(windows[i - 1]!.to, 1));
        for (const w of windows) expect(daysBetween(w.from, w.to)).toBeLessThan(size);
      }),
    );
  });

  it("reaches one day past the UTC date (people east of UTC are already there)", () => {
    const now = Date.parse("2026-11-22T23:30:00Z");
    expect(plan.latestPossibleDay(now)).toBe("2026-11-23");
    expect(plan.trailingWindow(now, 10)).toEqual({ from: "2026-11-12", to: "2026-11-23" });
  });
});

describe("resume points", () => {
  it("resumes at the newest day of an ordered page, never going back", () => {
    expect(plan.resumeDayAfterPage(["2026-01-01", "2026-01-01", "2026-01-03"], "2025-12-01")).toBe("2026-01-03");
    expect(plan.resumeDayAfterPage([], "2025-12-01")).toBe("2025-12-01");
    expect(plan.resumeDayAfterPage(["2025-01-01"], "2025-12-01")).toBe("2025-12-01");
  });

  it("does not trust a page that is not in day order", () => {
    expect(plan.resumeDayAfterPage(["2026-01-03", "2026-01-01"], "2025-12-01")).toBeNull();
  });
});

describe("progress", () => {
  it("measures progress by days from the first document to the end", () => {
    expect(plan.progressFraction({ firstDay: null, cursorDay: null, endDay: "2026-01-10", done: false })).toBe(0);
    expect(plan.progressFraction({ firstDay: "2026-01-01", cursorDay: "2026-01-06", endDay: "2026-01-11", done: false })).toBeCloseTo(0.5);
    expect(plan.progressFraction({ firstDay: "2026-01-01", cursorDay: "2026-01-11", endDay: "2026-01-11", done: false })).toBe(0.99);
    expect(plan.progressFraction({ firstDay: "2026-01-01", cursorDay: "2026-01-06", endDay: "2026-01-11", done: true })).toBe(1);
  });

  it("estimates the time left from the rate so far", () => {
    expect(plan.estimateEtaSeconds(0.5, 10_000)).toBe(10);
    expect(plan.estimateEtaSeconds(0.25, 3_000)).toBe(9);
    expect(plan.estimateEtaSeconds(0, 3_000)).toBeNull();
    expect(plan.estimateEtaSeconds(1, 3_000)).toBeNull();
  });
});

describe("time-series windows", () => {
  const DAY = 86_400_000;
  const at = (iso: string) => Date.parse(iso);

  it("reads at most 30 days a window; windows meet at their bounds and end at the end", () => {
    const start = at("2021-01-01T00:00:00Z");
    const end = at("2021-03-15T00:00:00Z");
    const windows = [];
    for (let cursor = start; cursor < end;) {
      const w = plan.nextSeriesWindow(cursor, end, 30);
      windows.push(w);
      cursor = w.end;
    }
    expect(windows.map((w) => (w.end - w.start) / DAY)).toEqual([30, 30, 13]);
    for (let i = 1; i < windows.length; i++) expect(windows[i]!.start).toBe(windows[i - 1]!.end);
    expect(windows.at(-1)!.end).toBe(end);
    expect(plan.seriesWindowsLeft(start, end, 30)).toBe(3);
    expect(plan.seriesWindowsLeft(end, end, 30)).toBe(0);
  });

  it("asks with ISO instants (whole seconds unless there are milliseconds)", () => {
    expect(plan.seriesQuery({ start: at("2021-01-01T00:00:00Z"), end: at("2021-01-31T00:00:00.250Z") })).toEqual({
      start_datetime: "2021-01-01T00:00:00Z",
      end_datetime: "2021-01-31T00:00:00.250Z",
    });
    expect(plan.isoInstant(at("2026-03-14T12:00:05Z"))).toBe("2026-03-14T12:00:05Z");
  });

  it("starts the windows at the newest instant of the first page, which comes again and is de-duplicated", () => {
    expect(plan.windowsStartAfterProbe([at("2021-03-15T22:05:58Z"), at("2021-03-16T07:00:00Z"), at("2021-03-16T06:00:00Z")])).toBe(at("2021-03-16T07:00:00Z"));
    expect(plan.windowsStartAfterProbe([])).toBeNull();
    expect(plan.windowsStartAfterProbe([Number.NaN])).toBeNull();
  });

  it("re-checks whole UTC days: the trailing days, or back to where the last fetch ended if that is earlier", () => {
    const now = at("2026-03-15T20:00:00Z");
    const recent = plan.seriesRecheckWindows({ nowMs: now, trailingDays: 10, fetchedThrough: at("2026-03-15T19:00:00Z"), maxDays: 30 });
    // through the latest possible day (one past the UTC date: people east of UTC are there already)
    expect(recent).toEqual([{ start: at("2026-03-05T00:00:00Z"), end: at("2026-03-17T00:00:00Z"), days: { from: "2026-03-05", to: "2026-03-16" } }]);
    // after two months without a sync: from the day before the last fetch, in 30-day windows of whole days
    const paused = plan.seriesRecheckWindows({ nowMs: now, trailingDays: 10, fetchedThrough: at("2026-01-10T08:00:00Z"), maxDays: 30 });
    expect(paused[0]).toMatchObject({ start: at("2026-01-09T00:00:00Z"), days: { from: "2026-01-09", to: "2026-02-07" } });
    for (let i = 1; i < paused.length; i++) {
      expect(paused[i]!.start).toBe(paused[i - 1]!.end);
      expect(paused[i]!.days.from).toBe(addDays(paused[i - 1]!.days.to, 1));
      expect((paused[i]!.end - paused[i]!.start) / DAY).toBeLessThanOrEqual(30);
    }
    expect(paused.at(-1)!.days.to).toBe("2026-03-16");
  });
});

describe("newest first", () => {
  it("splits a new backfill into the recent days and the history behind them, meeting without a gap", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4000 }), (back) => {
        const latest = "2026-03-16";
        const start = addDays(latest, -back);
        const { recent, history } = plan.newestFirstRanges(start, latest);
        expect(recent.to).toBe(latest);
        if (back <= plan.RECENT_DAYS) {
          // a backfill that starts inside the recent days is the recent pass alone
          expect(recent.from).toBe(start);
          expect(history).toBeNull();
        } else {
          expect(daysBetween(recent.from, recent.to)).toBe(plan.RECENT_DAYS);
          expect(history).toEqual({ from: start, to: addDays(recent.from, -1) });
        }
      }),
    );
  });

  it("reads a time series' recent days in windows that cover them once, the newest UTC day first for a series Today shows", () => {
    const DAY = 86_400_000;
    const series = SYNC_COLLECTIONS.filter(isSeriesCollection);
    fc.assert(
      fc.property(fc.constantFrom(...series), fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 30 }), (collection, days, maxDays) => {
        const end = Date.parse("2026-03-16T00:00:00Z");
        const start = end - days * DAY;
        const windows = plan.recentSeriesWindows(collection, start, end, maxDays);
        // together the windows are [start, end), each at most maxDays, none overlapping
        const sorted = [...windows].sort((a, b) => a.start - b.start);
        expect(sorted[0]!.start).toBe(start);
        expect(sorted.at(-1)!.end).toBe(end);
        for (let i = 1; i < sorted.length; i++) expect(sorted[i]!.start).toBe(sorted[i - 1]!.end);
        for (const w of windows) expect((w.end - w.start) / DAY).toBeLessThanOrEqual(maxDays);
        const onToday = (TODAY_COLLECTIONS as readonly string[]).includes(collection);
        if (onToday && days > 1) {
          // the newest day alone first, then the rest oldest first
          expect(windows[0]).toEqual({ start: end - DAY, end });
          expect(windows.slice(1)).toEqual(sorted.slice(0, -1));
          expect(windows.length).toBe(1 + Math.ceil((days - 1) / maxDays));
        } else {
          expect(windows).toEqual(sorted);
          expect(windows.length).toBe(Math.ceil(days / maxDays));
        }
      }),
    );
    // heart rate is on Today, the ring's battery is not
    expect(TODAY_COLLECTIONS).toContain("heartrate");
    expect(TODAY_COLLECTIONS).not.toContain("ring_battery_level");
  });

  it("queues what Today shows first, a time series first within each part, every collection once and otherwise in the order given", () => {
    const today = new Set<string>(TODAY_COLLECTIONS);
    fc.assert(
      fc.property(fc.shuffledSubarray([...SYNC_COLLECTIONS], { minLength: 1 }), (given) => {
        const order = plan.inNewestFirstOrder(given, (c) => c);
        expect([...order].sort()).toEqual([...given].sort());
        const part = (c: string) => (today.has(c) ? 0 : 2) + (isSeriesCollection(c) ? 0 : 1);
        for (let i = 1; i < order.length; i++) {
          const [a, b] = [order[i - 1]!, order[i]!];
          expect(part(a) <= part(b), `${a} before ${b}`).toBe(true);
          if (part(a) === part(b)) expect(given.indexOf(a) < given.indexOf(b), `${a} before ${b}, as given`).toBe(true);
        }
      }),
    );
    // everything granted: heart rate's recent days first, Today's sleep and VO2 max before any
    // collection Today does not show, the ring's battery first of those
    const all = plan.inNewestFirstOrder(SYNC_COLLECTIONS, (c) => c);
    expect(all[0]).toBe("heartrate");
    const firstOther = all.findIndex((c) => !today.has(c));
    expect(all.indexOf("sleep")).toBeLessThan(firstOther);
    expect(all.indexOf("vO2_max")).toBeLessThan(firstOther);
    expect(all[firstOther]).toBe("ring_battery_level");
  });
});

describe("when a history runs", () => {
  it("puts a time series' history right after the recent passes still waiting, a document collection's behind everything queued before now", () => {
    const instant = fc.integer({ min: 0, max: 1_000_000 });
    fc.assert(
      fc.property(
        fc.constantFrom(...SYNC_COLLECTIONS),
        instant,
        instant,
        fc.array(instant, { maxLength: 30 }),
        (collection, now, queuedAt, recentPassesDue) => {
          const at = plan.historyRunAt(collection, { now, queuedAt, recentPassesDue });
          // never later than now (a recent pass held back by a retry's delay does not hold it)
          expect(at).toBeLessThanOrEqual(now);
          if (!isSeriesCollection(collection)) {
            expect(at).toBe(now);
            return;
          }
          const waiting = recentPassesDue.filter((t) => t <= now);
          // every recent pass due runs before it (the queue runs jobs by due time, then as queued)
          for (const t of waiting) expect(t < at || at === now, `a recent pass due at ${t} before ${at}`).toBe(true);
          // none waiting: its own due time, ahead of the documents' histories put back since
          if (waiting.length === 0) expect(at).toBe(Math.min(queuedAt, now));
          // and no later than just after the last of them
          else expect(at).toBe(Math.min(Math.max(...waiting) + 1, now));
        },
      ),
    );
    expect(plan.historyRunAt("heartrate", { now: 500, queuedAt: 100, recentPassesDue: [100, 101, 900] })).toBe(102);
    expect(plan.historyRunAt("daily_sleep", { now: 500, queuedAt: 100, recentPassesDue: [100, 101] })).toBe(500);
  });
});

describe("requests in flight", () => {
  it("counts a time series' history as its windows at once, among the collections that run at once", () => {
    const { SYNC_CONCURRENCY: at, SERIES_WINDOWS_AT_ONCE: windows } = plan;
    // everything granted: heart rate and the battery beside two document collections, whatever the order
    expect(plan.mostRequestsInFlight(SYNC_COLLECTIONS)).toBe(2 * windows + (at - 2));
    expect(plan.mostRequestsInFlight(["daily_sleep", "daily_activity", "sleep", "workout", "heartrate"])).toBe(windows + (at - 1));
    expect(plan.mostRequestsInFlight(["daily_sleep", "sleep"])).toBe(2);
    expect(plan.mostRequestsInFlight(["heartrate"])).toBe(windows);
    expect(plan.mostRequestsInFlight([])).toBe(0);
  });
});
