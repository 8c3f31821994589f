import { describe, expect, it } from "vitest";
import { MISSING_REASON_TEXT, MISSING_REASONS, missingReason, type NightFacts } from "@/lib/metrics/missing-night";

/** A night long past, downloaded, with nothing in it. */
const night = (f: Partial<NightFacts> = {}): NightFacts => ({
  hasMainSleep: false,
  downloaded: true,
  restMode: false,
  battery: { readings: 0, inCharger: 0 },
  heartRateSamples: 0,
  daysAgo: 10,
  ...f,
});

describe("why a night is missing", () => {
  it("a day with a main sleep has no reason", () => {
    expect(missingReason(night({ hasMainSleep: true, restMode: true, downloaded: false }))).toBeNull();
  });

  it("each reason from its fact", () => {
    expect(missingReason(night({ downloaded: false }))).toBe("not_synced");
    expect(missingReason(night({ restMode: true, heartRateSamples: 90 }))).toBe("rest_mode");
    expect(missingReason(night({ battery: { readings: 96, inCharger: 96 } }))).toBe("charger");
    expect(missingReason(night({ heartRateSamples: 96, battery: { readings: 16, inCharger: 0 } }))).toBe("worn_no_sleep");
    expect(missingReason(night({ daysAgo: 1 }))).toBe("not_recorded_yet");
    expect(missingReason(night({ daysAgo: 0, heartRateSamples: 40 }))).toBe("not_recorded_yet");
    expect(missingReason(night({ battery: { readings: 16, inCharger: 2 }, heartRateSamples: 3 }))).toBe("not_worn");
  });

  it("the first fact in the order wins: not downloaded, rest mode, the charger, recent, heart rate", () => {
    const all = night({ restMode: true, battery: { readings: 10, inCharger: 10 }, heartRateSamples: 50, daysAgo: 0 });
    expect(missingReason({ ...all, downloaded: false })).toBe("not_synced");
    expect(missingReason(all)).toBe("rest_mode");
    expect(missingReason({ ...all, restMode: false })).toBe("charger");
    expect(missingReason({ ...all, restMode: false, battery: { readings: 10, inCharger: 0 } })).toBe("not_recorded_yet");
    expect(missingReason({ ...all, restMode: false, battery: { readings: 10, inCharger: 0 }, daysAgo: 2 })).toBe("worn_no_sleep");
  });

  it("the charger needs at least two readings, at least half of them in it; heart rate at least half an hour of samples", () => {
    expect(missingReason(night({ battery: { readings: 1, inCharger: 1 } }))).toBe("not_worn");
    expect(missingReason(night({ battery: { readings: 10, inCharger: 5 } }))).toBe("charger");
    expect(missingReason(night({ battery: { readings: 10, inCharger: 4 } }))).toBe("not_worn");
    expect(missingReason(night({ heartRateSamples: 5 }))).toBe("not_worn");
    expect(missingReason(night({ heartRateSamples: 6 }))).toBe("worn_no_sleep");
  });

  it("every reason has its words", () => {
    expect(Object.keys(MISSING_REASON_TEXT).sort()).toEqual([...MISSING_REASONS].sort());
    expect(MISSING_REASON_TEXT.charger).toBe("on the charger");
    expect(MISSING_REASON_TEXT.worn_no_sleep).toBe("worn, but no sleep recorded by the ring");
  });
});
