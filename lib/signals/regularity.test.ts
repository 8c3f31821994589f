import { describe, expect, it } from "vitest";
import { addDays } from "@/lib/days";
import { computeRegularity, isoWeekday, sleepRegularityIndex } from "@/lib/signals/regularity";
import { parseLocalTime, sleepIntervals, type SleepPeriodInput } from "@/lib/signals/sleep-times";

// Every fixture is written in local clock times with the person's UTC offset, the way the ring
// writes them. Two people live the same local life, one at UTC+14 (Kiritimati) and one at
// UTC−11 (Pago Pago): their figures must be the same, whatever the server's time zone.
const OFFSETS = ["+14:00", "-11:00"] as const;

/** A period from local clock times; a bedtime after noon is the evening before `day`. */
function period(day: string, bed: string, wake: string, offset: string, extra: Partial<SleepPeriodInput> = {}): SleepPeriodInput {
  const bedDay = bed >= "12:00" ? addDays(day, -1) : day;
  const start = `${bedDay}T${bed}:00${offset}`;
  const end = `${day}T${wake}:00${offset}`;
  const secs = (Date.parse(end) - Date.parse(start)) / 1000;
  return { day, type: "long_sleep", bedtime_start: start, bedtime_end: end, total_sleep_duration: secs, time_in_bed: secs, ...extra };
}

/**
 * 1–14 March 2026 (1 March is a Sunday): 23:00–07:00 every night, except
 *   - 5 March: no night (the ring not worn);
 *   - 10 March: 01:00–07:00;
 *   - 12 March: a nap 14:00–15:00 besides the night.
 */
function fortnight(offset: string): SleepPeriodInput[] {
  const out: SleepPeriodInput[] = [];
  for (let k = 0; k < 14; k++) {
    const day = addDays("2026-03-01", k);
    if (day === "2026-03-05") continue;
    out.push(day === "2026-03-10" ? period(day, "01:00", "07:00", offset) : period(day, "23:00", "07:00", offset));
  }
  out.push({
    ...period("2026-03-12", "14:00", "15:00", offset),
    bedtime_start: `2026-03-12T14:00:00${offset}`,
    type: "sleep",
    total_sleep_duration: 3600,
    time_in_bed: 3600,
  });
  return out;
}

describe("local times come from the string, never from the server's time zone", () => {
  it("reads the clock and offset as written", () => {
    expect(parseLocalTime("2026-03-01T23:30:00+14:00")).toEqual({
      ms: Date.parse("2026-03-01T09:30:00Z"),
      offsetMin: 840,
      minuteOfDay: 1410,
      offset: "+14:00",
    });
    expect(parseLocalTime("2026-03-01T23:30:00.000-11:00")).toMatchObject({ ms: Date.parse("2026-03-02T10:30:00Z"), offsetMin: -660, minuteOfDay: 1410 });
    expect(parseLocalTime("2026-03-01T23:30:00")).toBeNull();
    expect(parseLocalTime("yesterday")).toBeNull();
  });

  it("1 March 2026 is a Sunday (ISO weekday 7)", () => {
    expect(isoWeekday("2026-03-01")).toBe(7);
    expect(isoWeekday("2026-03-07")).toBe(6);
  });
});

describe("Sleep Regularity Index (Phillips et al. 2017)", () => {
  for (const offset of OFFSETS) {
    it(`hand-computed, with a gap, a late night and a nap (UTC${offset})`, () => {
      const r = sleepRegularityIndex(sleepIntervals(fortnight(offset)), "2026-03-14", offset);
      // 13 consecutive-day pairs, less the two that touch 5 March: 11 pairs of 288 five-minute epochs.
      // The late night differs from each neighbour for 23:00–01:00 (24 epochs, two pairs);
      // the nap lies in 13 March's noon-to-noon stretch and differs for 1 h (12 epochs, two pairs).
      const agree = 11 * 288 - 2 * 24 - 2 * 12;
      expect(r.pairs).toBe(11);
      expect(r.sri).toBeCloseTo(-100 + (200 * agree) / (11 * 288), 10);
      expect(r.sri).toBeCloseTo(95.4545, 4);
    });
  }

  it("perfectly regular nights score 100; the 5-minute stages' awake stretches count as awake", () => {
    const days = Array.from({ length: 14 }, (_, k) => addDays("2026-03-01", k));
    const regular = days.map((d) => period(d, "23:00", "07:00", "+14:00"));
    expect(sleepRegularityIndex(sleepIntervals(regular), "2026-03-14", "+14:00").sri).toBe(100);
    // 8 March: awake for its first 30 minutes (six "4" epochs), then asleep
    const withWake = regular.map((p) => (p.day === "2026-03-08" ? { ...p, sleep_phase_5_min: "444444" + "2".repeat(90) } : p));
    const r = sleepRegularityIndex(sleepIntervals(withWake), "2026-03-14", "+14:00");
    expect(r.pairs).toBe(13);
    expect(r.sri).toBeCloseTo(-100 + (200 * (13 * 288 - 2 * 6)) / (13 * 288), 10);
  });

  it("fewer than 5 day pairs: no index", () => {
    const four = ["2026-03-11", "2026-03-12", "2026-03-13", "2026-03-14"].map((d) => period(d, "23:00", "07:00", "-11:00"));
    expect(sleepRegularityIndex(sleepIntervals(four), "2026-03-14", "-11:00")).toEqual({ sri: null, pairs: 3 });
  });
});

describe("bedtime spread and social jet lag", () => {
  for (const offset of OFFSETS) {
    it(`spread of the main sleeps only (UTC${offset}): 12 bedtimes at 23:00 and one at 01:00`, () => {
      const r = computeRegularity(sleepIntervals(fortnight(offset)), "2026-03-14", [6, 7]);
      // minutes after noon: 12 × 660 and 780 → mean 8700/13; Σ(x − mean)² = 13292.31
      expect(r.spreadNights).toBe(13);
      expect(r.bedtime).toBeCloseTo((8700 / 13 + 720) / 60, 10); // 23:09
      expect(r.bedtimeSdMin).toBeCloseTo(Math.sqrt((12 * 660 ** 2 + 780 ** 2 - 8700 ** 2 / 13) / 12), 10);
      expect(r.bedtimeSdMin).toBeCloseTo(33.282, 3);
      expect(r.wakeTime).toBe(7);
      expect(r.wakeTimeSdMin).toBe(0);
    });
  }

  for (const offset of OFFSETS) {
    it(`social jet lag (UTC${offset}): work nights 23:00–07:00, weekend nights 01:00–10:00 → 2.5 h`, () => {
      const periods: SleepPeriodInput[] = [];
      for (let k = 0; k < 28; k++) {
        const day = addDays("2026-03-01", k);
        const free = [6, 7].includes(isoWeekday(day));
        periods.push(free ? period(day, "01:00", "10:00", offset) : period(day, "23:00", "07:00", offset));
      }
      const r = computeRegularity(sleepIntervals(periods), "2026-03-28", [6, 7]);
      expect(r.freeNights).toBe(8);
      expect(r.workNights).toBe(20);
      expect(r.midSleepWork).toBe(3);
      expect(r.midSleepFree).toBe(5.5);
      expect(r.socialJetLagH).toBe(2.5);
      // SD_week = (5·480 + 2·540)/7; MSF_sc = MSF − (540 − SD_week)/2, as a clock time
      const sdWeek = (5 * 480 + 2 * 540) / 7;
      expect(r.chronotype).toBeCloseTo((1050 - (540 - sdWeek) / 2 - 720) / 60, 10);
      expect(r.chronotype).toBeCloseTo(5.142857, 5);
      // free days as a setting: with every day free there is no work day to compare
      expect(computeRegularity(sleepIntervals(periods), "2026-03-28", [1, 2, 3, 4, 5, 6, 7]).socialJetLagH).toBeNull();
      // Friday and Saturday free instead: Friday's night (ends Friday) is a work-like one here
      const friSat = computeRegularity(sleepIntervals(periods), "2026-03-28", [5, 6]);
      expect(friSat.freeNights).toBe(8);
      expect(friSat.socialJetLagH).toBeCloseTo(Math.abs((4 * 1050 + 4 * 900) / 8 - (16 * 900 + 4 * 1050) / 20) / 60, 10);
    });
  }
});
