// The MCP tools' answers, made compact: pure functions from the read API's answers (the pages'
// own figures) to small summaries an assistant can read. Nothing here reads data; every row
// count is bounded.
import type {
  ApiCatalogResponse,
  ApiDayResponse,
  ApiStateResponse,
  CorrelationResponse,
  SeriesResponse,
  TagComparisonResponse,
  TodayResponse,
} from "@/lib/api/contract";
import { getMetric, type MetricDef, type MetricId } from "@/lib/metrics/catalog";
import { addDays, weekdayMon0 } from "@/lib/days";
import { meanSd } from "@/lib/metrics/stats";
import { TODAY_CATEGORIES, TODAY_METRICS } from "@/lib/metrics/today-layout";

/** Rows a series answer holds at most; longer ones keep the newest rows and say so. */
export const MAX_ROWS = 120;
/** Unusual days listed at most. */
export const MAX_UNUSUAL = 20;
/** Characters of a day's note quoted at most. */
const NOTE_CHARS = 500;

export type Resolution = "day" | "week" | "month";

/** The finest resolution that fits MAX_ROWS for `days` days. */
export function autoResolution(days: number): Resolution {
  if (days <= MAX_ROWS) return "day";
  if (days <= MAX_ROWS * 7) return "week";
  return "month";
}

const round = (v: number | null | undefined, decimals: number): number | null => {
  if (v === null || v === undefined || !Number.isFinite(v)) return null;
  const f = 10 ** decimals;
  return Math.round(v * f) / f;
};

/** Decimals an answer shows: the metric's own, plus one. */
const dec = (m: MetricDef) => m.decimals + 1;

function bucketStart(day: string, resolution: Resolution): string {
  if (resolution === "day") return day;
  if (resolution === "week") return addDays(day, -weekdayMon0(day));
  return `${day.slice(0, 7)}-01`;
}

type Bucket<T> = { start: string; end: string; values: T[] };

/** Days [from, from + values.length) grouped into days, ISO weeks (from Monday) or calendar months, clipped to the range. */
export function buckets<T>(from: string, values: readonly T[], resolution: Resolution): Bucket<T>[] {
  const out: Bucket<T>[] = [];
  values.forEach((v, i) => {
    const day = addDays(from, i);
    const start = bucketStart(day, resolution);
    const last = out.at(-1);
    if (last && bucketStart(last.start, resolution) === start) {
      last.end = day;
      last.values.push(v);
    } else out.push({ start: day, end: day, values: [v] });
  });
  return out;
}

export type SeriesRow = {
  start: string;
  end: string;
  n: number;
  mean: number | null;
  min?: number | null;
  max?: number | null;
  counts?: Record<string, number>;
};

export type SeriesSummary = {
  metric: MetricId;
  label: string;
  unit: string;
  from: string;
  to: string;
  resolution: Resolution;
  /** days with a value in the range */
  n: number;
  days: number;
  mean: number | null;
  min: number | null;
  max: number | null;
  /** days outside the usual range (the 90-day baseline band) */
  outsideUsualRange?: number;
  /** the same length just before: mean and the change (what the Trends page shows) */
  previousPeriod?: { mean: number | null; n: number; change: number | null; changePct: number | null };
  /** on the last day of the range */
  latest?: { avg7: number | null; avg30: number | null; usualRange: { low: number; high: number; mean: number } | null };
  counts?: Record<string, number>;
  mostCommon?: string | null;
  rows: SeriesRow[];
  /** rows left out (the oldest) to stay within MAX_ROWS */
  rowsOmitted: number;
};

/** A series for an assistant: the page's summary figures and rows by day, week or month. */
export function summarizeSeries(s: SeriesResponse, resolution: Resolution): SeriesSummary {
  const m = getMetric(s.metric as MetricId);
  const d = dec(m);
  let rows: SeriesRow[];
  let base: Omit<SeriesSummary, "rows" | "rowsOmitted">;
  if (s.kind === "numeric") {
    rows = buckets(s.from, s.value, resolution).map((b) => {
      const present = b.values.filter((v): v is number => v !== null);
      const mean = present.length ? present.reduce((a, x) => a + x, 0) / present.length : null;
      return resolution === "day"
        ? { start: b.start, end: b.end, n: present.length, mean: round(mean, d) }
        : {
            start: b.start,
            end: b.end,
            n: present.length,
            mean: round(mean, d),
            min: present.length ? Math.min(...present) : null,
            max: present.length ? Math.max(...present) : null,
          };
    });
    const last = s.value.length - 1;
    const c = s.comparison;
    base = {
      metric: m.id,
      label: m.label,
      unit: m.unit,
      from: s.from,
      to: s.to,
      resolution,
      n: s.summary.n,
      days: s.summary.days,
      mean: s.summary.mean,
      min: s.summary.min,
      max: s.summary.max,
      outsideUsualRange: s.summary.anomalies,
      previousPeriod: { mean: c.previous.mean, n: c.previous.n, change: c.delta, changePct: c.deltaPct },
      latest: {
        avg7: s.avg7[last] ?? null,
        avg30: s.avg30[last] ?? null,
        usualRange:
          s.baseMean[last] != null && s.baseLow[last] != null && s.baseHigh[last] != null
            ? { low: s.baseLow[last]!, high: s.baseHigh[last]!, mean: s.baseMean[last]! }
            : null,
      },
    };
  } else {
    rows = buckets(s.from, s.value, resolution).map((b) => {
      const counts: Record<string, number> = {};
      for (const v of b.values) if (v !== null) counts[v] = (counts[v] ?? 0) + 1;
      const n = Object.values(counts).reduce((a, x) => a + x, 0);
      return resolution === "day" ? { start: b.start, end: b.end, n, mean: null, counts } : { start: b.start, end: b.end, n, mean: null, counts };
    });
    base = {
      metric: m.id,
      label: m.label,
      unit: m.unit,
      from: s.from,
      to: s.to,
      resolution,
      n: s.summary.n,
      days: s.summary.days,
      mean: null,
      min: null,
      max: null,
      counts: s.counts,
      mostCommon: s.summary.mostCommon,
    };
  }
  const omitted = Math.max(0, rows.length - MAX_ROWS);
  return { ...base, rows: rows.slice(omitted), rowsOmitted: omitted };
}

export type PeriodFigures = {
  from: string;
  to: string;
  n: number;
  days: number;
  mean: number | null;
  sd: number | null;
  min: number | null;
  max: number | null;
};

function periodFigures(s: SeriesResponse): PeriodFigures {
  if (s.kind !== "numeric") return { from: s.from, to: s.to, n: s.summary.n, days: s.summary.days, mean: null, sd: null, min: null, max: null };
  const m = getMetric(s.metric as MetricId);
  return {
    from: s.from,
    to: s.to,
    n: s.summary.n,
    days: s.summary.days,
    mean: s.summary.mean,
    sd: round(meanSd(s.value)?.sd ?? null, dec(m) + 1),
    min: s.summary.min,
    max: s.summary.max,
  };
}

/** Two periods of one metric: each one's figures (as Trends shows them for that range) and the change. */
export function comparePeriodSeries(first: SeriesResponse, second: SeriesResponse) {
  const m = getMetric(first.metric as MetricId);
  const a = periodFigures(first);
  const b = periodFigures(second);
  const change = a.mean !== null && b.mean !== null ? round(b.mean - a.mean, dec(m) + 1) : null;
  return {
    metric: m.id,
    label: m.label,
    unit: m.unit,
    first: a,
    second: b,
    /** second − first */
    change,
    changePct: change !== null && a.mean ? round(change / Math.abs(a.mean), 4) : null,
    ...(first.kind === "category" && second.kind === "category" ? { firstCounts: first.counts, secondCounts: second.counts } : {}),
  };
}

/** A pair of metrics (what the Correlations page shows), without the scatter points. */
export function summarizeCorrelation(c: CorrelationResponse) {
  const x = getMetric(c.x);
  const y = getMetric(c.y);
  const r = c.correlation;
  const when = c.lag ? `the next day's ${y.label.toLowerCase()}` : `${y.label.toLowerCase()} the same day`;
  return {
    x: { metric: x.id, label: x.label, unit: x.unit },
    y: { metric: y.id, label: y.label, unit: y.unit },
    lag: c.lag,
    from: c.from,
    to: c.to,
    n: r?.n ?? c.points.length,
    r: r ? round(r.r, 3) : null,
    strength: r?.strength ?? null,
    ci95: r && r.ciLow !== null && r.ciHigh !== null ? [round(r.ciLow, 3), round(r.ciHigh, 3)] : null,
    /** y = slope·x + intercept, in the metrics' units */
    slope: r ? round(r.slope, 6) : null,
    intercept: r ? round(r.intercept, 4) : null,
    reading: r
      ? `Over ${r.n} days, when ${x.label.toLowerCase()} is higher, ${when} tends to be ${r.r >= 0 ? "higher" : "lower"} ` +
        `(r = ${r.r.toFixed(2)}, ${r.strength}). A correlation is not a cause.`
      : `Not enough days with both values (${c.points.length}; at least 10 are needed).`,
  };
}

/** Tagged days against the rest (what the Notes page's comparison shows). */
export function summarizeTagComparison(t: TagComparisonResponse) {
  const m = getMetric(t.metric);
  const c = t.comparison;
  const d = dec(m);
  return {
    tag: t.tag.name,
    taggedDaysInAll: t.tag.days,
    metric: m.id,
    label: m.label,
    unit: m.unit,
    lag: t.lag,
    from: t.from,
    to: t.to,
    tagged: c ? { n: c.tagged.n, mean: round(c.tagged.mean, d), sd: round(c.tagged.sd, d) } : null,
    untagged: c ? { n: c.untagged.n, mean: round(c.untagged.mean, d), sd: round(c.untagged.sd, d) } : null,
    /** tagged − untagged (null below 3 days in either group) */
    difference: c ? round(c.difference, d) : null,
    differencePct: c ? round(c.differencePct, 4) : null,
  };
}

export type UnusualDay = {
  day: string;
  metric: MetricId;
  label: string;
  unit: string;
  value: number;
  usualLow: number;
  usualHigh: number;
  usualMean: number;
  side: "high" | "low";
  z: number;
  inRun: boolean;
};

/** Days outside the usual range (mean ± 2 sd of the 90 days before), the furthest out first. */
export function unusualDays(series: readonly SeriesResponse[], limit: number): { n: number; flagged: number; days: UnusualDay[] } {
  const all: UnusualDay[] = [];
  let n = 0;
  for (const s of series) {
    if (s.kind !== "numeric") continue;
    const m = getMetric(s.metric as MetricId);
    n += s.summary.n;
    s.flag.forEach((f, i) => {
      const value = s.value[i];
      const mean = s.baseMean[i];
      const low = s.baseLow[i];
      const high = s.baseHigh[i];
      if (!f || value == null || mean == null || low == null || high == null) return;
      // the band may be clipped at the metric's bounds (a score's 100): the other side is whole
      const sd = Math.max(high - mean, mean - low) / 2;
      all.push({
        day: addDays(s.from, i),
        metric: m.id,
        label: m.label,
        unit: m.unit,
        value,
        usualLow: low,
        usualHigh: high,
        usualMean: mean,
        side: f,
        z: round(sd > 0 ? (value - mean) / sd : 0, 2) ?? 0,
        inRun: s.run[i] ?? false,
      });
    });
  }
  all.sort((a, b) => Math.abs(b.z) - Math.abs(a.z) || (a.day < b.day ? 1 : -1));
  return { n, flagged: all.length, days: all.slice(0, Math.min(limit, MAX_UNUSUAL)) };
}

/** Today's figures of a day, in Today's order (lib/metrics/today-layout.ts): those from that day. */
const onDay = <T extends { day: string }>(ids: readonly MetricId[], figures: Partial<Record<MetricId, T>>, day: string): T[] =>
  ids.flatMap((id) => {
    const f = figures[id];
    return f?.day === day ? [f] : [];
  });

/** One day: each metric against the 7 days before and its usual range, sleep and activity, the note. */
export function summarizeDay(day: string, today: TodayResponse, detail: ApiDayResponse) {
  const metrics = onDay(TODAY_METRICS, today.metrics, day).map((t) => {
    const m = getMetric(t.id);
    const d = dec(m);
    return {
      metric: m.id,
      label: m.label,
      unit: m.unit,
      value: t.value,
      prior7Mean: round(t.prior7Mean, d),
      change: round(t.delta, d),
      usualRange: t.baseline ? { low: round(t.baseline.low, d), high: round(t.baseline.high, d) } : null,
      flag: t.flag,
    };
  });
  const categories = onDay(TODAY_CATEGORIES, today.categories, day).map((c) => {
    const m = getMetric(c.id);
    return { metric: m.id, label: m.label, value: m.categories?.find((x) => x.value === c.value)?.label ?? c.value };
  });
  const main = detail.periods.find((p) => p.role === "main");
  const minutesOf = (rec: Record<string, number> | undefined) => (rec ? Object.fromEntries(Object.entries(rec).map(([k, v]) => [k, Math.round(v)])) : null);
  const note = detail.note;
  return {
    day,
    /** metrics with a value on this day */
    n: metrics.length,
    metrics,
    categories,
    sleep: main
      ? {
          bedtimeStart: main.bedtimeStart,
          bedtimeEnd: main.bedtimeEnd,
          stageMinutes: minutesOf(main.hypnogram?.minutes),
          naps: detail.periods.filter((p) => p.role === "nap").length,
        }
      : null,
    activityMinutes: minutesOf(detail.activity?.minutes),
    note: note ? { text: note.text.length > NOTE_CHARS ? `${note.text.slice(0, NOTE_CHARS)}…` : note.text, tags: note.tags.map((t) => t.name) } : null,
  };
}

/** What data exists for this token: kinds, collections' first and last days, metrics by group. */
export function summarizeCatalog(c: ApiCatalogResponse, tags: number | null) {
  const groups = new Map<string, string[]>();
  for (const m of c.metrics) if (m.readable) groups.set(m.group, [...(groups.get(m.group) ?? []), `${m.id} (${m.unit})`]);
  return {
    kinds: c.kinds.map((k) => ({ kind: k.kind, label: k.label, granted: k.granted })),
    firstDay: c.firstDay,
    lastDay: c.lastDay,
    collections: c.ranges.map((r) => ({ collection: r.collection, firstDay: r.firstDay, lastDay: r.lastDay, n: r.count })),
    /** documents in all */
    n: c.ranges.reduce((a, r) => a + r.count, 0),
    metricGroups: [...groups].map(([group, metrics]) => ({ group, metrics })),
    tags,
  };
}

/** The state document in one paragraph: each value with its unit and day (what is null is left out). */
export function summarizeState(s: ApiStateResponse): string {
  const fmt = (label: string, v: ApiStateResponse["scores"]["sleep"], unit = true) =>
    v ? `${label} ${v.value}${unit && v.unit !== "score" ? ` ${v.unit}` : ""} (${v.day})` : null;
  const join = (parts: Array<string | null>) => parts.filter((p): p is string => p !== null).join(", ");
  const scores = join([fmt("readiness", s.scores.readiness), fmt("sleep", s.scores.sleep), fmt("activity", s.scores.activity)]);
  const night = join([
    fmt("lowest heart rate", s.night.lowestHeartRate),
    fmt("average HRV", s.night.averageHrv),
    fmt("breathing rate", s.night.breathingRate),
    fmt("temperature deviation", s.night.temperatureDeviation),
  ]);
  const b = s.battery;
  const battery = b
    ? `Ring battery ${b.level} % (${b.inCharger || b.charging ? "on the charger" : "not charging"}), read at ${b.at}, telling until ${b.freshUntil}.`
    : null;
  const bed = s.bedtime;
  const bedtime = bed
    ? bed.start && bed.end
      ? `Bedtime window for the evening of ${bed.day}: ${bed.start} to ${bed.end}.`
      : `No bedtime window for the evening of ${bed.day}.`
    : null;
  return [`Today is ${s.today} (${s.timeZone}).`, scores ? `Scores: ${scores}.` : null, night ? `Last night: ${night}.` : null, battery, bedtime]
    .filter(Boolean)
    .join(" ");
}
