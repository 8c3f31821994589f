import { describe, expect, it } from "vitest";
import { computeTrainingLoad, dailyLoad, zoneOf } from "@/lib/signals/training-load";

describe("daily load (MET-minutes)", () => {
  it("the ring's medium + high activity, or the workouts' estimate when it is larger", () => {
    expect(dailyLoad({ activity: { medium: 200, high: 100 }, workouts: [{ seconds: 1800, intensity: "hard" }] })).toEqual({
      load: 300,
      activity: 300,
      workouts: 240,
    });
    // a workout added by hand on a day without an activity document: 60 min × 5 (moderate)
    expect(dailyLoad({ activity: null, workouts: [{ seconds: 3600, intensity: "moderate" }] })).toEqual({ load: 300, activity: null, workouts: 300 });
    // 45 min easy (× 3.5) beats 50 MET-minutes of activity; an unknown intensity counts as moderate
    expect(dailyLoad({ activity: { medium: 50, high: null }, workouts: [{ seconds: 2700, intensity: "easy" }] })?.load).toBe(157.5);
    expect(dailyLoad({ activity: null, workouts: [{ seconds: 600, intensity: "brutal" }] })?.load).toBe(50);
    // no activity document and no workout: no load (the ring not worn), never 0
    expect(dailyLoad({ activity: null, workouts: [] })).toBeNull();
    expect(dailyLoad({ activity: { medium: 0, high: 0 }, workouts: [] })).toEqual({ load: 0, activity: 0, workouts: null });
  });
});

describe("acute:chronic ratio (EWMA, Williams et al. 2017)", () => {
  it("hand-computed: 28 steady days, a hard day, a day without the ring, a rest day", () => {
    const loads = [...Array.from({ length: 28 }, () => 100), 300, null, 0];
    const out = computeTrainingLoad(loads);
    expect(out[26]!.ratio).toBeNull(); // 27 days with data: too early
    expect(out[27]).toMatchObject({ acute: 100, chronic: 100, ratio: 1, zone: "within", daysWithData: 28 });
    // day 29: acute = ¼·300 + ¾·100 = 150; chronic = (2·300 + 27·100)/29 = 3300/29
    expect(out[28]!.acute).toBeCloseTo(150, 10);
    expect(out[28]!.chronic).toBeCloseTo(3300 / 29, 10);
    expect(out[28]!.ratio).toBeCloseTo(150 / (3300 / 29), 10); // 1.3182
    expect(out[28]!.zone).toBe("above");
    // day 30 (no ring): both averages keep their value
    expect(out[29]).toMatchObject({ load: null, acute: out[28]!.acute, chronic: out[28]!.chronic, daysWithData: 29 });
    // day 31 (rest, load 0): acute = ¾·150 = 112.5; chronic = (27/29)·3300/29
    expect(out[30]!.acute).toBeCloseTo(112.5, 10);
    expect(out[30]!.chronic).toBeCloseTo((27 * 3300) / (29 * 29), 10);
    expect(out[30]!.ratio).toBeCloseTo(112.5 / ((27 * 3300) / 841), 10); // 1.0619
  });

  it("a gap in the first four weeks delays the ratio until 28 days have data", () => {
    const loads = Array.from({ length: 29 }, (_, i) => (i === 9 ? null : 100));
    const out = computeTrainingLoad(loads);
    expect(out[27]).toMatchObject({ ratio: null, daysWithData: 27 });
    expect(out[28]).toMatchObject({ ratio: 1, daysWithData: 28 });
  });

  it("ranges shown as description: below 0.8, 0.8–1.3, 1.3–1.5, above 1.5", () => {
    expect([0.79, 0.8, 1.3, 1.31, 1.5, 1.51].map(zoneOf)).toEqual(["below", "within", "within", "above", "above", "well_above"]);
  });
});
