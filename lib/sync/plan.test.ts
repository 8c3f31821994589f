import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addDays, diffDays as daysBetween } from "@/lib/metrics/days";
import {
  estimateEtaSeconds,
  inWindow,
  latestPossibleDay,
  planBackfillWindows,
  progressFraction,
  queryWindow,
  resumeDayAfterPage,
  trailingWindow,
} from "@/lib/sync/plan";
import { getResource, RING_COLLECTIONS } from "@/lib/resources";

describe("date windows", () => {
  it("pads every request by a day on both sides so exclusive ends and starts still cover the window", () => {
    const w = { from: "2026-03-01", to: "2026-03-15" };
    const inclusive = { param: "date", start: "inclusive", end: "inclusive" } as const;
    expect(queryWindow(inclusive, "usercollection", w)).toEqual({ start_date: "2026-02-28", end_date: "2026-03-16" });
    // The sandbox is end-exclusive everywhere: the end day is still inside.
    expect(queryWindow(inclusive, "sandbox", w).end_date! > w.to).toBe(true);
    // a route without a date filter (the ring's configuration) is asked for everything
    expect(queryWindow({ param: "none" }, "usercollection", w)).toEqual({});
  });

  it("covers the window under every registry resource's own rule, on both data families", () => {
    const w = { from: "2026-03-01", to: "2026-03-15" };
    for (const c of RING_COLLECTIONS) {
      const rule = getResource(c).window;
      if (rule.param === "none") continue;
      for (const family of ["usercollection", "sandbox"] as const) {
        const q = queryWindow(rule, family, w) as { start_date: string; end_date: string };
        const end = family === "sandbox" ? "exclusive" : rule.end;
        // an exclusive (or disputed) bound must lie strictly outside the window's own day
        expect(rule.start === "inclusive" ? q.start_date <= w.from : q.start_date < w.from, `${c} start`).toBe(true);
        expect(end === "inclusive" ? q.end_date >= w.to : q.end_date > w.to, `${c} ${family} end`).toBe(true);
      }
    }
  });

  it("keeps documents by their day inside the logical window only", () => {
    const w = { from: "2026-03-01", to: "2026-03-15" };
    expect(inWindow("2026-02-28", w)).toBe(false);
    expect(inWindow("2026-03-01", w)).toBe(true);
    expect(inWindow("2026-03-15", w)).toBe(true);
    expect(inWindow("2026-03-16", w)).toBe(false);
  });

  it("plans one window for the whole history unless told to split", () => {
    expect(planBackfillWindows("2015-01-01", "2026-11-23")).toEqual([{ from: "2015-01-01", to: "2026-11-23" }]);
    expect(planBackfillWindows("2026-11-24", "2026-11-23")).toEqual([]);
  });

  it("splits into contiguous windows that cover every day exactly once", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4000 }), fc.integer({ min: 0, max: 900 }), fc.integer({ min: 1, max: 400 }), (offset, len, size) => {
        const start = addDays("2015-01-01", offset);
        const end = addDays(start, len);
        const windows = planBackfillWindows(start, end, size);
        expect(windows[0]!.from).toBe(start);
        expect(windows.at(-1)!.to).toBe(end);
        for (let i = 1; i < windows.length; i++) expect(windows[i]!.from).toBe(addDays(windows[i - 1]!.to, 1));
        for (const w of windows) expect(daysBetween(w.from, w.to)).toBeLessThan(size);
      }),
    );
  });

  it("reaches one day past the UTC date (people east of UTC are already there)", () => {
    const now = Date.parse("2026-11-22T23:30:00Z");
    expect(latestPossibleDay(now)).toBe("2026-11-23");
    expect(trailingWindow(now, 10)).toEqual({ from: "2026-11-12", to: "2026-11-23" });
  });
});

describe("resume points", () => {
  it("resumes at the newest day of an ordered page, never going back", () => {
    expect(resumeDayAfterPage(["2026-01-01", "2026-01-01", "2026-01-03"], "2025-12-01")).toBe("2026-01-03");
    expect(resumeDayAfterPage([], "2025-12-01")).toBe("2025-12-01");
    expect(resumeDayAfterPage(["2025-01-01"], "2025-12-01")).toBe("2025-12-01");
  });

  it("does not trust a page that is not in day order", () => {
    expect(resumeDayAfterPage(["2026-01-03", "2026-01-01"], "2025-12-01")).toBeNull();
  });
});

describe("progress", () => {
  it("measures progress by days from the first document to the end", () => {
    expect(progressFraction({ firstDay: null, cursorDay: null, endDay: "2026-01-10", done: false })).toBe(0);
    expect(progressFraction({ firstDay: "2026-01-01", cursorDay: "2026-01-06", endDay: "2026-01-11", done: false })).toBeCloseTo(0.5);
    expect(progressFraction({ firstDay: "2026-01-01", cursorDay: "2026-01-11", endDay: "2026-01-11", done: false })).toBe(0.99);
    expect(progressFraction({ firstDay: "2026-01-01", cursorDay: "2026-01-06", endDay: "2026-01-11", done: true })).toBe(1);
  });

  it("estimates the time left from the rate so far", () => {
    expect(estimateEtaSeconds(0.5, 10_000)).toBe(10);
    expect(estimateEtaSeconds(0.25, 3_000)).toBe(9);
    expect(estimateEtaSeconds(0, 3_000)).toBeNull();
    expect(estimateEtaSeconds(1, 3_000)).toBeNull();
  });
});
