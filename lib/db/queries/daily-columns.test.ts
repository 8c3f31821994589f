// A daily read (the charts' series, the signals', the cycle's) comes back from the database as one
// JSON array: every cell must read as it is stored, on both databases: a float to its last bit, an
// integer, text that looks like JSON, a null, a boolean as 1 or 0, several rows on a day in the
// order they were stored, and nothing outside the range or of another person.
import { afterEach, describe, expect, it } from "vitest";
import { db } from "@/lib/test/prisma";
import { getDailyColumns, getSleepPeriodColumns } from "@/lib/db/queries/ring-data";

const USER = "u-daily-columns";
const OTHER = "u-daily-columns-other";

afterEach(async () => {
  await db.dailyReadiness.deleteMany({ where: { userId: { in: [USER, OTHER] } } });
  await db.dailyCyclePhases.deleteMany({ where: { userId: { in: [USER, OTHER] } } });
  await db.sleepPeriod.deleteMany({ where: { userId: { in: [USER, OTHER] } } });
  await db.user.deleteMany({ where: { id: { in: [USER, OTHER] } } });
});

describe("getDailyColumns", () => {
  it("reads every cell exactly, oldest day first and a day's rows in the order stored", async () => {
    await db.user.createMany({
      data: [
        { id: USER, email: "daily-columns@example.test" },
        { id: OTHER, email: "daily-columns-other@example.test" },
      ],
    });
    const rows = [
      { documentId: "r-3", day: "2026-03-03", score: 71, temperature_deviation: 0.1 + 0.2, timestamp: '{"not":"json"}' },
      { documentId: "r-1", day: "2026-03-01", score: null, temperature_deviation: -1.2345678901234567, timestamp: "2026-03-01T00:00:00+01:00" },
      { documentId: "r-2a", day: "2026-03-02", score: 80, temperature_deviation: null, timestamp: null },
      { documentId: "r-2b", day: "2026-03-02", score: 81, temperature_deviation: 1e-300, timestamp: "ünïcode \u2028 line" },
      { documentId: "r-out", day: "2026-03-04", score: 99, temperature_deviation: 9, timestamp: null },
    ];
    for (const r of rows) await db.dailyReadiness.create({ data: { userId: USER, raw: "{}", ...r } });
    await db.dailyReadiness.create({ data: { userId: OTHER, documentId: "o-1", day: "2026-03-02", score: 5, raw: "{}" } });

    const read = await getDailyColumns({
      userId: USER,
      collection: "daily_readiness",
      columns: ["score", "temperature_deviation", "timestamp"],
      from: "2026-03-01",
      to: "2026-03-03",
    });
    expect(read).toEqual([
      { day: "2026-03-01", score: null, temperature_deviation: -1.2345678901234567, timestamp: "2026-03-01T00:00:00+01:00" },
      { day: "2026-03-02", score: 80, temperature_deviation: null, timestamp: null },
      { day: "2026-03-02", score: 81, temperature_deviation: 1e-300, timestamp: "ünïcode \u2028 line" },
      { day: "2026-03-03", score: 71, temperature_deviation: 0.30000000000000004, timestamp: '{"not":"json"}' },
    ]);
    expect(await getDailyColumns({ userId: USER, collection: "daily_readiness", columns: [], from: "2026-03-02", to: "2026-03-02" })).toEqual([
      { day: "2026-03-02" },
      { day: "2026-03-02" },
    ]);
    expect(await getDailyColumns({ userId: USER, collection: "daily_readiness", columns: ["score"], from: "2026-04-01", to: "2026-04-30" })).toEqual([]);
  });

  it("reads a boolean as 1 or 0, as the answers always carried it", async () => {
    await db.user.create({ data: { id: USER, email: "daily-columns@example.test" } });
    await db.dailyCyclePhases.createMany({
      data: [
        { userId: USER, day: "2026-03-01", cycle_day: 1, phase: "menstrual", predicted: true, raw: "{}" },
        { userId: USER, day: "2026-03-02", cycle_day: 2, phase: "menstrual", predicted: false, raw: "{}" },
        { userId: USER, day: "2026-03-03", cycle_day: null, phase: null, predicted: null, raw: "{}" },
      ],
    });
    const read = await getDailyColumns({
      userId: USER,
      collection: "daily_cycle_phases",
      columns: ["predicted", "cycle_day"],
      from: "2026-03-01",
      to: "2026-03-31",
    });
    expect(read).toEqual([
      { day: "2026-03-01", predicted: 1, cycle_day: 1 },
      { day: "2026-03-02", predicted: 0, cycle_day: 2 },
      { day: "2026-03-03", predicted: null, cycle_day: null },
    ]);
  });

  it("reads sleep periods by day, then bedtime, with a boolean as 1 or 0", async () => {
    await db.user.create({ data: { id: USER, email: "daily-columns@example.test" } });
    const periods = [
      {
        documentId: "p-nap",
        day: "2026-03-02",
        type: "late_nap",
        bedtime_start: "2026-03-02T15:00:00+01:00",
        average_heart_rate: 61.25,
        low_battery_alert: false,
      },
      {
        documentId: "p-night",
        day: "2026-03-02",
        type: "long_sleep",
        bedtime_start: "2026-03-01T23:10:00+01:00",
        average_heart_rate: 0.1 + 0.7,
        low_battery_alert: true,
      },
      { documentId: "p-1", day: "2026-03-01", type: null, bedtime_start: null, average_heart_rate: null, low_battery_alert: null },
    ];
    for (const p of periods) await db.sleepPeriod.create({ data: { userId: USER, raw: "{}", ...p } });
    const read = await getSleepPeriodColumns({
      userId: USER,
      from: "2026-03-01",
      to: "2026-03-02",
      columns: ["type", "average_heart_rate", "low_battery_alert"],
    });
    expect(read).toEqual([
      { day: "2026-03-01", type: null, average_heart_rate: null, low_battery_alert: null },
      { day: "2026-03-02", type: "long_sleep", average_heart_rate: 0.7999999999999999, low_battery_alert: 1 },
      { day: "2026-03-02", type: "late_nap", average_heart_rate: 61.25, low_battery_alert: 0 },
    ]);
  });
});
