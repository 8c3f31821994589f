// Geometry for Ringside's own SVG charts: scales, "nice" ticks, day ticks and paths with gaps.
// Pure and small on purpose: the Today and Trends pages draw with these instead of a chart
// library, which keeps their JavaScript under the 200 kB (gzip) budget.
import type { MetricDef } from "@/lib/metrics/catalog";
import { dayToIndex, formatMonth, indexToDay } from "@/lib/days";

export type Scale = ((v: number) => number) & { domain: [number, number]; range: [number, number] };

export function linearScale(domain: [number, number], range: [number, number]): Scale {
  const [d0, d1] = domain;
  const [r0, r1] = range;
  const k = d1 === d0 ? 0 : (r1 - r0) / (d1 - d0);
  const f = ((v: number) => (d1 === d0 ? (r0 + r1) / 2 : r0 + (v - d0) * k)) as Scale;
  f.domain = domain;
  f.range = range;
  return f;
}

function niceStep(span: number, count: number): number {
  const raw = span / Math.max(1, count);
  const pow = 10 ** Math.floor(Math.log10(raw));
  const err = raw / pow;
  const mult = err >= 7.5 ? 10 : err >= 3.5 ? 5 : err >= 1.5 ? 2 : 1;
  return mult * pow;
}

/**
 * Round tick values covering [min, max] (about `count` of them) and the domain they span. With
 * `label` (how the axis writes a tick), no two ticks read the same: fewer, wider steps are taken
 * until every label differs (an axis of whole numbers never reads 1, 1, 0, −1, −1).
 */
export function niceTicks(min: number, max: number, count = 4, label?: (v: number) => string): { ticks: number[]; domain: [number, number] } {
  if (!label) return plainTicks(min, max, count);
  for (let c = count; c >= 1; c--) {
    const t = plainTicks(min, max, c);
    if (new Set(t.ticks.map(label)).size === t.ticks.length) return t;
  }
  // still alike at one step: keep the first tick of each label
  const t = plainTicks(min, max, 1);
  const seen = new Set<string>();
  return { ...t, ticks: t.ticks.filter((v) => !seen.has(label(v)) && Boolean(seen.add(label(v)))) };
}

function plainTicks(min: number, max: number, count: number): { ticks: number[]; domain: [number, number] } {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return { ticks: [], domain: [0, 1] };
  if (min === max) {
    const pad = Math.abs(min) > 0 ? Math.abs(min) * 0.1 : 1;
    min -= pad;
    max += pad;
  }
  const step = niceStep(max - min, count);
  const lo = Math.floor(min / step) * step;
  const hi = Math.ceil(max / step) * step;
  const ticks: number[] = [];
  for (let v = lo; v <= hi + step / 2; v += step) ticks.push(Number(v.toFixed(10)));
  return { ticks, domain: [lo, hi] };
}

export type DayTick = { index: number; label: string };

/**
 * Labelled days for an axis of `days` days starting at `from`, at most about `maxTicks`:
 * days, Mondays, first days of months (every 1, 2, 3 or 6 months) or of years.
 */
export function dayTicks(from: string, days: number, maxTicks: number): DayTick[] {
  const start = dayToIndex(from);
  const out: DayTick[] = [];
  const fits = (n: number) => n <= Math.max(2, maxTicks);
  if (days <= 0) return out;
  if (fits(days)) {
    for (let i = 0; i < days; i++) out.push({ index: i, label: String(Number(indexToDay(start + i).slice(8, 10))) });
    return out;
  }
  for (const every of [2, 7, 14]) {
    if (!fits(Math.ceil(days / every))) continue;
    for (let i = 0; i < days; i++) {
      const day = indexToDay(start + i);
      const weekday = (new Date((start + i) * 86_400_000).getUTCDay() + 6) % 7;
      const ok = every === 2 ? i % 2 === 0 : weekday === 0 && (every === 7 || Math.floor((start + i) / 7) % 2 === 0);
      if (ok) out.push({ index: i, label: `${Number(day.slice(8, 10))} ${formatMonth(day)}` });
    }
    return out;
  }
  for (const months of [1, 2, 3, 6, 12, 24]) {
    const candidates: DayTick[] = [];
    for (let i = 0; i < days; i++) {
      const day = indexToDay(start + i);
      if (day.slice(8, 10) !== "01") continue;
      const m = Number(day.slice(5, 7)) - 1;
      const y = Number(day.slice(0, 4));
      if (months >= 12 ? m !== 0 || y % (months / 12) !== 0 : m % months !== 0) continue;
      const label = months >= 12 || m === 0 ? (months >= 12 ? day.slice(0, 4) : `${formatMonth(day)} ${day.slice(2, 4)}`) : formatMonth(day);
      candidates.push({ index: i, label });
    }
    if (fits(candidates.length) || months === 24) return candidates;
  }
  return out;
}

/**
 * The points of one unbroken run [s, e) worth drawing at the chart's pixel width: where several
 * points fall in one pixel column, the first, the lowest, the highest and the last of them (in
 * their order), so every peak and dip survives and the drawn line looks the same; five years of
 * days on a 400-pixel chart become at most 1,600 points instead of 1,826 (fewer on a phone).
 * A short run (one point or fewer per column) comes back whole.
 */
export function pixelPoints(xs: readonly number[], ys: ReadonlyArray<number | null>, s: number, e: number): number[] {
  const out: number[] = [];
  let i = s;
  while (i < e) {
    const column = Math.floor(xs[i]!);
    let j = i;
    let lo = i;
    let hi = i;
    while (j + 1 < e && Math.floor(xs[j + 1]!) === column) {
      j++;
      if (ys[j]! < ys[lo]!) lo = j;
      if (ys[j]! > ys[hi]!) hi = j;
    }
    for (const k of new Set([i, lo, hi, j].sort((a, b) => a - b))) out.push(k);
    i = j + 1;
  }
  return out;
}

const drawn = (y: number | null | undefined): y is number => y !== null && y !== undefined && Number.isFinite(y);

/** An SVG path through the points (thinned to the pixel width), lifted at every null (a gap is a gap, never a line to 0). */
export function linePath(xs: readonly number[], ys: ReadonlyArray<number | null>): string {
  let d = "";
  let i = 0;
  while (i < ys.length) {
    while (i < ys.length && !drawn(ys[i])) i++;
    const s = i;
    while (i < ys.length && drawn(ys[i])) i++;
    if (i === s) continue;
    let pen = false;
    for (const k of pixelPoints(xs, ys, s, i)) {
      d += `${pen ? "L" : "M"}${round(xs[k]!)} ${round(ys[k]!)}`;
      pen = true;
    }
  }
  return d;
}

/** Closed areas between `lows` and `highs`, one per run of days where both exist (each edge thinned to the pixel width). */
export function bandPath(xs: readonly number[], lows: ReadonlyArray<number | null>, highs: ReadonlyArray<number | null>): string {
  let d = "";
  let i = 0;
  const n = Math.min(lows.length, highs.length);
  while (i < n) {
    while (i < n && (lows[i] === null || highs[i] === null)) i++;
    const s = i;
    while (i < n && lows[i] !== null && highs[i] !== null) i++;
    if (i - s < 1) continue;
    let seg = "";
    for (const j of pixelPoints(xs, highs, s, i)) seg += `${seg ? "L" : "M"}${round(xs[j]!)} ${round(highs[j]!)}`;
    for (const j of pixelPoints(xs, lows, s, i).reverse()) seg += `L${round(xs[j]!)} ${round(lows[j]!)}`;
    d += `${seg}Z`;
  }
  return d;
}

function round(v: number): number {
  return Math.round(v * 10) / 10;
}

/** Index of the nearest slot to pixel x on a scale of `n` slots. */
export function nearestIndex(x: number, scale: Scale, n: number): number {
  const [d0, d1] = scale.domain;
  const [r0, r1] = scale.range;
  if (r1 === r0 || n <= 0) return 0;
  const v = d0 + ((x - r0) / (r1 - r0)) * (d1 - d0);
  return Math.max(0, Math.min(n - 1, Math.round(v)));
}

/**
 * How tall a category's mark is, 0.35–1 of the full height, by its place in the metric's list
 * (the lists run from the lowest level to the highest: "limited" … "exceptional"), so the
 * level reads from the shape as well as the colour. Unknown values stand at full height.
 */
export function categoryRank(metric: Pick<MetricDef, "categories">, value: string): number {
  const cats = metric.categories ?? [];
  const i = cats.findIndex((c) => c.value === value);
  if (i < 0 || cats.length < 2) return 1;
  return 0.35 + (0.65 * i) / (cats.length - 1);
}
