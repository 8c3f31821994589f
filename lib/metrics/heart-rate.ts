// Time-series samples (stored per UTC day) → what pages and metrics read: a local day's curve,
// a stretch's curve (a workout), and one value per local day (daytime heart rate). Pure: the
// samples and the person's UTC offsets come in, numbers go out. Samples are UTC instants; a
// person's local day is found with the offset their documents carry for that day (the ring
// service writes it into every local timestamp: "2026-03-14T04:00:00+01:00").
import { addDays } from "@/lib/days";

const DAY_MS = 86_400_000;

/** A stored UTC day in columns (lib/db/queries/time-series.ts readSampleDays). */
export type SeriesDay = { day: string; columns: { t: Float64Array; fields: Record<string, Array<number | boolean | string | null>> } };

/** The UTC offset in minutes written in an ISO date-time ("…+02:00" → 120, "Z" → 0), or null. */
export function offsetOfIso(iso: string | null | undefined): number | null {
  if (!iso) return null;
  const m = /T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(Z|([+-])(\d{2}):?(\d{2}))$/.exec(iso);
  if (!m) return null;
  if (m[1] === "Z") return 0;
  const v = Number(m[3]) * 60 + Number(m[4]);
  return m[2] === "-" ? -v : v;
}

/**
 * The offset of each local day: the one known for that day, else the nearest earlier known
 * day's, else the nearest later one's, else UTC. `known` maps days to offsets (minutes).
 */
export function offsetResolver(known: ReadonlyMap<string, number>): (day: string) => number {
  const days = [...known.keys()].sort();
  return (day) => {
    const exact = known.get(day);
    if (exact !== undefined) return exact;
    let lo = 0;
    let hi = days.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (days[mid]! < day) lo = mid + 1;
      else hi = mid;
    }
    const before = days[lo - 1];
    const after = days[lo];
    return before !== undefined ? known.get(before)! : after !== undefined ? known.get(after)! : 0;
  };
}

/** The UTC days whose samples can fall on the local days [from, to] (offsets within ±14 h). */
export function utcDaysFor(from: string, to: string): { from: string; to: string } {
  return { from: addDays(from, -1), to: addDays(to, 1) };
}

export type CurvePoint = { t: number; bpm: number; source: string | null };

/**
 * The samples of the local day `day` (offset `offsetMin`) as points on its clock: `t` in
 * minutes from local midnight (0–1440), in time order.
 */
export function localDayCurve(days: readonly SeriesDay[], day: string, offsetMin: number, valueField = "bpm", sourceField = "source"): CurvePoint[] {
  const start = Date.parse(`${day}T00:00:00Z`) - offsetMin * 60_000;
  return stretchCurve(days, start, start + DAY_MS, valueField, sourceField).map((p) => ({ ...p, t: (p.t - start) / 60_000 }));
}

/** The samples between two instants (epoch ms, end exclusive), `t` in epoch ms. */
export function stretchCurve(days: readonly SeriesDay[], startMs: number, endMs: number, valueField = "bpm", sourceField = "source"): CurvePoint[] {
  const out: CurvePoint[] = [];
  for (const d of days) {
    const { t, fields } = d.columns;
    const values = fields[valueField] ?? [];
    const sources = fields[sourceField];
    for (let i = 0; i < t.length; i++) {
      const at = t[i]!;
      if (at < startMs || at >= endMs) continue;
      const v = values[i];
      if (typeof v !== "number") continue;
      const src = sources?.[i];
      out.push({ t: at, bpm: v, source: typeof src === "string" ? src : null });
    }
  }
  return out.sort((a, b) => a.t - b.t);
}

/**
 * One value per local day in [from, to]: the mean or the minimum of `field` over the day's
 * samples, counting only those whose `only.field` is one of `only.values`. Days without such
 * samples are left out (a gap).
 */
export function localDayAggregates(opts: {
  days: readonly SeriesDay[];
  offsetOf: (day: string) => number;
  from: string;
  to: string;
  field: string;
  aggregate: "mean" | "min";
  only: { field: string; values: readonly string[] } | null;
}): Array<{ day: string; value: number }> {
  const sums = new Map<number, { n: number; sum: number; min: number }>();
  const fromIdx = Date.parse(`${opts.from}T00:00:00Z`) / DAY_MS;
  const toIdx = Date.parse(`${opts.to}T00:00:00Z`) / DAY_MS;
  const allowed = opts.only ? new Set(opts.only.values) : null;
  // the local day of an instant: its UTC day shifted by that day's offset (resolved per UTC day, ±1)
  const offsets = new Map<string, number>();
  const offsetFor = (d: string) => {
    let o = offsets.get(d);
    if (o === undefined) offsets.set(d, (o = opts.offsetOf(d)));
    return o;
  };
  for (const d of opts.days) {
    const { t, fields } = d.columns;
    const values = fields[opts.field] ?? [];
    const filter = opts.only ? fields[opts.only.field] : null;
    const offsetMs = offsetFor(d.day) * 60_000;
    for (let i = 0; i < t.length; i++) {
      const v = values[i];
      if (typeof v !== "number") continue;
      if (allowed && !(typeof filter?.[i] === "string" && allowed.has(filter[i] as string))) continue;
      const local = Math.floor((t[i]! + offsetMs) / DAY_MS);
      if (local < fromIdx || local > toIdx) continue;
      let s = sums.get(local);
      if (!s) sums.set(local, (s = { n: 0, sum: 0, min: Infinity }));
      s.n++;
      s.sum += v;
      if (v < s.min) s.min = v;
    }
  }
  return [...sums]
    .sort(([a], [b]) => a - b)
    .map(([idx, s]) => ({
      day: new Date(idx * DAY_MS).toISOString().slice(0, 10),
      value: opts.aggregate === "mean" ? Math.round((s.sum / s.n) * 10) / 10 : s.min,
    }));
}
