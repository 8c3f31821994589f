import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  anomalyFlag,
  anomalyRuns,
  baselines,
  compareTagged,
  comparePeriods,
  computeSeriesStats,
  correlationStrength,
  countCategories,
  laggedCorrelation,
  meanOf,
  meanSd,
  pearson,
  periodMinCount,
  rollingMean,
  summarizeDay,
  type Num,
} from "@/lib/metrics/stats";

describe("means with gaps", () => {
  it("leaves nulls out instead of counting them as zeros", () => {
    expect(meanOf([1, null, 3])).toEqual({ mean: 2, n: 2 });
    expect(meanOf([null, null])).toEqual({ mean: null, n: 0 });
    // out-of-range slots are gaps too
    expect(meanOf([5, 7], -3, 1)).toEqual({ mean: 6, n: 2 });
  });

  it("says nothing below its minimum count", () => {
    expect(meanOf([1, null, 3], 0, 2, 3)).toEqual({ mean: null, n: 2 });
  });

  it("computes the sample standard deviation (n − 1)", () => {
    // classic example: mean 5, Σ(x − 5)² = 32, s = √(32/7)
    const r = meanSd([2, 4, 4, 4, 5, 5, 7, 9]);
    expect(r?.mean).toBe(5);
    expect(r?.sd).toBeCloseTo(Math.sqrt(32 / 7), 12);
    expect(meanSd([3])).toBeNull();
  });

  it("sets the period minimum at a quarter of the days, at least 3", () => {
    expect(periodMinCount(1)).toBe(1);
    expect(periodMinCount(2)).toBe(2);
    expect(periodMinCount(7)).toBe(3);
    expect(periodMinCount(30)).toBe(8);
    expect(periodMinCount(365)).toBe(92);
  });
});

describe("rolling means", () => {
  it("averages the day and the days before it, once enough days have values", () => {
    const r = rollingMean([1, 2, 3, 4, 5, 6, 7, 8], 7, 4);
    expect(r.slice(0, 3)).toEqual([null, null, null]);
    expect(r[3]).toBe(2.5); // (1+2+3+4)/4
    expect(r[6]).toBe(4); // (1..7)/7
    expect(r[7]).toBe(5); // (2..8)/7
  });

  it("ignores gaps and needs the minimum count inside the window", () => {
    const r = rollingMean([10, null, null, 20, 30, null, 40], 7, 4);
    expect(r[5]).toBeNull(); // only 10, 20, 30
    expect(r[6]).toBe(25); // (10+20+30+40)/4
  });
});

describe("baseline and anomalies", () => {
  it("uses the days before (not the day itself) and flags values outside mean ± 2 sd", () => {
    const b = baselines([1, 2, 3, 4, 100], { days: 4, minCount: 3 });
    expect(b[2]).toBeNull(); // only 2 days before index 2
    const last = b[4]!;
    expect(last.mean).toBe(2.5);
    expect(last.sd).toBeCloseTo(Math.sqrt(5 / 3), 12);
    expect(last.high).toBeCloseTo(2.5 + 2 * Math.sqrt(5 / 3), 12);
    expect(anomalyFlag(100, last)).toBe("high");
    expect(anomalyFlag(-1, last)).toBe("low");
    expect(anomalyFlag(3, last)).toBeNull();
    expect(anomalyFlag(null, last)).toBeNull();
  });

  it("marks runs of three or more same-side flags, and a gap ends a run", () => {
    expect(anomalyRuns(["high", "high", "high", null, "low", "low", "high"])).toEqual([true, true, true, false, false, false, false]);
    expect(anomalyRuns(["high", "high", "low", "low", "low"])).toEqual([false, false, true, true, true]);
    expect(anomalyRuns(["low", "low", null, "low"])).toEqual([false, false, false, false]);
  });

  it("computes the same statistics in one pass as the separate functions", () => {
    const arb = fc.array(fc.oneof(fc.constant(null), fc.integer({ min: 30, max: 100 })), { minLength: 0, maxLength: 220 });
    fc.assert(
      fc.property(arb, (values: Num[]) => {
        const s = computeSeriesStats(values);
        const r7 = rollingMean(values, 7, 4);
        const r30 = rollingMean(values, 30, 15);
        const b = baselines(values);
        for (let i = 0; i < values.length; i++) {
          expectClose(s.avg7[i]!, r7[i]!);
          expectClose(s.avg30[i]!, r30[i]!);
          expectClose(s.baseMean[i]!, b[i]?.mean ?? null);
          expectClose(s.baseLow[i]!, b[i]?.low ?? null);
          expectClose(s.baseHigh[i]!, b[i]?.high ?? null);
          // flags can differ only for a value within float noise of the band's edge
          const f = anomalyFlag(values[i] ?? null, b[i] ?? null);
          if (s.flag[i] !== f) expect(Math.min(Math.abs(values[i]! - b[i]!.high), Math.abs(values[i]! - b[i]!.low))).toBeLessThan(1e-6);
        }
        expect(s.run).toEqual(anomalyRuns(s.flag));
      }),
      { numRuns: 150 },
    );
  });

  it("flags a sudden drop against a steady 90-day history", () => {
    const values: Num[] = Array.from({ length: 100 }, (_, i) => 80 + (i % 3) - 1); // 79, 80, 81 ...
    values.push(60, 61, 62, 80);
    const s = computeSeriesStats(values);
    expect(s.flag.slice(100)).toEqual(["low", "low", "low", null]);
    expect(s.run.slice(100)).toEqual([true, true, true, false]);
    expect(s.baseMean[99]).toBeCloseTo(80, 0);
  });
});

function expectClose(a: number | null, b: number | null) {
  if (a === null || b === null) {
    expect(a).toBe(b);
    return;
  }
  expect(a).toBeCloseTo(b, 6);
}

describe("period against previous period", () => {
  it("compares the mean with the same number of days just before", () => {
    const c = comparePeriods([1, 2, 3, 4, 5, 6, 7, 8], 4, 7);
    expect(c.current).toEqual({ mean: 6.5, n: 4 });
    expect(c.previous).toEqual({ mean: 2.5, n: 4 });
    expect(c.delta).toBe(4);
    expect(c.deltaPct).toBe(1.6);
    expect(c.minCount).toBe(3);
  });

  it("has no comparison when the previous period lacks values", () => {
    const c = comparePeriods([null, null, 3, 4, 5, 6, 7, 8], 4, 7);
    expect(c.previous.n).toBe(2);
    expect(c.delta).toBeNull();
    expect(comparePeriods([1, 2, 3], 0, 2).previous.n).toBe(0);
  });
});

describe("a day against its recent past", () => {
  it("compares with the mean of the 7 days before it", () => {
    const values: Num[] = [70, 72, null, 74, 76, 78, 80, 90];
    const s = summarizeDay(values, 7);
    expect(s.value).toBe(90);
    expect(s.prior7).toEqual({ mean: 75, n: 6 }); // 70 72 74 76 78 80
    expect(s.delta).toBe(15);
    expect(s.baseline).toBeNull(); // fewer than 30 days of history
    expect(s.flag).toBeNull();
  });
});

describe("correlation", () => {
  it("matches a hand-computed Pearson r and least-squares line", () => {
    // x̄ = 3, ȳ = 4, Σdxdy = 6, Σdx² = 10, Σdy² = 6 → r = 6/√60, slope 0.6, intercept 2.2
    const c = pearson([1, 2, 3, 4, 5], [2, 4, 5, 4, 5], 3)!;
    expect(c.r).toBeCloseTo(6 / Math.sqrt(60), 12);
    expect(c.slope).toBeCloseTo(0.6, 12);
    expect(c.intercept).toBeCloseTo(2.2, 12);
    expect(c.n).toBe(5);
  });

  it("skips pairs with a gap and refuses too few pairs or a constant side", () => {
    const c = pearson([1, null, 2, 3, 4, 5], [2, 9, 4, 5, 4, 5], 3)!;
    expect(c.r).toBeCloseTo(6 / Math.sqrt(60), 12);
    expect(pearson([1, 2, 3], [1, 2, 3])).toBeNull(); // below the minimum of 10
    expect(pearson([1, 1, 1, 1], [1, 2, 3, 4], 3)).toBeNull();
  });

  it("pairs x on a day with y on the next day at lag 1", () => {
    const x: Num[] = [1, 5, 2, 8, 3, 9, 4, 7, 6, 10, 2, 5];
    const y: Num[] = [0, ...x.slice(0, -1)]; // y repeats x one day later
    expect(laggedCorrelation(x, y, 1)!.r).toBeCloseTo(1, 12);
    expect(laggedCorrelation(x, y, 1)!.n).toBe(11);
    expect(Math.abs(laggedCorrelation(x, y, 0)!.r)).toBeLessThan(0.9);
  });

  it("names strengths", () => {
    expect(correlationStrength(0.05)).toBe("negligible");
    expect(correlationStrength(-0.2)).toBe("weak");
    expect(correlationStrength(0.45)).toBe("moderate");
    expect(correlationStrength(-0.7)).toBe("strong");
  });
});

describe("tagged against untagged days", () => {
  const values: Num[] = [10, 20, 30, 40, 50, 60, 70, 80];
  const tagged = [true, false, true, false, true, false, false, false];

  it("compares the means of both groups", () => {
    const c = compareTagged(values, tagged);
    expect(c.tagged.mean).toBe(30);
    expect(c.tagged.n).toBe(3);
    expect(c.untagged.mean).toBe(54);
    expect(c.difference).toBe(-24);
  });

  it("uses the next day's value at lag 1", () => {
    const c = compareTagged(values, tagged, 1);
    expect(c.tagged.mean).toBe(40); // 20, 40, 60
    expect(c.untagged.mean).toBe(57.5); // 30, 50, 70, 80
    expect(c.difference).toBe(-17.5);
  });

  it("gives no difference below the minimum group size", () => {
    const c = compareTagged(values, [true, false, false, false, false, false, false, false]);
    expect(c.tagged.n).toBe(1);
    expect(c.difference).toBeNull();
  });
});

describe("categories", () => {
  it("counts values and leaves gaps out", () => {
    expect(countCategories(["normal", null, "stressful", "normal"])).toEqual({ counts: { normal: 2, stressful: 1 }, n: 3 });
  });
});
