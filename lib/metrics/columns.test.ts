// The compact chart answers (lib/metrics/columns.ts): what travels, and that decoding gives the
// charts the series they drew before (statistics at display precision).
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { getMetric } from "@/lib/metrics/catalog";
import { decodePoints, decodeSeries, encodePoints, encodeSeries, wireDecimals } from "@/lib/metrics/columns";
import { buildCategorySeries, buildNumericSeries, warmupFrom, type NumericSeries } from "@/lib/metrics/series";
import { addDays, dayRange } from "@/lib/days";

const FROM = "2021-01-01";
const TO = "2025-12-31";

/** Five years of a score with gaps, a slow drift and a few outliers (deterministic). */
function scoreRows() {
  return dayRange(warmupFrom(FROM, TO), TO).flatMap((day, i) => {
    if (i % 17 === 3) return [];
    const v = 70 + Math.round(8 * Math.sin(i / 40) + ((i * 7919) % 11) - 5) + (i % 211 === 0 ? -35 : 0);
    return [{ day, value: v }];
  });
}

describe("series as columns", () => {
  const metric = getMetric("sleep.score");
  const full = buildNumericSeries(metric, scoreRows(), FROM, TO);

  it("decodes to the same series, statistics rounded to the display precision", () => {
    const wire = encodeSeries(full, wireDecimals(metric));
    const back = decodeSeries(wire) as NumericSeries;
    expect(back.value).toEqual(full.value);
    expect(back.flag).toEqual(full.flag);
    expect(back.run).toEqual(full.run);
    expect(back.summary).toEqual(full.summary);
    expect(back.comparison).toEqual(full.comparison);
    for (const k of ["avg7", "avg30", "baseMean", "baseLow", "baseHigh"] as const) {
      expect(back[k]).toHaveLength(full[k].length);
      back[k].forEach((v, i) => {
        const f = full[k][i] ?? null;
        if (f === null) expect(v).toBeNull();
        else expect(Math.abs(v! - f)).toBeLessThanOrEqual(0.5 + 1e-9);
      });
    }
    expect(full.flag.some(Boolean)).toBe(true);
  });

  it("lists anomalies and their runs sparsely, in slots from `from`", () => {
    const wire = encodeSeries(full, 0);
    if (wire.kind !== "numeric") throw new Error("numeric expected");
    expect(wire.flags.length).toBe(full.flag.filter(Boolean).length);
    for (const [i, f] of wire.flags) expect(full.flag[i]).toBe(f);
    for (const [a, b] of wire.runs) {
      expect(b).toBeGreaterThanOrEqual(a);
      for (let i = a; i <= b; i++) expect(full.run[i]).toBe(true);
      expect(full.run[a - 1] ?? false).toBe(false);
      expect(full.run[b + 1] ?? false).toBe(false);
    }
    expect(wire).not.toHaveProperty("flag");
    expect(wire).not.toHaveProperty("run");
  });

  it("is smaller on the wire, raw and gzipped", () => {
    const before = JSON.stringify(full);
    const after = JSON.stringify(encodeSeries(full, wireDecimals(metric)));
    expect(after.length).toBeLessThan(before.length * 0.7);
    expect(zlib.gzipSync(after).length).toBeLessThan(zlib.gzipSync(before).length);
  });

  it("keeps one more decimal for °C deviations (shown in °F too)", () => {
    expect(wireDecimals(getMetric("readiness.temperature_deviation"))).toBe(getMetric("readiness.temperature_deviation").decimals + 1);
    expect(wireDecimals(metric)).toBe(metric.decimals);
  });

  it("sends a category series as it is", () => {
    const m = getMetric("stress.day_summary");
    const s = buildCategorySeries(m, [{ day: FROM, value: "restored" }], FROM, addDays(FROM, 9));
    expect(decodeSeries(encodeSeries(s, 0))).toEqual(s);
  });
});

describe("points as columns", () => {
  it("round-trips points, each with its day", () => {
    const points = [
      { day: "2024-01-01", x: 8000, y: 81 },
      { day: "2024-01-03", x: 12050, y: 77 },
      { day: "2024-03-01", x: 0, y: 90 },
    ];
    const c = encodePoints(points, "2024-01-01");
    expect(c).toEqual({ i: [0, 2, 60], x: [8000, 12050, 0], y: [81, 77, 90] });
    expect(decodePoints(c, "2024-01-01")).toEqual(points);
  });
});
