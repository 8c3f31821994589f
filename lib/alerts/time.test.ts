import { describe, expect, it } from "vitest";
import { isQuietAt, lastWeeklySlot, localTime, nextWeeklySlot, quietHoursEnd, zonedInstant } from "@/lib/alerts/time";

const at = (iso: string) => Date.parse(iso);

describe("time in the person's zone", () => {
  it("reads the local day, ISO weekday and hour", () => {
    // 2026-11-23 is a Monday; 23:30 UTC is already Tuesday in Berlin, still Monday in New York
    expect(localTime(at("2026-11-23T23:30:00Z"), "Europe/Berlin")).toEqual({ day: "2026-11-24", weekday: 2, hour: 0, minute: 30 });
    expect(localTime(at("2026-11-23T23:30:00Z"), "America/New_York")).toEqual({ day: "2026-11-23", weekday: 1, hour: 18, minute: 30 });
    expect(localTime(at("2026-11-29T12:00:00Z"), "UTC").weekday).toBe(7);
  });

  it("finds the instant of a local hour, across daylight-saving changes", () => {
    expect(new Date(zonedInstant("2026-11-23", 8, "Europe/Berlin")).toISOString()).toBe("2026-11-23T07:00:00.000Z");
    expect(new Date(zonedInstant("2026-07-01", 8, "Europe/Berlin")).toISOString()).toBe("2026-07-01T06:00:00.000Z");
    // 2026-03-29: Berlin skips 02:00–03:00; 02:00 maps to the instant the clock jumps (01:00 UTC)
    expect(new Date(zonedInstant("2026-03-29", 2, "Europe/Berlin")).toISOString()).toBe("2026-03-29T01:00:00.000Z");
    expect(new Date(zonedInstant("2026-03-29", 1, "Europe/Berlin")).toISOString()).toBe("2026-03-29T00:00:00.000Z");
    expect(new Date(zonedInstant("2026-03-29", 3, "Europe/Berlin")).toISOString()).toBe("2026-03-29T01:00:00.000Z");
    // 2026-10-25: 02:00–03:00 happens twice; the first one counts
    expect(new Date(zonedInstant("2026-10-25", 2, "Europe/Berlin")).toISOString()).toBe("2026-10-25T00:00:00.000Z");
    expect(new Date(zonedInstant("2026-10-25", 3, "Europe/Berlin")).toISOString()).toBe("2026-10-25T02:00:00.000Z");
    expect(new Date(zonedInstant("2026-11-01", 9, "America/New_York")).toISOString()).toBe("2026-11-01T14:00:00.000Z");
    expect(new Date(zonedInstant("2026-11-23", 0, "Asia/Kolkata")).toISOString()).toBe("2026-11-22T18:30:00.000Z");
  });

  it("the last and next weekly slot", () => {
    // Monday 08:00 Berlin; now is Wednesday 2026-11-25 10:00 UTC
    const now = at("2026-11-25T10:00:00Z");
    expect(lastWeeklySlot(now, "Europe/Berlin", 1, 8)).toEqual({ instant: at("2026-11-23T07:00:00Z"), day: "2026-11-23" });
    expect(nextWeeklySlot(now, "Europe/Berlin", 1, 8)).toEqual({ instant: at("2026-11-30T07:00:00Z"), day: "2026-11-30" });
    // the slot itself is "last" from its first millisecond on, and "next" is a week later
    const slot = at("2026-11-23T07:00:00Z");
    expect(lastWeeklySlot(slot, "Europe/Berlin", 1, 8).instant).toBe(slot);
    expect(lastWeeklySlot(slot - 1, "Europe/Berlin", 1, 8).instant).toBe(at("2026-11-16T07:00:00Z"));
    expect(nextWeeklySlot(slot, "Europe/Berlin", 1, 8).instant).toBe(at("2026-11-30T07:00:00Z"));
    // later today
    expect(nextWeeklySlot(at("2026-11-25T06:00:00Z"), "UTC", 3, 9).instant).toBe(at("2026-11-25T09:00:00Z"));
  });
});

describe("quiet hours", () => {
  const night = { from: 22 * 60 + 30, to: 7 * 60 }; // 22:30–07:00, across midnight
  const afternoon = { from: 13 * 60, to: 14 * 60 + 15 };

  it("tells whether a moment lies in them, in the person's zone", () => {
    expect(isQuietAt(at("2026-11-23T21:29:59Z"), "Europe/Berlin", night)).toBe(false); // 22:29:59 Berlin
    expect(isQuietAt(at("2026-11-23T21:30:00Z"), "Europe/Berlin", night)).toBe(true);
    expect(isQuietAt(at("2026-11-24T05:59:00Z"), "Europe/Berlin", night)).toBe(true);
    expect(isQuietAt(at("2026-11-24T06:00:00Z"), "Europe/Berlin", night)).toBe(false); // 07:00 Berlin: over
    expect(isQuietAt(at("2026-11-23T13:10:00Z"), "UTC", afternoon)).toBe(true);
    expect(isQuietAt(at("2026-11-23T14:15:00Z"), "UTC", afternoon)).toBe(false);
    expect(isQuietAt(at("2026-11-23T23:00:00Z"), "UTC", null)).toBe(false);
  });

  it("ends at their end: the same night's morning, before or after midnight, at a minute's precision", () => {
    expect(quietHoursEnd(at("2026-11-23T21:45:00Z"), "Europe/Berlin", night)).toBe(at("2026-11-24T06:00:00Z"));
    expect(quietHoursEnd(at("2026-11-24T02:00:00Z"), "Europe/Berlin", night)).toBe(at("2026-11-24T06:00:00Z"));
    expect(quietHoursEnd(at("2026-11-23T13:00:00Z"), "UTC", afternoon)).toBe(at("2026-11-23T14:15:00Z"));
    // outside them (or without any): now
    expect(quietHoursEnd(at("2026-11-23T12:00:00Z"), "Europe/Berlin", night)).toBe(at("2026-11-23T12:00:00Z"));
    expect(quietHoursEnd(at("2026-11-23T12:00:00Z"), "UTC", null)).toBe(at("2026-11-23T12:00:00Z"));
    // far east and far west of Greenwich
    expect(quietHoursEnd(at("2026-11-23T10:00:00Z"), "Pacific/Kiritimati", night)).toBe(at("2026-11-23T17:00:00Z")); // 00:00 → 07:00 on the 24th, +14
    expect(quietHoursEnd(at("2026-11-24T10:00:00Z"), "Pacific/Pago_Pago", night)).toBe(at("2026-11-24T18:00:00Z")); // 23:00 on the 23rd, −11
  });
});
