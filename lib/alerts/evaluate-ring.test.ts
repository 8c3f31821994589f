// The ring's battery and bedtime conditions, pure: readings in, a condition out.
import { describe, expect, it } from "vitest";
import { nextEpisodeStep, type Condition } from "@/lib/alerts/condition";
import { BATTERY_FRESH_MS, isOnCharger, type BatterySample } from "@/lib/alerts/battery";
import { evaluateBatteryLowRule } from "@/lib/alerts/kinds/ring-battery-low";
import { evaluateChargedRule } from "@/lib/alerts/kinds/ring-charged";
import { openBedtimeWindow } from "@/lib/alerts/kinds/bedtime-window";
import { bedtimeWindowOf, isoAtOffset } from "@/lib/metrics/bedtime";

const T0 = Date.parse("2026-11-20T08:00:00Z");
const MIN = 60_000;

/** Readings every 30 minutes from T0: a level each, flags given per reading ("c" charging, "i" in the charger only, "-" neither, "?" not sent). */
function readings(levels: number[], flags = ""): BatterySample[] {
  return levels.map((level, i) => {
    const f = flags[i] ?? "-";
    return { t: T0 + i * 30 * MIN, level, charging: f === "?" ? null : f === "c", inCharger: f === "?" ? null : f === "c" || f === "i" };
  });
}

const at = (s: BatterySample[], i: number) => s[i]!.t;

/** Walks the readings as they arrive (the condition at each reading's time, from those so far), counting episodes opened. */
function opened(evaluate: (s: BatterySample[], now: number) => Condition, s: BatterySample[]): number[] {
  const out: number[] = [];
  let open: { key: string } | null = null;
  for (let i = 0; i < s.length; i++) {
    const step = nextEpisodeStep(open, evaluate(s.slice(0, i + 1), at(s, i)));
    if (step.action === "end") open = null;
    if (step.action === "open" || step.action === "end_and_open") {
      open = { key: step.key };
      out.push(i);
    }
  }
  return out;
}

describe("ring_battery_low", () => {
  const low = (s: BatterySample[], now: number) => evaluateBatteryLowRule({ level: 20 }, s, now);

  it("is active once the newest reading is at or under the threshold, off the charger", () => {
    const s = readings([24, 22, 21, 20, 19]);
    expect(low(s.slice(0, 3), at(s, 2))).toEqual({ state: "inactive" });
    expect(low(s.slice(0, 4), at(s, 3))).toMatchObject({ state: "active", facts: { level: 20, threshold: 20, at: at(s, 3) } });
  });

  it("opens one episode per discharge cycle: not again while it drains, nor when the level wobbles, but after a charge", () => {
    // drains through 20, wobbles to 21, charges (flags), drains again through 20
    const s = readings([23, 21, 20, 19, 21, 18, 17, 40, 70, 95, 100, 60, 30, 21, 20, 19], "-------ccci-----");
    expect(opened(low, s)).toEqual([2, 14]);
  });

  it("a charge seen only as a jump in the level (no flags, or the charge fell between readings) starts a new cycle", () => {
    const s = readings([21, 20, 19, 60, 40, 20], "------");
    expect(opened(low, s)).toEqual([1, 5]);
    const noFlags = readings([21, 20, 19, 18, 17, 16], "??????");
    expect(opened(low, noFlags)).toEqual([1]);
  });

  it("is inactive on the charger, and unknown when the newest reading is too old to trust", () => {
    const s = readings([25, 15, 16], "--c");
    expect(low(s, at(s, 2))).toEqual({ state: "inactive" });
    const drained = readings([25, 15]);
    expect(low(drained, at(drained, 1) + BATTERY_FRESH_MS)).toMatchObject({ state: "active" });
    expect(low(drained, at(drained, 1) + BATTERY_FRESH_MS + 1)).toEqual({ state: "unknown" });
    expect(low([], T0)).toEqual({ state: "unknown" });
  });

  it("ignores readings after now (a clock ahead of ours)", () => {
    const s = readings([30, 10]);
    expect(low(s, at(s, 0))).toEqual({ state: "inactive" });
  });
});

describe("ring_charged", () => {
  const charged = (s: BatterySample[], now: number) => evaluateChargedRule({ level: 100 }, s, now);

  it("opens once per charge: at the level on the charger, however long it stays there", () => {
    // a charge to 100 (kept in the charger, charging flag off once full), off, a second charge
    const s = readings([30, 50, 80, 100, 100, 100, 99, 98, 97, 60, 90, 100, 100], "-cciii----cii");
    expect(opened(charged, s)).toEqual([3, 11]);
  });

  it("is unknown on the charger under the level, inactive off it, unknown on stale data", () => {
    const s = readings([30, 60, 100], "-c-");
    expect(charged(s.slice(0, 2), at(s, 1))).toEqual({ state: "unknown" });
    expect(charged(s, at(s, 2))).toEqual({ state: "inactive" });
    const full = readings([90, 100], "cc");
    expect(charged(full, at(full, 1) + BATTERY_FRESH_MS + 1)).toEqual({ state: "unknown" });
  });

  it("without flags, a rising level is a charge", () => {
    const s = readings([40, 70, 96, 100], "????");
    expect(isOnCharger(s, 3)).toBe(true);
    expect(evaluateChargedRule({ level: 95 }, s, at(s, 3))).toMatchObject({ state: "active", facts: { level: 100 } });
    expect(opened((x, now) => evaluateChargedRule({ level: 95 }, x, now), s)).toEqual([2]);
  });
});

describe("bedtime window", () => {
  const row = (day: string, tz: number, start: number | null, end: number | null) => ({
    day,
    status: "optimal_found",
    recommendation: "follow_optimal_bedtime",
    start_offset: start,
    end_offset: end,
    day_tz: start === null ? null : tz,
  });

  it("counts the offsets from the local midnight that ends the day, at the ring's UTC offset", () => {
    const kiritimati = bedtimeWindowOf(row("2026-11-23", 14 * 3600, -5400, -1800))!;
    expect(isoAtOffset(kiritimati.start, kiritimati.offsetSeconds)).toBe("2026-11-23T22:30:00+14:00");
    expect(new Date(kiritimati.start).toISOString()).toBe("2026-11-23T08:30:00.000Z");
    const pagoPago = bedtimeWindowOf(row("2026-11-23", -11 * 3600, 900, 4500))!;
    expect(isoAtOffset(pagoPago.start, pagoPago.offsetSeconds)).toBe("2026-11-24T00:15:00-11:00");
    expect(new Date(pagoPago.end).toISOString()).toBe("2026-11-24T12:15:00.000Z");
    expect(bedtimeWindowOf(row("2026-11-23", 0, null, null))).toBeNull();
  });

  it("is open from the window's start until its end, for the newest guidance only", () => {
    const r = row("2026-11-23", 3600, -3600, 0); // 23:00–00:00 at UTC+1 = 22:00–23:00 UTC
    expect(openBedtimeWindow(r, Date.parse("2026-11-23T21:59:59Z"))).toBeNull();
    expect(openBedtimeWindow(r, Date.parse("2026-11-23T22:00:00Z"))).toMatchObject({ day: "2026-11-23", recommendation: "follow_optimal_bedtime" });
    expect(openBedtimeWindow(r, Date.parse("2026-11-23T22:59:59Z"))).not.toBeNull();
    expect(openBedtimeWindow(r, Date.parse("2026-11-23T23:00:00Z"))).toBeNull();
    // a night without a recommendation, and no guidance at all
    expect(openBedtimeWindow(row("2026-11-23", 3600, null, null), Date.parse("2026-11-23T22:30:00Z"))).toBeNull();
    expect(openBedtimeWindow(null, Date.parse("2026-11-23T22:30:00Z"))).toBeNull();
  });
});
