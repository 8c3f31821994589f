// Small numeric helpers shared by the benchmark's measuring functions.

/** Nearest-rank percentile (p in 0..100) of a non-empty list. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) throw new Error("percentile of an empty list");
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1]!;
}

export const median = (values: readonly number[]): number => percentile(values, 50);

/** Rounds to `digits` decimals (numbers only in results/latest.json). */
export function round(value: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** a / b rounded, or 0 when b is 0 (never Infinity or NaN in the JSON). */
export function ratio(a: number, b: number, digits = 2): number {
  return b > 0 && Number.isFinite(a / b) ? round(a / b, digits) : 0;
}
