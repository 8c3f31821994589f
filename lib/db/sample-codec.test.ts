import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { countOf, dayStartMs, decodeColumns, decodeDay, encodeDay, groupByUtcDay, mergeSamples, sampleRow, utcDayOf, type Sample } from "@/lib/db/sample-codec";
import { sampleSpecOf } from "@/lib/resources";

const HR = sampleSpecOf("heartrate");
const BATTERY = sampleSpecOf("ring_battery_level");
const DAY = "2026-03-14";
const T0 = dayStartMs(DAY);

const hrSample = fc.record({
  t: fc.integer({ min: 0, max: 86_399_999 }).map((o) => T0 + o),
  v: fc.tuple(fc.integer({ min: 20, max: 250 }), fc.constantFrom("awake", "rest", "sleep", "workout", "session", "live", "new_source_x")),
});

describe("sample codec", () => {
  it("packs a day's heart rate into 7 bytes a sample and gives every sample back", () => {
    fc.assert(
      fc.property(fc.array(hrSample, { maxLength: 400 }), (raw) => {
        const samples = mergeSamples(HR, [], raw as Sample[]);
        const blob = encodeDay(HR, DAY, samples);
        const dictionary = new Set(samples.map((s) => s.v[1])).size;
        const words = [...new Set(samples.map((s) => String(s.v[1])))].reduce((a, w) => a + 1 + Buffer.byteLength(w), 0);
        expect(blob.length).toBe(6 + 7 * samples.length + 1 + (dictionary ? words : 0));
        expect(countOf(blob)).toBe(samples.length);
        expect(decodeDay(HR, DAY, blob)).toEqual(samples);
      }),
      { numRuns: 80 },
    );
  });

  it("keeps battery flags and their absence, and the level", () => {
    const samples: Sample[] = [
      { t: T0 + 1_000, v: [23, false, false] },
      { t: T0 + 2_000, v: [24, true, true] },
      { t: T0 + 3_000, v: [25, null, true] },
      { t: T0 + 4_000, v: [null, null, null] },
    ];
    expect(decodeDay(BATTERY, DAY, encodeDay(BATTERY, DAY, samples))).toEqual(samples);
  });

  it("reads columns without building a sample object each", () => {
    const blob = encodeDay(HR, DAY, [
      { t: T0 + 14_000, v: [68, "sleep"] },
      { t: T0 + 314_500, v: [71, "awake"] },
    ]);
    const c = decodeColumns(HR, DAY, blob);
    expect([...c.t]).toEqual([T0 + 14_000, T0 + 314_500]);
    expect(c.fields).toEqual({ bpm: [68, 71], source: ["sleep", "awake"] });
  });

  it("refuses a sample that is not on the row's day, and a blob of other fields", () => {
    expect(() => encodeDay(HR, DAY, [{ t: T0 - 1, v: [60, "awake"] }])).toThrow(/not on 2026-03-14/);
    expect(() => encodeDay(HR, DAY, [{ t: T0 + 86_400_000, v: [60, "awake"] }])).toThrow();
    expect(() => decodeDay(BATTERY, DAY, encodeDay(HR, DAY, [{ t: T0, v: [60, "awake"] }]))).toThrow(/fields differ/);
  });

  it("stores out-of-range numbers and over-long texts as none (the mapper refuses them first)", () => {
    const [s] = decodeDay(HR, DAY, encodeDay(HR, DAY, [{ t: T0, v: [40_000, "x".repeat(300)] }]));
    expect(s!.v).toEqual([null, null]);
  });
});

describe("merging (de-duplication)", () => {
  it("keeps one sample per instant and source; the newer page wins; two sources at one instant stay two", () => {
    const older: Sample[] = [
      { t: T0 + 5_000, v: [60, "awake"] },
      { t: T0 + 10_000, v: [61, "awake"] },
    ];
    const newer: Sample[] = [
      { t: T0 + 10_000, v: [62, "awake"] }, // the same sample again (a window's bound), revised
      { t: T0 + 10_000, v: [90, "workout"] }, // the same instant from another source (facts Addendum)
      { t: T0 + 1_000, v: [59, "rest"] },
    ];
    expect(mergeSamples(HR, older, newer)).toEqual([
      { t: T0 + 1_000, v: [59, "rest"] },
      { t: T0 + 5_000, v: [60, "awake"] },
      { t: T0 + 10_000, v: [62, "awake"] },
      { t: T0 + 10_000, v: [90, "workout"] },
    ]);
  });

  it("is idempotent: merging a page again changes nothing", () => {
    fc.assert(
      fc.property(fc.array(hrSample, { maxLength: 200 }), fc.array(hrSample, { maxLength: 200 }), (a, b) => {
        const once = mergeSamples(HR, a as Sample[], b as Sample[]);
        expect(mergeSamples(HR, once, b as Sample[])).toEqual(once);
        expect(mergeSamples(HR, once, once)).toEqual(once);
      }),
      { numRuns: 50 },
    );
  });

  it("a series without key fields keeps one sample per instant (battery)", () => {
    expect(mergeSamples(BATTERY, [{ t: T0, v: [20, false, false] }], [{ t: T0, v: [21, true, true] }])).toEqual([{ t: T0, v: [21, true, true] }]);
  });
});

describe("days and rows", () => {
  it("groups samples by their UTC day", () => {
    const g = groupByUtcDay([
      { t: Date.parse("2026-03-13T23:59:59Z"), v: [1, "awake"] },
      { t: Date.parse("2026-03-14T00:00:00Z"), v: [2, "awake"] },
      { t: Date.parse("2026-03-14T12:00:00Z"), v: [3, "awake"] },
    ]);
    expect([...g.keys()]).toEqual(["2026-03-13", "2026-03-14"]);
    expect(g.get("2026-03-14")!.map((s) => s.v[0])).toEqual([2, 3]);
    expect(utcDayOf(Date.parse("2026-03-14T23:59:59.999Z"))).toBe("2026-03-14");
  });

  it("writes a sample as the service sends it: UTC +00:00, milliseconds only when there are any, keys in order", () => {
    expect(JSON.stringify(sampleRow(HR, { t: Date.parse("2026-03-14T00:00:14Z"), v: [68, "sleep"] }))).toBe(
      '{"bpm":68,"source":"sleep","timestamp":"2026-03-14T00:00:14+00:00","timestamp_unix":1773446414000}',
    );
    expect(sampleRow(HR, { t: Date.parse("2026-03-14T00:00:14.250Z"), v: [68, "sleep"] }).timestamp).toBe("2026-03-14T00:00:14.250+00:00");
    expect(Object.keys(sampleRow(BATTERY, { t: T0, v: [23, false, true] }))).toEqual(["charging", "in_charger", "level", "timestamp", "timestamp_unix"]);
  });
});
