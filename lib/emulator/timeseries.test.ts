// A time series' local days meet without a gap or an overlap: a sample is rounded to the second
// the service sends and then placed on the day that instant falls on, so a window that starts at a
// midnight (which reads that day and the ones after it) serves every sample at or after it.
import { describe, expect, it } from "vitest";
import type { Habits } from "./resources";
import { dayStartMs, heartRateDay, heartRateRow, localDayOf, type Series, type SeriesView } from "./timeseries";

const DAY_MS = 86_400_000;
const D = 20_500; // a local day index (2026-02-16)

/** A person whose only samples are one session's, from `t0` every five seconds (no activity, no sleep). */
function viewWithSession(offsetMinutes: number, t0: number, items: number[]): SeriesView {
  const session = {
    id: "s-1",
    day: "D",
    start_datetime: new Date(t0).toISOString(),
    end_datetime: new Date(t0 + items.length * 5000).toISOString(),
    heart_rate: { interval: 5, items, timestamp: new Date(t0).toISOString() },
  };
  return {
    prefix: "timeseries-test",
    offsetMinutes,
    age: 40,
    habits: {} as Habits,
    isDay: (idx) => idx === D || idx === D + 1,
    docs: (collection, idx) => (collection === "session" && idx === D ? [session] : []),
    restModes: () => [],
    chargerNight: () => false,
  };
}

const instants = (s: Series) => Array.from(s.t.subarray(0, s.n));

describe("a sample near midnight", () => {
  for (const offsetMinutes of [0, 60, -300]) {
    const midnight = dayStartMs(D + 1, offsetMinutes);

    it(`at 23:59:59.6 (UTC${offsetMinutes >= 0 ? "+" : ""}${offsetMinutes / 60}) is served at the next midnight, by the next day, once`, () => {
      // thirteen samples five seconds apart: the twelfth at 23:59:59.6 local, the last at 00:00:04.6
      const items = Array.from({ length: 13 }, (_, i) => 60 + i);
      const view = viewWithSession(offsetMinutes, midnight - 400 - 11 * 5000, items);
      const day = heartRateDay(view, D);
      const next = heartRateDay(view, D + 1);
      // every sample of a day lies inside it
      expect(instants(day).every((t) => t >= dayStartMs(D, offsetMinutes) && t < midnight)).toBe(true);
      expect(instants(next).every((t) => t >= midnight && t < midnight + DAY_MS)).toBe(true);
      expect(instants(day).at(-1)).toBe(midnight - 5000);
      // the sample of 23:59:59.6 is the next day's first, at midnight, with its own value
      expect(heartRateRow(next, 0)).toMatchObject({ bpm: 71, source: "session", timestamp_unix: midnight });
      expect(localDayOf(midnight, offsetMinutes)).toBe(D + 1);
      expect(instants(next)).toEqual([midnight, midnight + 5000]);
      // the two days together hold each sample once
      expect([...instants(day), ...instants(next)]).toHaveLength(13);
    });

    it(`at 23:59:59.4 (UTC${offsetMinutes >= 0 ? "+" : ""}${offsetMinutes / 60}) stays on its day, at 23:59:59`, () => {
      const items = Array.from({ length: 13 }, (_, i) => 60 + i);
      const view = viewWithSession(offsetMinutes, midnight - 600 - 11 * 5000, items);
      const day = heartRateDay(view, D);
      const next = heartRateDay(view, D + 1);
      expect(heartRateRow(day, day.n - 1)).toMatchObject({ bpm: 71, timestamp_unix: midnight - 1000 });
      expect(instants(next)).toEqual([midnight + 4000]);
    });
  }

  it("at 00:00:00.4 of a day that began with it belongs to that day (rounded down to its midnight)", () => {
    const midnight = dayStartMs(D + 1, 0);
    const view = viewWithSession(0, midnight - 10_000 + 400, [50, 51, 52]);
    expect(instants(heartRateDay(view, D))).toEqual([midnight - 10_000, midnight - 5000]);
    expect(instants(heartRateDay(view, D + 1))).toEqual([midnight]);
  });
});
