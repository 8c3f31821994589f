import { describe, expect, it } from "vitest";
import { parseDateBound, wallClock } from "./date-params";

describe("parseDateBound", () => {
  it("reads a date as local midnight (as an instant: UTC midnight)", () => {
    expect(parseDateBound("2024-11-11")).toEqual({ wall: "2024-11-11T00:00:00", dateOnly: true, instant: Date.parse("2024-11-11T00:00:00Z") });
  });

  it("gives the instant of a date-time: its own offset, UTC when it has none", () => {
    expect(parseDateBound("2024-11-11T23:59:59+02:00")?.instant).toBe(Date.parse("2024-11-11T21:59:59Z"));
    expect(parseDateBound("2024-11-11T23:59:59")?.instant).toBe(Date.parse("2024-11-11T23:59:59Z"));
    expect(parseDateBound("2024-11-11T04:00:00.123Z")?.instant).toBe(Date.parse("2024-11-11T04:00:00.123Z"));
    expect(parseDateBound("2024-11-11T04:00-0530")?.instant).toBe(Date.parse("2024-11-11T09:30:00Z"));
    expect(parseDateBound("2024-11-11T04:00:00+01")?.instant).toBe(Date.parse("2024-11-11T03:00:00Z"));
    expect(parseDateBound("1700000000")?.instant).toBe(1_700_000_000_000);
  });

  it("reads date-times on their wall clock, with or without offset or fraction", () => {
    expect(parseDateBound("2024-11-11T23:59:59")?.wall).toBe("2024-11-11T23:59:59");
    expect(parseDateBound("2024-11-11T23:59:59+02:00")?.wall).toBe("2024-11-11T23:59:59");
    expect(parseDateBound("2024-11-11T04:00:00.123Z")?.wall).toBe("2024-11-11T04:00:00");
    expect(parseDateBound("2024-11-11T04:00")?.wall).toBe("2024-11-11T04:00:00");
    expect(parseDateBound("2024-11-11 04:00:00")?.dateOnly).toBe(false);
  });

  it("is lenient like the real parser: Unix seconds and old years", () => {
    expect(parseDateBound("1")?.wall).toBe("1970-01-01T00:00:01");
    expect(parseDateBound("1700000000000")?.wall).toBe("2023-11-14T22:13:20"); // milliseconds
    expect(parseDateBound("0024-11-11")?.wall).toBe("0024-11-11T00:00:00");
  });

  it.each(["", "yesterday", "2024-13-01", "2024-02-30", "2024-11-11T25:00:00", "11/11/2024", "2024-11-11T10:00:00+0x:00"])("rejects %j", (v) =>
    expect(parseDateBound(v)).toBeNull(),
  );
});

describe("wallClock", () => {
  it("extracts a document's local wall clock", () => {
    expect(wallClock("2024-11-11T04:00:00+01:00")).toBe("2024-11-11T04:00:00");
    expect(wallClock("2024-10-10T01:01:59.000+02:00")).toBe("2024-10-10T01:01:59");
  });
});
