import { describe, expect, it } from "vitest";
import type { SignalsResponse } from "@/lib/api/contract";
import type { EarlyWarningSignal } from "@/lib/signals/signal-days";
import { summarizeSignals } from "@/lib/mcp/signals-summary";

const marker = (
  m: Partial<EarlyWarningSignal["markers"][number]> & Pick<EarlyWarningSignal["markers"][number], "marker">,
): EarlyWarningSignal["markers"][number] => ({
  delta: 0,
  threshold: null,
  flagged: false,
  mean3: null,
  rule: null,
  ...m,
});

describe("get_signals' summary", () => {
  it("says for each flagged marker the rule that fired, its value and threshold", () => {
    const ew: EarlyWarningSignal = {
      kind: "early_warning",
      level: "likely",
      status: "ok",
      muted: false,
      flags: 2,
      heartRateTwoNights: true,
      inputs: { temperature_deviation: 0.01, resting_heart_rate: 60, hrv: 40, breathing_rate: 14 },
      baseline: { temperature_deviation: null, resting_heart_rate: null, hrv: null, breathing_rate: null },
      markers: [
        marker({
          marker: "temperature_deviation",
          delta: 0.01,
          threshold: 0.5,
          flagged: true,
          mean3: 0.37,
          rule: { name: "mean3", value: 0.37, threshold: 0.3 },
        }),
        marker({ marker: "resting_heart_rate", delta: 4.5, threshold: 4, flagged: true, rule: { name: "two_nights", value: 4.5, threshold: 4, previous: 5 } }),
        marker({ marker: "hrv", delta: -0.05, threshold: -0.18 }),
        marker({ marker: "breathing_rate" }),
      ],
      cycle_adjusted: false,
    };
    const s: SignalsResponse = {
      from: "2026-03-15",
      to: "2026-03-15",
      kinds: ["early_warning"],
      settings: { sleepNeedMinutes: null, freeDays: [6, 7] },
      days: [{ day: "2026-03-15", signals: [ew] }],
    };
    expect(summarizeSignals(s).rows[0]).toMatchObject({
      early_warning: "likely",
      flagged: ["temperature_deviation", "resting_heart_rate"],
      why: [
        "Temperature: the mean of the last 3 nights +0.37 °C, at least +0.30 °C above baseline",
        "Resting heart rate: two nights in a row at least +4.0 bpm above baseline: +4.5 bpm tonight, +5.0 bpm the night before",
      ],
    });
  });
});
