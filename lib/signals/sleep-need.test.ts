import { describe, expect, it } from "vitest";
import type { Num } from "@/lib/metrics/stats";
import { sleepDebtAt } from "@/lib/signals/sleep-debt";
import { estimateSleepNeeds, needSourceWords, SLEEP_NEED, sleepNeedAt, sleepNeeds } from "@/lib/signals/sleep-need";
import { needNote, needValueWords, needWords } from "@/lib/signals/sleep-need-words";

const H = 3600;
const MIN = 60;
/** A fixed spread of nights around a centre, in minutes (never random: the same nights every run). */
const SPREAD = [-55, 20, -35, 60, -15, -60, 40, -25, 5, -45, 70, -5, 30, -50, 50, -20, 10, -40, 65, 0, -30] as const;

/** Nights around `centre` hours, and a readiness that falls by `a` a short hour and `b` an hour of the 6 nights before, rising `rise` an hour above `need`. */
function planted(opts: { days?: number; centre: number; need: number; a?: number; b?: number; rise?: number; wobble?: boolean }) {
  const days = opts.days ?? 120;
  const sleep: Num[] = Array.from({ length: days }, (_, i) => opts.centre * H + SPREAD[i % SPREAD.length]! * MIN);
  const need = opts.need * H;
  const readiness: Num[] = sleep.map((s, i) => {
    let week = 0;
    for (let k = 1; k <= 6; k++) week += i - k >= 0 ? Math.max(0, need - sleep[i - k]!) : 0;
    const r = 80 - ((opts.a ?? 8) * Math.max(0, need - s!)) / H - ((opts.b ?? 1.5) * week) / H + ((opts.rise ?? 0) * Math.max(0, s! - need)) / H;
    // whole scores, as the ring gives them, with a small fixed wobble
    return Math.round(r + (opts.wobble ? ((i * 7) % 5) - 2 : 0));
  });
  return { sleep, readiness, last: days - 1 };
}

describe("sleep need: where more sleep stops helping readiness", () => {
  it("a hockey stick at 7 h 30 min is found within 2 minutes (within 8 with a wobble), with a range that holds it, from the 90 nights before the day", () => {
    const exact = planted({ centre: 7.5, need: 7.5 });
    expect(Math.abs(sleepNeedAt(exact.sleep, exact.readiness, exact.last, null).seconds - 7.5 * H)).toBeLessThanOrEqual(2 * MIN);
    const p = planted({ centre: 7.5, need: 7.5, wobble: true });
    const need = sleepNeedAt(p.sleep, p.readiness, p.last, null);
    expect(need.source).toBe("estimated");
    expect(need.nights).toBe(90);
    expect(need.atLeast).toBe(false);
    expect(Math.abs(need.seconds - 7.5 * H)).toBeLessThanOrEqual(8 * MIN);
    expect(need.range!.low).toBeLessThanOrEqual(7.5 * H);
    expect(need.range!.high).toBeGreaterThanOrEqual(7.5 * H);
    expect(need.range!.high - need.range!.low).toBeLessThan(40 * MIN);
  });

  it("readiness that still rises a little above the need (a quarter of the slope below it): the need, not the longest nights", () => {
    const p = planted({ centre: 7.25, need: 7, rise: 2, wobble: true });
    const need = sleepNeedAt(p.sleep, p.readiness, p.last, null);
    expect(Math.abs(need.seconds - 7 * H)).toBeLessThanOrEqual(6 * MIN);
  });

  it("the week's shortfall alone (the night itself not counting) still places the need", () => {
    const p = planted({ centre: 8, need: 8.25, a: 0, b: 3, wobble: true });
    expect(Math.abs(sleepNeedAt(p.sleep, p.readiness, p.last, null).seconds - 8.25 * H)).toBeLessThanOrEqual(8 * MIN);
  });

  it("nights that never reach the plateau: the need is at least the longest well-rested night, and the debt against it a lower bound", () => {
    // need 9 h; nights 6 h 25 min … 8 h 10 min: readiness rises all the way
    const p = planted({ centre: 7.3, need: 9, wobble: true });
    const need = sleepNeedAt(p.sleep, p.readiness, p.last, null);
    expect(need).toMatchObject({ source: "estimated", atLeast: true });
    const window = p.sleep.slice(p.last - 90, p.last).map((s) => s!);
    const rested = p.readiness.slice(p.last - 90, p.last).map((r, k) => ({ r: r!, s: window[k]! }));
    const median = [...rested.map((x) => x.r)].sort((a, b) => a - b)[45]!;
    expect(need.seconds).toBe(Math.max(...rested.filter((x) => x.r >= median).map((x) => x.s)));
    expect(need.seconds).toBeLessThanOrEqual(9 * H);
    expect(need.range).toEqual({ low: need.seconds, high: SLEEP_NEED.maxS });
    expect(sleepDebtAt(p.sleep, p.last, need.seconds).seconds!).toBeLessThanOrEqual(sleepDebtAt(p.sleep, p.last, 9 * H).seconds!);
  });

  it("a readiness that does not follow sleep: it cannot tell, and says the default", () => {
    const p = planted({ centre: 7.5, need: 7.5 });
    const flat = p.readiness.map((_, i) => 70 + ((i * 7) % 11));
    const need = sleepNeedAt(p.sleep, flat, p.last, null);
    expect(need).toEqual({ seconds: 8 * H, source: "default", nights: 90, range: null, atLeast: false });
    expect(estimateSleepNeeds(p.sleep, flat, p.last, p.last)).toEqual([{ kind: "no_relation", nights: 90 }]);
  });

  it("28 usable nights are needed (a sleep, a readiness and 3 of the 6 nights before); the setting comes first", () => {
    const p = planted({ centre: 7.5, need: 7.5, days: 40 });
    // day 34 reads nights 0 … 33, of which 3 … 33 have 3 of their 6 nights before: 31
    expect(sleepNeedAt(p.sleep, p.readiness, 34, null).source).toBe("estimated");
    const gappy = (n: number) => p.readiness.map((r, i) => (i >= 3 && i < 3 + n ? null : r));
    expect(sleepNeedAt(p.sleep, gappy(3), 34, null)).toMatchObject({ source: "estimated", nights: 28 });
    expect(sleepNeedAt(p.sleep, gappy(4), 34, null)).toEqual({ seconds: 8 * H, source: "default", nights: 27, range: null, atLeast: false });
    expect(sleepNeedAt(p.sleep, p.readiness, 34, 7.25 * H)).toEqual({ seconds: 7.25 * H, source: "setting", nights: 0, range: null, atLeast: false });
  });

  it("kept within 6–10 h, however short or long the nights and the need", () => {
    for (const [centre, needH] of [
      [5.5, 5],
      [6.25, 5.5],
      [10.25, 10.5],
      [11, 11.5],
    ] as const) {
      const p = planted({ centre, need: needH, wobble: true });
      const need = sleepNeedAt(p.sleep, p.readiness, p.last, null);
      expect(need.seconds).toBeGreaterThanOrEqual(SLEEP_NEED.minS);
      expect(need.seconds).toBeLessThanOrEqual(SLEEP_NEED.maxS);
      if (need.range) expect([need.range.low >= SLEEP_NEED.minS, need.range.high <= SLEEP_NEED.maxS]).toEqual([true, true]);
    }
  });

  it("a range of days is each day's own estimate (one pass gives what day-by-day calls give)", () => {
    const p = planted({ centre: 7.5, need: 7.75, rise: 1, wobble: true, days: 160 });
    const many = sleepNeeds(p.sleep, p.readiness, 100, 159, null);
    for (const i of [100, 117, 140, 159]) expect(many[i - 100]).toEqual(sleepNeedAt(p.sleep, p.readiness, i, null));
  });
});

describe("the need in words", () => {
  const base = { needH: 7.33, needSource: "estimated" as const, needNights: 84, needRange: { lowH: 7.08, highH: 7.67 }, needAtLeast: false };
  it("the source: your setting, estimated from N nights, default", () => {
    expect(needSourceWords({ source: "setting", nights: 0 })).toBe("your setting");
    expect(needSourceWords({ source: "estimated", nights: 84 })).toBe("estimated from 84 nights");
    expect(needSourceWords({ source: "default", nights: 12 })).toBe("default");
  });

  it("the value with its range; at least; the default's reason", () => {
    expect(needWords({ ...base, needSourceText: "estimated from 84 nights" })).toBe("7 h 20 min (7 h 05 min – 7 h 40 min), estimated from 84 nights");
    expect(needValueWords({ ...base, needAtLeast: true, needSourceText: "" })).toBe("at least 7 h 20 min");
    expect(needNote({ ...base, needAtLeast: true, needSourceText: "" })).toMatch(/at least the longest of your well-rested nights/);
    expect(needNote({ ...base, needSource: "default", needNights: 12, needRange: null, needSourceText: "default" })).toMatch(/28 nights .* 12 so far/);
    expect(needNote({ ...base, needSource: "default", needNights: 90, needRange: null, needSourceText: "default" })).toMatch(/did not follow your sleep/);
    expect(needNote({ ...base, needSourceText: "" })).toBeNull();
  });
});
