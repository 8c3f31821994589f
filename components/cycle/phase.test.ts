// The cycle's shading, pure: runs of shaded days (period and luteal; follicular and unknown are
// left clear), and the pages' request cap held to the route's.
import { describe, expect, it } from "vitest";
import { CYCLE_FETCH_MAX_DAYS, phaseRuns } from "@/components/cycle/phase";
import { CYCLE_MAX_DAYS } from "@/lib/schemas/cycle-query";

describe("phaseRuns", () => {
  it("joins neighbouring days of one shaded phase; a gap, another phase or an unshaded day ends a run", () => {
    expect(phaseRuns(["menstrual", "menstrual", "follicular", "follicular", "luteal", "luteal", null, "luteal", "menstrual", "unknown"])).toEqual([
      { start: 0, end: 1, phase: "menstrual" },
      { start: 4, end: 5, phase: "luteal" },
      { start: 7, end: 7, phase: "luteal" },
      { start: 8, end: 8, phase: "menstrual" },
    ]);
    expect(phaseRuns([])).toEqual([]);
    expect(phaseRuns([undefined, "unknown", "follicular"])).toEqual([]);
  });

  it("the pages ask for at most the route's days", () => {
    expect(CYCLE_FETCH_MAX_DAYS).toBe(CYCLE_MAX_DAYS);
  });
});
