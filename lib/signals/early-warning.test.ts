import { describe, expect, it } from "vitest";
import { computeEarlyWarning, flagRuleText, levelAtLeast, markerBaseline, median, type EarlyWarningInputs } from "@/lib/signals/early-warning";

/** A steady history of `n` nights (small alternating wobble), then `episode` nights moved as given. */
function history(n: number, episode: number, move = { temp: 1.0, hr: 7, hrv: 0.7, breath: 2 }): EarlyWarningInputs {
  const temperature_deviation: number[] = [];
  const resting_heart_rate: number[] = [];
  const hrv: number[] = [];
  const breathing_rate: number[] = [];
  for (let i = 0; i < n + episode; i++) {
    const w = i % 2 ? 1 : -1;
    const ep = i >= n;
    temperature_deviation.push(0.05 * w + (ep ? move.temp : 0));
    resting_heart_rate.push(55 + w + (ep ? move.hr : 0));
    hrv.push((50 + 2 * w) * (ep ? move.hrv : 1));
    breathing_rate.push(14 + 0.2 * w + (ep ? move.breath : 0));
  }
  return { temperature_deviation, resting_heart_rate, hrv, breathing_rate };
}

describe("early warning", () => {
  it("a planted episode (+1 °C, +7 bpm, −30 % HRV, +2/min for three nights) is likely; the steady nights before are none", () => {
    const out = computeEarlyWarning(history(70, 3));
    // the first 16 nights have no 14-night baseline yet (it leaves the last two nights out)
    expect(out.slice(0, 16).every((n) => n.level === null && n.status === "insufficient_history")).toBe(true);
    expect(out.slice(16, 70).every((n) => n.level === "none" && n.flags === 0)).toBe(true);
    for (const night of out.slice(70)) {
      expect(night.level).toBe("likely");
      expect(night.flags).toBe(4);
    }
    const first = out[70]!;
    const by = Object.fromEntries(first.markers.map((m) => [m.marker, m]));
    // baseline: the median of nights 10 … 67 (58 nights, alternating): 0, 55, 50 ms (geometric), 14
    expect(by.temperature_deviation!.baseline).toMatchObject({ median: 0, nights: 58 });
    expect(by.temperature_deviation!.delta).toBeCloseTo(0.95, 10); // night 70 wobbles −0.05, then +1.0
    expect(by.resting_heart_rate!.delta).toBe(6);
    expect(by.hrv!.delta).toBeCloseTo((48 * 0.7) / Math.sqrt(48 * 52) - 1, 10);
    expect(by.breathing_rate!.delta).toBeCloseTo(1.8, 10);
    expect(out[71]!.heartRateTwoNights).toBe(true);
  });

  it("one marker alone is a watch; the heart-rate rule two nights in a row alone is likely (NightSignal)", () => {
    const temp = history(40, 0);
    temp.temperature_deviation = temp.temperature_deviation.map((v, i) => (i === 39 ? 0.7 : v));
    expect(computeEarlyWarning(temp)[39]).toMatchObject({ level: "watch", flags: 1 });
    const hr = history(40, 0);
    hr.resting_heart_rate = hr.resting_heart_rate.map((v, i) => (i >= 38 ? 61 : v));
    const out = computeEarlyWarning(hr);
    expect(out[38]).toMatchObject({ level: "watch", heartRateTwoNights: false });
    expect(out[39]).toMatchObject({ level: "likely", flags: 1, heartRateTwoNights: true });
  });

  it("temperature's 3-night mean ≥ +0.3 °C flags even when no single night reaches +0.5 °C", () => {
    const h = history(40, 0);
    h.temperature_deviation = h.temperature_deviation.map((v, i) => (i >= 37 ? 0.35 : v));
    const t = computeEarlyWarning(h)[39]!.markers.find((m) => m.marker === "temperature_deviation")!;
    // the baseline of night 39 (nights 0 … 36: 19 at −0.05, 18 at +0.05) has the median −0.05
    expect(t.delta).toBeCloseTo(0.4, 10);
    expect(t.mean3).toBeCloseTo(0.4, 10);
    expect(t.flagged).toBe(true);
  });

  it("each flagged marker names the rule that fired, its value and threshold: tonight's change, the 3-night mean, two nights in a row, the SD rule", () => {
    // tonight's change near 0, the two nights before at +0.55: the 3-night mean flags, not tonight's change
    const h = history(40, 0);
    h.temperature_deviation = h.temperature_deviation.map((v, i) => (i === 37 || i === 38 ? 0.55 : i === 39 ? -0.04 : v));
    const t = computeEarlyWarning(h)[39]!.markers.find((m) => m.marker === "temperature_deviation")!;
    expect(t.delta).toBeCloseTo(0.01, 10);
    expect(t.flagged).toBe(true);
    expect(t.rule).toEqual({ name: "mean3", value: t.mean3, threshold: 0.3 });
    expect(t.rule!.value).toBeCloseTo((0.6 + 0.6 + 0.01) / 3, 10);
    const words = flagRuleText(t.rule!, (v) => `${v >= 0 ? "+" : "−"}${Math.abs(v).toFixed(2)} °C`);
    expect(words).toBe("the mean of the last 3 nights +0.40 °C, at least +0.30 °C above baseline");

    // the whole episode: tonight's change (temperature, breathing), two nights in a row (heart rate), the SD rule (HRV)
    const ep = computeEarlyWarning(history(70, 2));
    const by = (i: number) => Object.fromEntries(ep[i]!.markers.map((m) => [m.marker, m.rule]));
    expect(by(70)).toMatchObject({
      temperature_deviation: { name: "change", threshold: 0.5 },
      resting_heart_rate: { name: "change", value: 6, threshold: 4 },
      hrv: { name: "sd" },
      breathing_rate: { name: "change", threshold: 1.5 },
    });
    expect(by(71).resting_heart_rate).toEqual({ name: "two_nights", value: 8, threshold: 4, previous: 6 });
    expect(by(70).hrv!.value).toBeLessThanOrEqual(by(70).hrv!.threshold);
    // a night that did not flag has no rule
    expect(ep[50]!.markers.every((m) => m.rule === null)).toBe(true);
  });

  it("gaps: the baseline is the nights with a value; a night with one marker only says nothing", () => {
    const h = history(40, 0);
    const gappy: EarlyWarningInputs = {
      temperature_deviation: h.temperature_deviation.map((v, i) => (i % 3 === 0 || i === 39 ? null : v)),
      resting_heart_rate: h.resting_heart_rate.map((v, i) => (i % 3 === 0 ? null : v)),
      hrv: h.hrv.map((v, i) => (i === 39 ? null : v)),
      breathing_rate: h.breathing_rate.map((v, i) => (i === 39 ? null : v)),
    };
    const out = computeEarlyWarning(gappy);
    expect(markerBaseline(gappy.resting_heart_rate, 30)?.nights).toBe(18); // nights 0 … 27 without every third
    expect(out[39]).toMatchObject({ level: null, status: "no_data" });
  });

  it("median and levels", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNull();
    expect(levelAtLeast("likely", "watch")).toBe(true);
    expect(levelAtLeast("watch", "likely")).toBe(false);
    expect(levelAtLeast(null, "watch")).toBe(false);
  });
});
