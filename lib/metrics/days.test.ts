import { describe, expect, it } from "vitest";
import { addDays, dayRange, dayToIndex, diffDays, formatDay, indexToDay, isDay, weekdayMon0 } from "@/lib/metrics/days";

describe("day arithmetic", () => {
  it("round-trips days through indices without time zones", () => {
    expect(dayToIndex("1970-01-01")).toBe(0);
    expect(indexToDay(dayToIndex("2024-02-29"))).toBe("2024-02-29");
    expect(addDays("2024-02-28", 1)).toBe("2024-02-29");
    expect(addDays("2023-02-28", 1)).toBe("2023-03-01");
    expect(addDays("2024-03-31", -31)).toBe("2024-02-29");
    expect(diffDays("2023-01-01", "2024-01-01")).toBe(365);
    expect(dayRange("2024-12-30", "2025-01-02")).toEqual(["2024-12-30", "2024-12-31", "2025-01-01", "2025-01-02"]);
    expect(dayRange("2024-01-02", "2024-01-01")).toEqual([]);
  });

  it("validates day strings", () => {
    expect(isDay("2024-02-29")).toBe(true);
    expect(isDay("2023-02-29")).toBe(false);
    expect(isDay("2024-2-01")).toBe(false);
    expect(isDay(20240201)).toBe(false);
  });

  it("knows weekdays and formats days", () => {
    expect(weekdayMon0("2024-03-04")).toBe(0); // a Monday
    expect(weekdayMon0("2024-03-10")).toBe(6);
    expect(formatDay("2024-03-04")).toBe("Mon 4 Mar");
    expect(formatDay("2024-03-04", { withYear: true, withWeekday: false })).toBe("4 Mar 2024");
  });
});
