// The cycle's accuracy targets on the pure functions, on a small planted set of people (the
// bench's own generator, e2e/bench/cycle-people.ts): not timed; the bench measures the same
// through the app (npm run bench:cycle).
import { describe, expect, it } from "vitest";
import { addDays, diffDays } from "@/lib/days";
import { computeEarlyWarning } from "@/lib/signals/early-warning";
import { cycleCorrections } from "@/lib/signals/cycle-adjust";
import { cycleDayRows } from "@/lib/signals/cycle-days";
import { makePeople, type SyntheticPerson } from "../../e2e/bench/cycle-people";
import { cycleBlock, scoreAlarms, scoreDetection, type AlarmScore, type DetectionScore } from "../../e2e/bench/cycle-score";

function score(people: readonly SyntheticPerson[]) {
  const before = new Map<string, AlarmScore>();
  const after = new Map<string, AlarmScore>();
  const detection = new Map<string, DetectionScore>();
  for (const p of people) {
    const inputs = { temperature_deviation: p.temperature, resting_heart_rate: p.restingHeartRate, hrv: p.hrv, breathing_rate: p.breathingRate };
    const plain = scoreAlarms(
      p,
      computeEarlyWarning(inputs).map((n) => n.level),
    );
    before.set(p.key, plain);
    if (p.sex === "man") {
      after.set(p.key, plain);
      continue;
    }
    const src = {
      start: p.first,
      temperature: p.temperature,
      heartRate: p.restingHeartRate,
      periodStarts: p.periodStarts.map((i) => addDays(p.first, i)),
      periodEnds: [],
    };
    after.set(
      p.key,
      scoreAlarms(
        p,
        computeEarlyWarning(inputs, cycleCorrections(inputs, src, 0)).map((n) => n.level),
      ),
    );
    const rows = cycleDayRows(src, p.first, addDays(p.first, p.days - 1)).days;
    const detected = new Set(rows.flatMap((d, i) => (d.ovulation ? [i] : [])));
    const windows = rows.map((d) => d.next_period && { from: diffDays(p.first, d.next_period.from), to: diffDays(p.first, d.next_period.to) });
    detection.set(p.key, scoreDetection(p, detected, windows));
  }
  return { before: cycleBlock(people, before, detection), after: cycleBlock(people, after, detection) };
}

describe("cycle accuracy on planted people (12 women, 12 men, 560 nights each)", () => {
  const { before, after } = score(makePeople({ seed: "ringside-cycle-accuracy", women: 12, men: 12, days: 560, first: "2025-01-01" }));

  it("before the correction, the cycle alone gives women many more false alarms than men", () => {
    expect(before.false_watch_per_year.women).toBeGreaterThan(1.5 * before.false_watch_per_year.men);
  });

  it("with tracking on: women's false watch ≤ 1.5 × men's, false likely ≤ 1 a year, recall ≥ 95 % for both", () => {
    expect(after.false_watch_per_year.women).toBeLessThanOrEqual(1.5 * after.false_watch_per_year.men);
    expect(after.false_likely_per_year.women).toBeLessThanOrEqual(1);
    expect(after.recall.women).toBeGreaterThanOrEqual(0.95);
    expect(after.recall.men).toBeGreaterThanOrEqual(0.95);
  });

  it("ovulations found within ±2 days ≥ 80 %; period starts after the third predicted within ±3 days ≥ 75 %", () => {
    expect(after.ovulation_within_2d).toBeGreaterThanOrEqual(0.8);
    expect(after.period_start_within_3d).toBeGreaterThanOrEqual(0.75);
  });
});
