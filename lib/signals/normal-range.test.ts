import { describe, expect, it } from "vitest";
import { computeNormalRange, NORMAL_RANGE, sliceNormalRange, toScale } from "@/lib/signals/normal-range";

describe("personal normal range (60-night band, mean ± 0.5 SD, against the 7-day mean)", () => {
  it("no band before 21 nights of history; then mean ± 0.5 sd of the nights before the day", () => {
    const values = Array.from({ length: 30 }, (_, i) => (i % 2 ? 52 : 50));
    const r = computeNormalRange(values, "none");
    expect(r.low[20]).toBeNull(); // 20 nights before it
    expect(r.state[20]).toBeNull();
    // day 21: nights 0 … 20 = 11 × 50 and 10 × 52 → mean 50.952…, sd √(Σ(x−m)²/20)
    const m = (11 * 50 + 10 * 52) / 21;
    const sd = Math.sqrt((11 * (50 - m) ** 2 + 10 * (52 - m) ** 2) / 20);
    expect(r.low[21]).toBeCloseTo(m - 0.5 * sd, 10);
    expect(r.high[21]).toBeCloseTo(m + 0.5 * sd, 10);
    // the 7-day mean of day 21 (days 15 … 21: four 52s, three 50s) is within
    expect(r.base7[21]).toBeCloseTo((4 * 52 + 3 * 50) / 7, 10);
    expect(r.state[21]).toBe("within");
    expect(r.nights).toBe(29);
  });

  it("HRV on the ln scale: the band and the 7-day mean are geometric; a drop goes below", () => {
    const values = Array.from({ length: 40 }, (_, i) => (i >= 33 ? Math.exp(3.5) : Math.exp(i % 2 ? 4.1 : 3.9)));
    const r = computeNormalRange(values, "ln");
    // day 33's band: nights 0 … 32 (17 × 3.9, 16 × 4.1 on the ln scale)
    const m = (17 * 3.9 + 16 * 4.1) / 33;
    const sd = Math.sqrt((17 * (3.9 - m) ** 2 + 16 * (4.1 - m) ** 2) / 32);
    expect(r.low[33]).toBeCloseTo(Math.exp(m - 0.5 * sd), 10);
    expect(r.state[32]).toBe("within");
    expect(r.state[39]).toBe("below");
    expect(r.base7[39]).toBeCloseTo(Math.exp(3.5), 10);
  });

  it("gaps are left out (the 7-day mean needs 3 nights); ln ignores a value ≤ 0; slicing rounds", () => {
    const values: Array<number | null> = Array.from({ length: 30 }, (_, i) => (i % 3 === 0 ? null : 10));
    const r = computeNormalRange(values, "none");
    expect(r.low[29]).toBeNull(); // 19 nights with a value before day 29
    expect(r.base7[29]).toBe(10);
    const sparse = computeNormalRange([1, null, null, null, null, null, 2], "none");
    expect(sparse.base7[6]).toBeNull();
    expect(toScale(0, "ln")).toBeNull();
    expect(
      sliceNormalRange(
        computeNormalRange(
          Array.from({ length: 25 }, (_, i) => 1 / 3 + (i % 2)),
          "none",
        ),
        23,
        2,
      ).low,
    ).toHaveLength(2);
    expect(NORMAL_RANGE.minNights).toBe(21);
  });
});
