// The report's figures and charts built from what the service (lib/services/report.ts) read: pure
// functions over series the read API also answers with, so every figure here equals the read API's.
// The report's types and vocabularies are in lib/metrics/report.ts.
import { addDays, diffDays } from "@/lib/days";
import type { MetricDef } from "@/lib/metrics/catalog";
import type { NumericSeries } from "@/lib/metrics/series";
import type { Num } from "@/lib/metrics/stats";
import { SEVEN_DAY_MEAN } from "@/lib/metrics/trend-layers";
import {
  REPORT_GAP_MIN_DAYS,
  type ReportChartGroup,
  type ReportCount,
  type ReportTag,
  type ReportFigure,
  type ReportFlaggedNight,
  type ReportLineChart,
  type ReportMean,
  type ReportMethods,
  type ReportRangeSource,
  type ReportSummary,
  type ReportSummaryMetricId,
} from "@/lib/metrics/report";

const round = (v: number | null | undefined, decimals: number): number | null => {
  if (v === null || v === undefined || !Number.isFinite(v)) return null;
  const f = 10 ** decimals;
  return Math.round(v * f) / f;
};

/** What a numeric series gives the report: the read API's series of /api/v1/metrics/:metric (lib/metrics/series.ts). */
export type ReportSeriesInput = Pick<NumericSeries, "value" | "avg7" | "baseLow" | "baseHigh" | "summary" | "normal">;

/** The range a summary mean is read against: the personal normal range where the metric has one, else the baseline band; of the first day. */
function rangeOf(s: ReportSeriesInput): { source: ReportRangeSource; low: number; high: number } | null {
  const [low, high, source]: [Num | undefined, Num | undefined, ReportRangeSource] = s.normal
    ? [s.normal.low[0], s.normal.high[0], "normal_range"]
    : [s.baseLow[0], s.baseHigh[0], "baseline"];
  return low === null || low === undefined || high === null || high === undefined ? null : { source, low, high };
}

/**
 * One mean of the summary: the period's mean and count as the read API's series gives them, the
 * compared period's (its own series), the change, and where the mean lies against the range
 * of the period's first day (built from the days before the period only).
 */
export function reportMean(
  metric: Pick<MetricDef, "label" | "unit" | "decimals"> & { id: ReportSummaryMetricId },
  series: ReportSeriesInput,
  compared: ReportSeriesInput | null,
): ReportMean {
  const mean = series.summary.mean;
  const range = rangeOf(series);
  const dec = metric.decimals + 2;
  return {
    metric: metric.id,
    label: metric.label,
    unit: metric.unit,
    decimals: metric.decimals,
    mean,
    n: series.summary.n,
    compared: compared
      ? {
          mean: compared.summary.mean,
          n: compared.summary.n,
          delta: mean === null || compared.summary.mean === null ? null : round(mean - compared.summary.mean, dec),
        }
      : null,
    range: range && mean !== null ? { ...range, state: mean < range.low ? "below" : mean > range.high ? "above" : "within" } : null,
  };
}

/** A day's early warning, as the signal gives it (lib/signals/signal-days.ts). */
export type EarlyWarningDayInput = { day: string; level: string | null; flags: number; muted: boolean; flagged: string[] };

/** The nights early warning flagged ("watch" or "likely"), the count of each, and the nights it could judge (a level at all). */
export function flaggedNights(days: readonly EarlyWarningDayInput[]): ReportSummary["earlyWarning"] {
  const nights: ReportFlaggedNight[] = [];
  let judged = 0;
  for (const d of days) {
    if (d.level !== null) judged++;
    if (d.level === "watch" || d.level === "likely") nights.push({ day: d.day, level: d.level, flags: d.flags, muted: d.muted, markers: [...d.flagged] });
  }
  return { nights, watch: nights.filter((n) => n.level === "watch").length, likely: nights.filter((n) => n.level === "likely").length, judged };
}

/** A figure over the period's days (one value per day, null without one): mean (rounded), count and last value. */
export function reportFigure(days: ReadonlyArray<{ day: string; value: number | null }>, decimals: number): ReportFigure {
  let sum = 0;
  let n = 0;
  let last: ReportFigure["last"] = null;
  for (const d of days) {
    if (d.value === null || !Number.isFinite(d.value)) continue;
    sum += d.value;
    n++;
    last = { day: d.day, value: d.value };
  }
  return { mean: n ? round(sum / n, decimals) : null, n, last };
}

/** Seconds → hours (2 decimals), keeping gaps. */
export const hoursOf = (xs: readonly Num[]): Num[] => xs.map((v) => round(v === null ? null : v / 3600, 2));

/** A line chart of a metric from its series: the daily values, the 7-day mean and the range (normal range, else baseline band). */
export function lineChart(opts: {
  id: string;
  group: ReportChartGroup;
  metric: ReportLineChart["metric"];
  title: string;
  unit: string;
  decimals: number;
  series: ReportSeriesInput;
  caption: string;
  /** show durations (seconds) in hours */
  hours?: boolean;
}): ReportLineChart {
  const s = opts.series;
  const conv = opts.hours ? hoursOf : (xs: readonly Num[]) => [...xs];
  const band = s.normal
    ? { low: s.normal.low, high: s.normal.high, source: "normal_range" as const }
    : { low: s.baseLow, high: s.baseHigh, source: "baseline" as const };
  const hasBand = band.low.some((v) => v !== null);
  return {
    kind: "line",
    id: opts.id,
    group: opts.group,
    metric: opts.metric,
    title: opts.title,
    unit: opts.hours ? "h" : opts.unit,
    decimals: opts.hours ? 1 : opts.decimals,
    value: conv(s.value),
    avg7: conv(s.avg7),
    low: conv(band.low),
    high: conv(band.high),
    rangeSource: hasBand ? band.source : null,
    caption: opts.caption,
  };
}

/**
 * A time of the night as hours after the midnight that starts `day` (the day the sleep ends):
 * "2026-01-01T23:10:00+01:00" for the night of 2026-01-02 → −0.83. The clock is the document's
 * own (the offset it carries), so the time zone of the server or the reader plays no part.
 */
export function clockHoursOn(day: string, iso: string | null): number | null {
  const m = iso ? /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?/.exec(iso) : null;
  if (!m) return null;
  const hours = Number(m[2]) + Number(m[3]) / 60 + Number(m[4] ?? 0) / 3600;
  return round(diffDays(day, m[1]!) * 24 + hours, 2);
}

/** Workouts or sessions counted by type, most frequent first (ties by name): count, minutes, calories. */
export function countByType(
  items: ReadonlyArray<{ type: string; seconds: number | null; calories?: number | null }>,
  label: (type: string) => string,
): ReportCount[] {
  const out = new Map<string, { count: number; seconds: number; calories: number | null }>();
  for (const it of items) {
    const e = out.get(it.type) ?? { count: 0, seconds: 0, calories: null };
    e.count++;
    e.seconds += it.seconds ?? 0;
    if (typeof it.calories === "number") e.calories = (e.calories ?? 0) + it.calories;
    out.set(it.type, e);
  }
  return [...out]
    .sort((a, b) => b[1].count - a[1].count || a[0].localeCompare(b[0]))
    .map(([type, e]) => ({
      type,
      label: label(type),
      count: e.count,
      minutes: Math.round(e.seconds / 60),
      calories: e.calories === null ? null : Math.round(e.calories),
    }));
}

/** The tags of the period with their days, the person's own first, each by name. */
export function tagsWithDays(
  notes: ReadonlyArray<{ day: string; tags: ReadonlyArray<{ name: string }>; ringTags: ReadonlyArray<{ name: string }> }>,
): ReportTag[] {
  const own = new Map<string, string[]>();
  const ring = new Map<string, string[]>();
  const add = (m: Map<string, string[]>, name: string, day: string) => {
    const list = m.get(name) ?? [];
    if (!list.includes(day)) list.push(day);
    m.set(name, list);
  };
  for (const n of notes) {
    for (const t of n.tags) add(own, t.name, n.day);
    for (const t of n.ringTags) add(ring, t.name, n.day);
  }
  const list = (m: Map<string, string[]>, source: "own" | "ring") =>
    [...m].sort((a, b) => a[0].localeCompare(b[0])).map(([name, days]) => ({ name, source, days: [...days].sort() }));
  return [...list(own, "own"), ...list(ring, "ring")];
}

/** The runs of at least REPORT_GAP_MIN_DAYS days in [from, to] without any data. */
export function gapsOf(withData: ReadonlySet<string>, from: string, to: string): ReportMethods["gaps"] {
  const out: ReportMethods["gaps"] = [];
  let start: string | null = null;
  const close = (end: string) => {
    if (start === null) return;
    const days = diffDays(start, end) + 1;
    if (days >= REPORT_GAP_MIN_DAYS) out.push({ from: start, to: end, days });
    start = null;
  };
  for (let d = from; d <= to; d = addDays(d, 1)) {
    if (withData.has(d)) close(addDays(d, -1));
    else start ??= d;
  }
  close(to);
  return out;
}

/** How the baselines, normal ranges and signals are computed, as Methods says it (docs/report.md has the details). */
export const REPORT_METHOD_NOTES: readonly string[] = [
  "Each mean is the mean of the days with a value in the period; days without one are gaps, never zeros.",
  "Normal range of the nightly physiology (lowest heart rate, HRV, temperature deviation, breathing rate): " +
    "the mean ± 0.5 SD of the 60 nights before each day (HRV on the log scale), shown once 21 of those nights have a value.",
  "Baseline of the scores, SpO2, breathing disturbances and activity: the mean ± 2 SD of the 90 days before each day (at least 30 with a value).",
  "The summary reads each mean against the range of the period's first day, built only from the days before the period.",
  "Early warning: a night is flagged when a marker leaves the median of the nights 3 to 60 before it " +
    "(temperature +0.5 °C, lowest heart rate +4 bpm, HRV 2 SD lower, breathing rate +1.5 a minute); " +
    "one flag is 'watch', two at once or a heart-rate flag on two nights running 'likely'.",
  "Sleep debt: hours short of the sleep need over the last 14 nights. Regularity: the Sleep Regularity Index over 14 days, " +
    "and the standard deviation of bedtime and wake time.",
  `The ${SEVEN_DAY_MEAN.label} of a chart needs at least 4 of the 7 days.`,
];
