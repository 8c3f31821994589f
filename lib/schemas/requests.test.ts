// The shared day-range rule: days inside the window, and the span capped whichever ends are given.
import { clock } from "@/lib/clock";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_RANGE_DAYS,
  MAX_RANGE_DAYS,
  exportQuerySchema,
  getCalendarQuerySchema,
  getCorrelationQuerySchema,
  getMetricSeriesQuerySchema,
  getStrongestQuerySchema,
  getTodayQuerySchema,
  metricIdSchema,
  numericMetricIdSchema,
  listNotesQuerySchema,
  recentDays,
  resolveDayRange,
  tagComparisonQuerySchema,
  tagIdParamsSchema,
} from "@/lib/schemas/requests";
import { addDays, diffDays } from "@/lib/days";

const span = (r: { from: string; to: string }) => diffDays(r.from, r.to) + 1;

describe("day ranges", () => {
  const schemas = {
    metrics: getMetricSeriesQuerySchema,
    calendar: getCalendarQuerySchema,
    notes: listNotesQuerySchema,
    comparison: tagComparisonQuerySchema,
    export: exportQuerySchema,
  };
  const extra: Record<keyof typeof schemas, Record<string, string>> = {
    metrics: {},
    calendar: { metric: "sleep.score" },
    notes: {},
    comparison: { metric: "activity.steps" },
    export: { collection: "all" },
  };

  it("refuses days outside the window and spans over the cap, whichever ends are given (422 in the routes)", () => {
    const bad = [
      { to: "9999-12-31" },
      { from: "0001-01-01" },
      { from: "1999-12-31" },
      { to: "2100-01-01" },
      { from: "2000-01-01", to: "2099-12-31" },
      { from: "2026-02-01", to: "2026-01-01" },
      { to: "2026-02-30" },
    ];
    for (const [name, schema] of Object.entries(schemas)) {
      for (const q of bad) expect({ name, q, ok: schema.safeParse({ ...extra[name as keyof typeof schemas], ...q }).success }).toEqual({ name, q, ok: false });
    }
    expect(getCorrelationQuerySchema.safeParse({ x: "sleep.score", y: "readiness.score", to: "9999-12-31" }).success).toBe(false);
    expect(getStrongestQuerySchema.safeParse({ from: "2000-01-01", to: "2099-12-31" }).success).toBe(false);
    expect(getStrongestQuerySchema.safeParse({ limit: "1000000" }).success).toBe(false);
    expect(getTodayQuerySchema.safeParse({ day: "9999-12-31" }).success).toBe(false);
    expect(tagIdParamsSchema.safeParse({ id: "1e300" }).success).toBe(false);
    expect(tagIdParamsSchema.safeParse({ id: String(2 ** 40) }).success).toBe(false);
  });

  it("fills a missing end with the route's default: the last 30 days up to today when neither is given", () => {
    const today = clock.date().toISOString().slice(0, 10);
    expect(getMetricSeriesQuerySchema.parse({})).toEqual({ from: addDays(today, -(DEFAULT_RANGE_DAYS - 1)), to: today });
    expect(getMetricSeriesQuerySchema.parse({ from: "2026-01-01", to: "2026-01-31" })).toEqual({ from: "2026-01-01", to: "2026-01-31" });
    expect(recentDays("2026-03-10")).toEqual({ from: "2026-02-09", to: "2026-03-10" });
  });

  it("resolveDayRange never exceeds the cap nor reverses, for any ends and defaults (property)", () => {
    const day = fc.integer({ min: 0, max: 36_500 }).map((n) => addDays("2000-01-01", n));
    fc.assert(
      fc.property(fc.option(day, { nil: undefined }), fc.option(day, { nil: undefined }), day, day, (from, to, d1, d2) => {
        if (from && to && (from > to || span({ from, to }) > MAX_RANGE_DAYS)) return; // refused by the schema
        const defaults = d1 <= d2 ? { from: d1, to: d2 } : { from: d2, to: d1 };
        const r = resolveDayRange({ from, to }, defaults);
        expect(r.from <= r.to).toBe(true);
        expect(span(r)).toBeLessThanOrEqual(MAX_RANGE_DAYS);
        if (from) expect(r.from).toBe(from);
        if (to) expect(r.to).toBe(to);
      }),
      { numRuns: 500 },
    );
    // `to=2099-12-31` alone against data since 2015: bounded to the cap
    expect(span(resolveDayRange({ to: "2099-12-31" }, { from: "2015-01-01", to: "2026-01-01" }))).toBe(MAX_RANGE_DAYS);
  });
});

describe("metric ids", () => {
  it("refuse an unknown metric with an issue, never by throwing (zod runs every refinement)", () => {
    for (const bad of ["nope", "", "sleep.", "constructor", "__proto__"]) {
      expect(numericMetricIdSchema.safeParse(bad).success, bad).toBe(false);
      expect(metricIdSchema.safeParse(bad).success, bad).toBe(false);
    }
    expect(numericMetricIdSchema.safeParse("stress.day_summary").success).toBe(false);
    expect(numericMetricIdSchema.safeParse("sleep.score").success).toBe(true);
  });
});
