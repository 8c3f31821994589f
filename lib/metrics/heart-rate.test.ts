import { describe, expect, it } from "vitest";
import { localDayAggregates, localDayCurve, offsetOfIso, offsetResolver, stretchCurve, utcDaysFor, type SeriesDay } from "@/lib/metrics/heart-rate";

const at = (iso: string) => Date.parse(iso);

function day(d: string, samples: Array<[string, number, string]>): SeriesDay {
  return {
    day: d,
    columns: { t: Float64Array.from(samples.map((s) => at(s[0]))), fields: { bpm: samples.map((s) => s[1]), source: samples.map((s) => s[2]) } },
  };
}

// a person at UTC+02:00: local 2026-03-14 runs from 03-13T22:00Z to 03-14T22:00Z
const DAYS = [
  day("2026-03-13", [
    ["2026-03-13T21:00:00Z", 99, "awake"], // local 03-13 23:00
    ["2026-03-13T23:00:00Z", 55, "sleep"], // local 03-14 01:00
  ]),
  day("2026-03-14", [
    ["2026-03-14T06:00:00Z", 70, "awake"],
    ["2026-03-14T07:00:00Z", 150, "workout"],
    ["2026-03-14T08:00:00Z", 80, "awake"],
    ["2026-03-14T21:30:00Z", 60, "awake"], // local 23:30, still 03-14
    ["2026-03-14T22:30:00Z", 50, "awake"], // local 03-15 00:30
  ]),
];

describe("offsets", () => {
  it("reads the offset written in a local timestamp", () => {
    expect(offsetOfIso("2026-03-14T04:00:00+02:00")).toBe(120);
    expect(offsetOfIso("2026-03-14T04:00:00-05:30")).toBe(-330);
    expect(offsetOfIso("2026-03-14T04:00:00.000Z")).toBe(0);
    expect(offsetOfIso("2026-03-14")).toBeNull();
    expect(offsetOfIso(null)).toBeNull();
  });

  it("takes a day's own offset, else the nearest earlier, else the nearest later, else UTC", () => {
    const of = offsetResolver(
      new Map([
        ["2026-03-10", 60],
        ["2026-03-20", 120],
      ]),
    );
    expect(of("2026-03-10")).toBe(60);
    expect(of("2026-03-15")).toBe(60);
    expect(of("2026-03-01")).toBe(60);
    expect(of("2026-03-25")).toBe(120);
    expect(offsetResolver(new Map())("2026-03-15")).toBe(0);
  });
});

describe("curves", () => {
  it("gives a local day's samples on its clock (minutes from local midnight), in time order", () => {
    const curve = localDayCurve(DAYS, "2026-03-14", 120);
    expect(curve.map((p) => [p.t, p.bpm, p.source])).toEqual([
      [60, 55, "sleep"],
      [480, 70, "awake"],
      [540, 150, "workout"],
      [600, 80, "awake"],
      [1410, 60, "awake"],
    ]);
  });

  it("gives a stretch's samples (a workout) between two instants", () => {
    expect(stretchCurve(DAYS, at("2026-03-14T06:30:00Z"), at("2026-03-14T08:00:00Z")).map((p) => p.bpm)).toEqual([150]);
  });

  it("reads the UTC days around a range of local days", () => {
    expect(utcDaysFor("2026-03-14", "2026-03-20")).toEqual({ from: "2026-03-13", to: "2026-03-21" });
  });
});

describe("daytime heart rate per local day", () => {
  it("averages and minimises only the awake samples, on the person's local day", () => {
    const opts = { days: DAYS, offsetOf: () => 120, from: "2026-03-13", to: "2026-03-15", field: "bpm", only: { field: "source", values: ["awake"] } } as const;
    expect(localDayAggregates({ ...opts, aggregate: "mean" })).toEqual([
      { day: "2026-03-13", value: 99 },
      { day: "2026-03-14", value: 70 },
      { day: "2026-03-15", value: 50 },
    ]);
    expect(localDayAggregates({ ...opts, aggregate: "min" })).toEqual([
      { day: "2026-03-13", value: 99 },
      { day: "2026-03-14", value: 60 },
      { day: "2026-03-15", value: 50 },
    ]);
    // a day without awake samples is a gap, not a zero; days outside the range are left out
    expect(localDayAggregates({ ...opts, from: "2026-03-14", to: "2026-03-14", aggregate: "mean", only: { field: "source", values: ["session"] } })).toEqual(
      [],
    );
  });
});
