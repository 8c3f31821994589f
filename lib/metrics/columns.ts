// The compact form in which the dashboard's chart answers travel (GET /api/metrics/:metric and
// GET /api/correlations): columns, not rows of objects; the days said once (a range, or day
// indexes from `from`); numbers rounded to what the page can show; the sparse facts (anomaly
// flags, runs of them) listed where they are instead of one slot per day. Pure, shared by the
// routes (encode) and the hooks (decode): the charts keep drawing the full shapes of
// lib/metrics/series.ts, and the read API (/api/v1) keeps answering those.
import { dayToIndex, indexToDay } from "@/lib/days";
import type { MetricDef } from "@/lib/metrics/catalog";
import type { CategorySeries, MetricSeries, NumericSeries } from "@/lib/metrics/series";
import type { AnomalyFlag, Num } from "@/lib/metrics/stats";

/**
 * The decimals a metric's statistics travel with: its display precision, and one more where
 * the page may multiply the value (°C deviations shown in °F), so converting cannot move the
 * shown digit.
 */
export function wireDecimals(m: Pick<MetricDef, "decimals" | "unit">): number {
  return m.decimals + (m.unit === "°C" ? 1 : 0);
}

function roundAll(xs: readonly Num[], decimals: number): Num[] {
  const f = 10 ** decimals;
  return xs.map((v) => (v === null || v === undefined || !Number.isFinite(v) ? null : Math.round(v * f) / f));
}

/** A numeric series as columns: one slot per day from `from` to `to` in each array. */
export type NumericColumns = Omit<NumericSeries, "avg7" | "avg30" | "baseMean" | "baseLow" | "baseHigh" | "flag" | "run"> & {
  avg7: Num[];
  avg30: Num[];
  baseMean: Num[];
  baseLow: Num[];
  baseHigh: Num[];
  /** the anomalous days: [slot, "high" | "low"] */
  flags: Array<[number, "high" | "low"]>;
  /** runs of anomalies: [first slot, last slot] */
  runs: Array<[number, number]>;
};
/** GET /api/metrics/:metric: a numeric series as columns; a category series as it is. */
export type SeriesColumns = NumericColumns | CategorySeries;

/** The series' compact form (statistics rounded to `decimals`, see wireDecimals). */
export function encodeSeries(s: MetricSeries, decimals: number): SeriesColumns {
  if (s.kind === "category") return s;
  const { flag, run, ...rest } = s;
  const flags: NumericColumns["flags"] = [];
  flag.forEach((f, i) => {
    if (f) flags.push([i, f]);
  });
  const runs: NumericColumns["runs"] = [];
  for (let i = 0; i < run.length; i++) {
    if (!run[i]) continue;
    let j = i;
    while (j + 1 < run.length && run[j + 1]) j++;
    runs.push([i, j]);
    i = j;
  }
  return {
    ...rest,
    avg7: roundAll(s.avg7, decimals),
    avg30: roundAll(s.avg30, decimals),
    baseMean: roundAll(s.baseMean, decimals),
    baseLow: roundAll(s.baseLow, decimals),
    baseHigh: roundAll(s.baseHigh, decimals),
    flags,
    runs,
  };
}

/** The full series the charts draw, from its compact form. */
export function decodeSeries(c: SeriesColumns): MetricSeries {
  if (c.kind === "category") return c;
  const { flags, runs, ...rest } = c;
  const n = c.value.length;
  const flag = new Array<AnomalyFlag>(n).fill(null);
  for (const [i, f] of flags) if (i >= 0 && i < n) flag[i] = f;
  const run = new Array<boolean>(n).fill(false);
  for (const [a, b] of runs) for (let i = Math.max(0, a); i <= Math.min(b, n - 1); i++) run[i] = true;
  return { ...rest, flag, run };
}

/** A correlation's points as columns: `i` is each point's day as a slot from `from`. */
export type PointColumns = { i: number[]; x: number[]; y: number[] };

/** Points [{day, x, y}] as columns (days as slots from `from`). */
export function encodePoints(points: ReadonlyArray<{ day: string; x: number; y: number }>, from: string): PointColumns {
  const start = dayToIndex(from);
  return { i: points.map((p) => dayToIndex(p.day) - start), x: points.map((p) => p.x), y: points.map((p) => p.y) };
}

/** The points again, each with its day. */
export function decodePoints(c: PointColumns, from: string): Array<{ day: string; x: number; y: number }> {
  const start = dayToIndex(from);
  const n = Math.min(c.i.length, c.x.length, c.y.length);
  const out = new Array<{ day: string; x: number; y: number }>(n);
  for (let k = 0; k < n; k++) out[k] = { day: indexToDay(start + c.i[k]!), x: c.x[k]!, y: c.y[k]! };
  return out;
}
