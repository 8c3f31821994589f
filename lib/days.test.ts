import { describe, expect, it } from "vitest";
import {
  addDays,
  dayRange,
  dayToIndex,
  diffDays,
  formatDay,
  formatMonth,
  indexToDay,
  isDay,
  isDayInWindow,
  maxDay,
  minDay,
  todayIn,
  utcDay,
  weekdayMon0,
} from "@/lib/days";

/** The same day computed by the machine's Date in UTC: the reference the integer arithmetic must match. */
function dateDay(index: number): string {
  const d = new Date(0);
  d.setUTCFullYear(1970, 0, 1 + index);
  return `${String(d.getUTCFullYear()).padStart(4, "0")}-${String(d.getUTCMonth() + 1).padStart(2, "0")}-${String(d.getUTCDate()).padStart(2, "0")}`;
}

describe("day arithmetic", () => {
  it("round-trips days through indices without time zones", () => {
    expect(dayToIndex("1970-01-01")).toBe(0);
    expect(dayToIndex("1969-12-31")).toBe(-1);
    expect(indexToDay(dayToIndex("2024-02-29"))).toBe("2024-02-29");
    expect(addDays("2024-02-28", 1)).toBe("2024-02-29");
    expect(addDays("2023-02-28", 1)).toBe("2023-03-01");
    expect(addDays("2024-03-31", -31)).toBe("2024-02-29");
    expect(addDays("2024-12-31", 1)).toBe("2025-01-01");
    expect(addDays("2025-01-01", -1)).toBe("2024-12-31");
    expect(addDays("2024-11-14", -13)).toBe("2024-11-01");
    expect(addDays("2020-01-01", 1827)).toBe("2025-01-01");
    expect(diffDays("2023-01-01", "2024-01-01")).toBe(365);
    expect(diffDays("2024-01-01", "2023-01-01")).toBe(-365);
    expect(dayRange("2024-12-30", "2025-01-02")).toEqual(["2024-12-30", "2024-12-31", "2025-01-01", "2025-01-02"]);
    expect(dayRange("2024-01-02", "2024-01-01")).toEqual([]);
  });

  it("keeps month ends and leap days: 1900 and 2100 have no 29 February, 2000 has", () => {
    expect(addDays("1900-02-28", 1)).toBe("1900-03-01");
    expect(addDays("2000-02-28", 1)).toBe("2000-02-29");
    expect(addDays("2100-02-28", 1)).toBe("2100-03-01");
    expect(addDays("2024-01-31", 1)).toBe("2024-02-01");
    expect(addDays("2024-04-30", 1)).toBe("2024-05-01");
    expect(diffDays("2024-02-01", "2024-03-01")).toBe(29);
    expect(diffDays("2023-02-01", "2023-03-01")).toBe(28);
  });

  it("matches the calendar of Date in UTC on every day of 1900–2100 and across years 0000–9999", () => {
    for (let i = dayToIndex("1900-01-01"); i <= dayToIndex("2100-12-31"); i++) {
      const day = dateDay(i);
      if (indexToDay(i) !== day || dayToIndex(day) !== i) expect({ i, day: indexToDay(i) }).toEqual({ i, day });
    }
    for (let i = dayToIndex("0000-01-01"); i <= dayToIndex("9999-12-31"); i += 97) {
      const day = dateDay(i);
      if (indexToDay(i) !== day || dayToIndex(day) !== i) expect({ i, day: indexToDay(i) }).toEqual({ i, day });
    }
    expect(indexToDay(dayToIndex("0024-11-11"))).toBe("0024-11-11");
    expect(addDays("0024-11-11", 0)).toBe("0024-11-11");
  });

  it("reads only real YYYY-MM-DD dates, and counts whole days", () => {
    for (const bad of ["2024-02-30", "2023-02-29", "2024-13-01", "2024-00-10", "2024-01-00", "2024-1-01", "2024-01-01T00:00:00Z", "yesterday", ""]) {
      expect(isDay(bad)).toBe(false);
      expect(() => dayToIndex(bad)).toThrow(RangeError);
      expect(() => addDays(bad, 1)).toThrow(RangeError);
    }
    expect(isDay("2024-02-29")).toBe(true);
    expect(isDay("0000-01-01")).toBe(true);
    expect(isDay(20240201)).toBe(false);
    expect(() => addDays("2024-01-01", 0.5)).toThrow(RangeError);
    expect(() => indexToDay(Number.NaN)).toThrow(RangeError);
    expect(() => indexToDay(dayToIndex("9999-12-31") + 1)).toThrow(RangeError);
    expect(isDayInWindow("2000-01-01")).toBe(true);
    expect(isDayInWindow("1999-12-31")).toBe(false);
    expect(isDayInWindow("2100-01-01")).toBe(false);
  });

  it("gives an instant's UTC day, the same in any time zone of the machine", () => {
    const at = Date.UTC(2024, 2, 31, 23, 59, 59, 999); // the night the clocks change in Europe
    expect(utcDay(at)).toBe("2024-03-31");
    expect(utcDay(at + 1)).toBe("2024-04-01");
    expect(utcDay(-1)).toBe("1969-12-31");
    expect(indexToDay(-0.5)).toBe("1969-12-31");
    expect(todayIn("Pacific/Kiritimati", new Date(at))).toBe("2024-04-01");
    expect(todayIn("Pacific/Pago_Pago", new Date(at))).toBe("2024-03-31");
  });

  it("orders days", () => {
    expect(minDay("2024-03-01", "2024-02-29")).toBe("2024-02-29");
    expect(maxDay("2024-03-01", "2024-02-29")).toBe("2024-03-01");
  });

  it("knows weekdays and formats days", () => {
    expect(weekdayMon0("2024-03-04")).toBe(0); // a Monday
    expect(weekdayMon0("2024-03-10")).toBe(6);
    expect(weekdayMon0("1970-01-01")).toBe(3); // a Thursday
    expect(weekdayMon0("1969-12-29")).toBe(0);
    expect(formatDay("2024-03-04")).toBe("Mon 4 Mar");
    expect(formatDay("2024-03-04", { withYear: true, withWeekday: false })).toBe("4 Mar 2024");
    expect(formatMonth("2024-03-04", true)).toBe("Mar 2024");
  });
});
