import { describe, expect, it } from "vitest";
import { addDays } from "@/lib/days";
import { buildTodaySummary } from "@/lib/metrics/today";

const DAY = "2026-11-24";

describe("buildTodaySummary", () => {
  it("daytime heart rate early in the morning, before any awake sample today: yesterday's, with its day", () => {
    const rows = Array.from({ length: 20 }, (_, i) => ({ day: addDays(DAY, -20 + i), value: 70 + (i % 3) }));
    const summary = buildTodaySummary({
      day: DAY,
      // today's night samples exist (the collection's latest day is today), no awake ones yet
      latestDay: { heartrate: DAY },
      rows: { "heartrate.daytime_mean": [...rows, { day: DAY, value: null }], "heartrate.daytime_min": [{ day: addDays(DAY, -3), value: 48 }] },
      age: null,
    });
    expect(summary.metrics["heartrate.daytime_mean"]).toMatchObject({ day: addDays(DAY, -1), value: rows.at(-1)!.value });
    // each metric on its own latest day
    expect(summary.metrics["heartrate.daytime_min"]).toMatchObject({ day: addDays(DAY, -3), value: 48 });
  });

  it("a document metric stays on its collection's latest day, a gap shown as a gap", () => {
    const summary = buildTodaySummary({
      day: DAY,
      latestDay: { daily_readiness: DAY },
      rows: {
        "readiness.score": [
          { day: addDays(DAY, -1), value: 80 },
          { day: DAY, value: null },
        ],
      },
      age: null,
    });
    expect(summary.metrics["readiness.score"]).toMatchObject({ day: DAY, value: null });
  });
});
