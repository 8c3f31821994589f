import { describe, expect, it } from "vitest";
import { debtWeights, sleepDebtAt, sleepDebtSeries } from "@/lib/signals/sleep-debt";
import { sleepSecondsByDay, type SleepPeriodInput } from "@/lib/signals/sleep-times";

const H = 3600;
/** 14 nights, oldest first, from a list given last night first (the way the method reads them). */
const nights = (lastFirst: Array<number | null>) => [...lastFirst].reverse().map((h) => (h === null ? null : h * H));

describe("sleep debt (RISE: 14 nights, last night 15 %, the rest 85 % linearly)", () => {
  it("weights: 2.1 for last night, then 13, 12 … 1 parts of 11.9; they add up to 14", () => {
    const w = debtWeights();
    expect(w).toHaveLength(14);
    expect(w[0]).toBeCloseTo(2.1, 12);
    expect(w[1]).toBeCloseTo(1.7, 12); // 13 × 11.9 / 91
    expect(w[13]).toBeCloseTo(11.9 / 91, 12);
    expect(w.reduce((a, b) => a + b, 0)).toBeCloseTo(14, 12);
  });

  it("every night present: 2 h short last night and 1 h the night before → 2.1·2 + 1.7·1 = 5.9 h", () => {
    const sleep = nights([6, 7, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8]);
    const d = sleepDebtAt(sleep, 13, 8 * H);
    expect(d.seconds! / H).toBeCloseTo(5.9, 10);
    expect(d.nightsWithData).toBe(14);
    expect(d.nights.slice(0, 2)).toEqual([6 * H, 7 * H]);
  });

  it("longer nights never pay debt back (a night over the need owes 0, it is not negative)", () => {
    const sleep = nights([6, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10]);
    expect(sleepDebtAt(sleep, 13, 8 * H).seconds! / H).toBeCloseTo(4.2, 10);
  });

  it("gaps (nights without the ring): the nights with data stand in for them — 5.9 · 14 / (14 − w₂ − w₃)", () => {
    const sleep = nights([6, 7, null, null, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8]);
    const d = sleepDebtAt(sleep, 13, 8 * H);
    // w₂ + w₃ = (12 + 11) · 11.9 / 91 = 273.7 / 91
    expect(d.seconds! / H).toBeCloseTo((5.9 * 14) / (14 - 273.7 / 91), 10);
    expect(d.seconds! / H).toBeCloseTo(7.514346, 5);
    expect(d.nightsWithData).toBe(12);
  });

  it("fewer than 7 nights of the 14 (and days before the history began): no debt", () => {
    const sleep = nights([6, null, null, null, null, null, null, null, null, 8, 8, 8, 8, 8]);
    expect(sleepDebtAt(sleep, 13, 8 * H)).toMatchObject({ seconds: null, nightsWithData: 6 });
    expect(sleepDebtAt([7 * H, 7 * H], 1, 8 * H)).toMatchObject({ seconds: null, nightsWithData: 2 });
  });

  it("naps count: a day's sleep is its main sleep and its naps, never a deleted period or a rejected rest", () => {
    const byDay = sleepSecondsByDay([
      { day: "2026-03-02", type: "long_sleep", total_sleep_duration: 6 * H, time_in_bed: 7 * H },
      { day: "2026-03-02", type: "sleep", total_sleep_duration: 1 * H, time_in_bed: 1.2 * H },
      { day: "2026-03-02", type: "rest", total_sleep_duration: 2 * H, time_in_bed: 2 * H },
      { day: "2026-03-02", type: "deleted", total_sleep_duration: 3 * H, time_in_bed: 3 * H },
      { day: "2026-03-03", type: "late_nap", total_sleep_duration: 0.5 * H, time_in_bed: 0.5 * H },
    ]);
    expect(byDay.get("2026-03-02")).toBe(7 * H);
    expect(byDay.get("2026-03-03")).toBe(0.5 * H);
    // a 7 h day (6 h + a 1 h nap) against an 8 h need owes 1 h that night
    const sleep = nights([7, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8]);
    expect(sleepDebtAt(sleep, 13, 8 * H).seconds! / H).toBeCloseTo(2.1, 10);
  });
});

describe("a person east of UTC+12 and one west of UTC−10", () => {
  for (const offset of ["+14:00", "-11:00"]) {
    it(`a night and a nap count on the ring's day, whatever their UTC date (UTC${offset})`, () => {
      // 23:30 the evening before and 14:00 on the day, local: on UTC dates that differ from the ring's day
      const periods: SleepPeriodInput[] = [
        {
          day: "2026-03-02",
          type: "long_sleep",
          total_sleep_duration: 6.5 * H,
          time_in_bed: 7 * H,
          bedtime_start: `2026-03-01T23:30:00${offset}`,
          bedtime_end: `2026-03-02T06:30:00${offset}`,
        },
        {
          day: "2026-03-02",
          type: "sleep",
          total_sleep_duration: 0.5 * H,
          time_in_bed: 0.6 * H,
          bedtime_start: `2026-03-02T14:00:00${offset}`,
          bedtime_end: `2026-03-02T14:36:00${offset}`,
        },
      ];
      const byDay = sleepSecondsByDay(periods);
      expect([...byDay]).toEqual([["2026-03-02", 7 * H]]);
    });
  }
});

describe("the debt series (the Trends metric) is each day's debt against that day's need", () => {
  it("with the setting: every slot from `from` on, nothing before it", () => {
    const sleep = Array.from({ length: 30 }, (_, i) => (i % 7 === 3 ? null : 7 * H));
    const series = sleepDebtSeries(sleep, sleep, 8 * H, 10);
    expect(series.slice(0, 10)).toEqual(new Array(10).fill(null));
    for (let i = 10; i < 30; i++) expect(series[i]).toBe(sleepDebtAt(sleep, i, 8 * H).seconds);
    expect(series[29]).toBeGreaterThan(0);
  });
});
