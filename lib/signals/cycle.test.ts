import { describe, expect, it } from "vitest";
import { addDays } from "@/lib/days";
import type { Num } from "@/lib/metrics/stats";
import { analyseCycles, CYCLE, fitShift, periodDaysFrom, phaseIn, threeOverSix, type CycleSource } from "@/lib/signals/cycle";
import { cycleDayRows } from "@/lib/signals/cycle-days";
import { cycleCorrections } from "@/lib/signals/cycle-adjust";
import { computeEarlyWarning } from "@/lib/signals/early-warning";
import { normalRangeForChart } from "@/lib/signals/normal-range";

const START = "2026-01-01";
/** a small fixed wobble, so no two nights are equal (no randomness) */
const wobble = (i: number) => ((i * 37) % 11) / 100 - 0.05;

/** Cycles of `lengths` days from index 0, the shift `shift` °C from `luteal` nights before each next start. */
function planted(lengths: number[], luteal = 12, shift = 0.3): { temperature: Num[]; starts: number[]; ovulations: number[] } {
  const temperature: Num[] = [];
  const starts: number[] = [];
  const ovulations: number[] = [];
  let s = 0;
  for (const len of lengths) {
    starts.push(s);
    ovulations.push(s + len - luteal - 1);
    for (let k = 0; k < len; k++) temperature.push(Math.round((wobble(s + k) + (k >= len - luteal ? shift : 0)) * 100) / 100);
    s += len;
  }
  starts.push(s);
  return { temperature, starts, ovulations };
}

const source = (temperature: Num[], starts: number[], ends: string[] = []): CycleSource => ({
  start: START,
  temperature,
  periodStarts: starts.map((i) => addDays(START, i)),
  periodEnds: ends,
});

describe("period days", () => {
  it("takes entries' starts and ends, and served documents' first days unless an entry is near or the day is predicted", () => {
    const got = periodDaysFrom(
      [
        { id: "1", day: "2026-02-01", kind: "period_start" },
        { id: "2", day: "2026-02-05", kind: "period_end" },
      ],
      [
        { day: "2026-02-02", phase: null, cycle_day: 1, predicted: null },
        { day: "2026-03-01", phase: "menstrual", cycle_day: null, predicted: null },
        { day: "2026-03-02", phase: "menstrual", cycle_day: null, predicted: null },
        { day: "2026-04-01", phase: null, cycle_day: 1, predicted: true },
        { day: "2026-05-01", phase: "something-new", cycle_day: 1, predicted: false },
      ],
    );
    expect(got).toEqual({ starts: ["2026-02-01", "2026-03-01", "2026-05-01"], ends: ["2026-02-05"] });
  });
});

describe("shift detection", () => {
  it("three-over-six finds the first high night of a planted rise and the night that confirmed it", () => {
    const { temperature } = planted([28]);
    expect(threeOverSix(temperature, 7, 27)).toEqual({ shift: 16, confirmed: 18 });
    expect(threeOverSix(temperature, 7, 17)).toBeNull();
  });

  it("no rise, no shift; a fever-sized jump is no shift either", () => {
    const flat = Array.from({ length: 28 }, (_, i) => wobble(i));
    expect(threeOverSix(flat, 7, 27)).toBeNull();
    expect(fitShift(flat, 0, 28)).toBeNull();
    const fever = flat.map((v, i) => (i >= 16 && i < 20 ? v + 1.5 : v));
    expect(threeOverSix(fever, 7, 27)).toBeNull();
  });

  it("a completed cycle's step fit finds the planted shift", () => {
    const { temperature } = planted([30]);
    expect(fitShift(temperature, 0, 30)).toBe(18);
  });
});

describe("cycles, phases and the prediction", () => {
  const lengths = [28, 30, 29, 28, 31];
  const { temperature, starts, ovulations } = planted(lengths);
  const src = source(temperature.concat(Array.from({ length: 30 }, (_, k) => wobble(k))), starts, [addDays(START, 3)]);

  it("knows nothing before the first start", () => {
    const a = analyseCycles(source(temperature, []), temperature.length - 1);
    expect(a.cycles).toEqual([]);
    expect(phaseIn(a, 10)).toBe("unknown");
  });

  it("finds each completed cycle's ovulation, its phases, and predicts from the person's own lengths", () => {
    const a = analyseCycles(src, starts.at(-1)! + 5);
    expect(a.cycles.slice(0, -1).map((c) => c.ovulation)).toEqual(ovulations);
    expect(a.lengths).toEqual(lengths);
    expect(phaseIn(a, 0)).toBe("menstrual");
    expect(phaseIn(a, 3)).toBe("menstrual");
    expect(phaseIn(a, 4)).toBe("follicular");
    expect(phaseIn(a, 20)).toBe("luteal");
    expect(a.prediction).toMatchObject({ basis: "cycle_length", center: starts.at(-1)! + 29 });
    expect(a.prediction!.to - a.prediction!.from).toBeGreaterThanOrEqual(2);
  });

  it("gives no prediction before two completed cycles", () => {
    expect(analyseCycles(src, starts[1]! + 3).prediction).toBeNull();
    expect(analyseCycles(src, starts[2]! + 3).prediction).not.toBeNull();
  });

  it("rows: a day's next period is the prediction as it stood that day; cycle day counts from the start", () => {
    const from = addDays(START, starts[3]!);
    const rows = cycleDayRows(src, from, addDays(from, 28));
    expect(rows.days[0]).toMatchObject({ day: from, cycle_day: 1, phase: "menstrual", ovulation: false });
    expect(rows.days.filter((d) => d.ovulation).map((d) => d.day)).toEqual([addDays(START, ovulations[3]!)]);
    const early = rows.days[5]!.next_period!;
    const late = rows.days[25]!.next_period!;
    expect(early.from <= addDays(START, starts[4]!) && addDays(START, starts[4]!) <= early.to).toBe(true);
    expect(late).toBeTruthy();
    expect(rows.cycles[0]).toEqual({ start: from, length: 28, ovulation: addDays(START, ovulations[3]!) });
    expect(rows.days[28]).toMatchObject({ cycle_day: 1, phase: "menstrual" });
    // known on the day before the next start, that cycle had no length yet
    expect(cycleDayRows(src, from, addDays(from, 27)).cycles[0]!.length).toBeNull();
  });

  it("a long cycle without a rise leaves the days after the period unknown", () => {
    const a = analyseCycles(src, temperature.length + 29);
    expect(phaseIn(a, temperature.length + 10)).toBe("follicular");
    expect(phaseIn(a, temperature.length + 29)).toBe("unknown");
    expect(a.maxFollicular).toBeLessThan(29);
    expect(CYCLE.defaultMaxFollicular).toBeGreaterThan(0);
  });
});

describe("the phase correction of the early warning", () => {
  // ten cycles of 28 days; the luteal nights +0.4 °C and +3 bpm
  const lengths = Array.from({ length: 10 }, () => 28);
  const { temperature, starts } = planted(lengths, 12, 0.4);
  const n = temperature.length;
  const luteal = (i: number) => i % 28 >= 16;
  const inputs = {
    temperature_deviation: temperature,
    resting_heart_rate: Array.from({ length: n }, (_, i) => 52 + (i % 3) + (luteal(i) ? 3 : 0)),
    hrv: Array.from({ length: n }, (_, i) => 50 + (i % 5)),
    breathing_rate: Array.from({ length: n }, (_, i) => 14 + (i % 4) / 10),
  };
  const src = source(temperature, starts);

  it("a person's luteal nights stop flagging, and the row says which correction it made", () => {
    const night = 28 * 8 + 20;
    const plain = computeEarlyWarning(inputs)[night]!;
    expect(plain.flags).toBeGreaterThan(0);
    const corrections = cycleCorrections(inputs, src, 0);
    const c = corrections[night]!;
    expect(c.phase).toBe("luteal");
    expect(c.shift.temperature_deviation).toBeCloseTo(0.4, 1);
    expect(c.description).toMatch(/^Luteal night: your usual luteal change \(temperature \+0\.\d\d °C, resting heart rate \+3\.0 bpm/);
    const fixed = computeEarlyWarning(inputs, corrections)[night]!;
    expect(fixed.level).toBe("none");
    // shown on the night's own level: the raw value, the baseline moved up by the shift
    const t = fixed.markers.find((m) => m.marker === "temperature_deviation")!;
    expect(t.value).toBe(temperature[night]);
    expect(t.baseline!.median).toBeGreaterThan(0.2);
  });

  it("an illness in the luteal phase and one in the follicular phase are still caught", () => {
    for (const onset of [28 * 8 + 19, 28 * 8 + 7]) {
      const ill = {
        ...inputs,
        temperature_deviation: temperature.map((v, i) => (i >= onset && i < onset + 4 ? (v ?? 0) + 0.7 : v)),
        resting_heart_rate: inputs.resting_heart_rate.map((v, i) => (i >= onset && i < onset + 4 ? v + 6 : v)),
      };
      const ew = computeEarlyWarning(ill, cycleCorrections(ill, src, 0));
      expect([ew[onset]!.level, ew[onset + 1]!.level]).toContain("likely");
    }
  });

  it("the normal range of the temperature steps up with the luteal phase instead of calling it above", () => {
    const rows = temperature.map((value, i) => ({ day: addDays(START, i), value }));
    const from = addDays(START, 28 * 8);
    const to = addDays(START, 28 * 9 - 1);
    const plain = normalRangeForChart("readiness.temperature_deviation", rows, from, to, 4);
    const aware = normalRangeForChart("readiness.temperature_deviation", rows, from, to, 4, src);
    const lateLuteal = 24;
    expect(plain.state[lateLuteal]).toBe("above");
    expect(aware.state[lateLuteal]).toBe("within");
    expect(aware.low[lateLuteal]!).toBeGreaterThan(plain.low[lateLuteal]!);
    expect(aware.state[10]).toBe("within");
  });

  it("without a period start there is no correction", () => {
    expect(cycleCorrections(inputs, source(temperature, []), 0).every((c) => c === null)).toBe(true);
  });
});
