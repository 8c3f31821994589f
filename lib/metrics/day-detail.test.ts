import { describe, expect, it } from "vitest";
import { activityClassSegments, formatClock, localMinutes, minutesFrom, parseSample, samplePoints, sleepPhaseSegments } from "@/lib/metrics/day-detail";

describe("local clock times", () => {
  it("reads the clock written in the document, whatever its offset", () => {
    expect(localMinutes("2024-10-10T01:01:59.000+02:00")).toBeCloseTo(61 + 59 / 60, 10);
    expect(localMinutes("2024-10-09T23:30:00-05:00")).toBe(1410);
    expect(localMinutes("2024-10-09")).toBeNull();
  });

  it("runs a night's clock on past midnight", () => {
    expect(minutesFrom("2024-10-09", "2024-10-09T22:00:00+02:00")).toBe(1320);
    expect(minutesFrom("2024-10-09", "2024-10-10T06:30:00+02:00")).toBe(1830);
    expect(formatClock(1830)).toBe("06:30");
    expect(formatClock(1320)).toBe("22:00");
  });
});

describe("samples", () => {
  it("parses a PublicSample and keeps null items as gaps", () => {
    const s = parseSample({ interval: 300, items: [52, null, 50.5, "x"], timestamp: "2024-10-09T23:00:00+02:00" })!;
    expect(s.items).toEqual([52, null, 50.5, null]);
    expect(samplePoints(s, "2024-10-09")).toEqual([
      { t: 1380, value: 52 },
      { t: 1385, value: null },
      { t: 1390, value: 50.5 },
      { t: 1395, value: null },
    ]);
    expect(parseSample({ interval: 0, items: [], timestamp: "x" })).toBeNull();
    expect(parseSample(null)).toBeNull();
  });
});

describe("hypnogram", () => {
  it("merges 5-minute phases into segments and sums minutes", () => {
    const r = sleepPhaseSegments("4221133", "2024-10-09T23:50:00+02:00", "2024-10-09");
    expect(r.segments).toEqual([
      { kind: "awake", start: 1430, end: 1435 },
      { kind: "light", start: 1435, end: 1445 },
      { kind: "deep", start: 1445, end: 1455 },
      { kind: "rem", start: 1455, end: 1465 },
    ]);
    expect(r.minutes).toEqual({ awake: 5, light: 10, deep: 10, rem: 10 });
  });
});

describe("activity timeline", () => {
  it("maps class_5_min digits to classes from the day's 04:00 start", () => {
    const r = activityClassSegments("0011225", "2024-10-10T04:00:00+02:00", "2024-10-10");
    expect(r.segments.map((s) => [s.kind, s.start, s.end])).toEqual([
      ["non_wear", 240, 250],
      ["rest", 250, 260],
      ["inactive", 260, 270],
      ["high", 270, 275],
    ]);
    expect(r.minutes.high).toBe(5);
  });
});
