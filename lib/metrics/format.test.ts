import { describe, expect, it } from "vitest";
import { getMetric } from "@/lib/metrics/catalog";
import { deltaTone, displayScale, formatDelta, formatDuration, formatPct, formatValue } from "@/lib/metrics/format";

const m = getMetric;

describe("formatting", () => {
  it("writes durations in hours and minutes", () => {
    expect(formatDuration(26_100)).toBe("7 h 15 min");
    expect(formatDuration(2_700)).toBe("45 min");
    expect(formatDuration(-3_660)).toBe("−1 h 01 min");
  });

  it("formats values with their units", () => {
    expect(formatValue(m("activity.steps"), 12_345)).toBe("12,345 steps");
    expect(formatValue(m("sleep.score"), 82)).toBe("82");
    expect(formatValue(m("spo2.spo2_average"), 97.46)).toBe("97.5%");
    expect(formatValue(m("night.lowest_heart_rate"), 48)).toBe("48 bpm");
    expect(formatValue(m("night.total_sleep_duration"), 27_000)).toBe("7 h 30 min");
    expect(formatValue(m("sleep.score"), null)).toBe("—");
  });

  it("converts distance and temperature deviations for imperial units", () => {
    expect(formatValue(m("activity.equivalent_walking_distance"), 16_093.44, "imperial")).toBe("10.0 mi");
    expect(formatValue(m("activity.equivalent_walking_distance"), 8_500, "metric")).toBe("8.50 km");
    // a deviation converts by 1.8 without the +32 offset
    expect(formatValue(m("readiness.temperature_deviation"), 0.5, "imperial")).toBe("+0.90 °F");
    expect(formatValue(m("readiness.temperature_deviation"), -0.21)).toBe("−0.21 °C");
    expect(displayScale(m("night.total_sleep_duration"), "metric")).toMatchObject({ unit: "h", factor: 1 / 3600 });
  });

  it("formats changes and their tone from the metric's direction", () => {
    expect(formatDelta(m("sleep.score"), 3.4)).toBe("+3");
    expect(formatDelta(m("sleep.score"), -0.3)).toBe("±0");
    expect(formatDelta(m("stress.stress_high"), -1_800)).toBe("−30 min");
    expect(deltaTone(m("sleep.score"), 3)).toBe("good");
    expect(deltaTone(m("night.lowest_heart_rate"), 3)).toBe("bad");
    expect(deltaTone(m("readiness.temperature_deviation"), 0.4)).toBe("neutral");
    expect(formatPct(0.0423)).toBe("+4.2%");
    expect(formatPct(-0.25)).toBe("−25%");
  });
});
