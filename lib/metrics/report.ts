// The report for a doctor or a coach (issue 45): one period's summary, charts, events and
// methods, as the page (/report), the PDF and the read API (/api/v1/report?format=json) show
// it. Pure: the types, the section and compare vocabularies, and the functions that build a
// Report from series the service (lib/services/report.ts) has already read through the same
// services as the read API, so every figure here equals the read API's for the same period.
// docs/report.md says what each figure is and how it is computed.
import { addDays, diffDays } from "@/lib/days";
import type { MetricDef, MetricId } from "@/lib/metrics/catalog";
import type { NumericSeries } from "@/lib/metrics/series";
import type { Num } from "@/lib/metrics/stats";
import { SEVEN_DAY_MEAN } from "@/lib/metrics/trend-layers";

// ---------------------------------------------------------------------------------------
// The query
// ---------------------------------------------------------------------------------------

/** The report's sections, in the order it shows them. */
export const REPORT_SECTIONS = ["summary", "charts", "events", "methods", "notes", "cycle"] as const;
export type ReportSection = (typeof REPORT_SECTIONS)[number];

/** The sections a new report includes: everything but the person's notes and the cycle (opt-in). */
export const DEFAULT_REPORT_SECTIONS: readonly ReportSection[] = ["summary", "charts", "events", "methods"];

export const REPORT_SECTION_LABELS: Record<ReportSection, string> = {
  summary: "Summary",
  charts: "Charts",
  events: "Events",
  methods: "Methods",
  notes: "Notes",
  cycle: "Cycle",
};

/** What the period is compared with: nothing, the period just before it, or the same days a year earlier. */
export const REPORT_COMPARE_MODES = ["none", "previous", "year"] as const;
export type ReportCompare = (typeof REPORT_COMPARE_MODES)[number];

export const REPORT_COMPARE_LABELS: Record<ReportCompare, string> = {
  none: "No comparison",
  previous: "The period before",
  year: "The same period a year earlier",
};

/** The periods the chooser offers: the last 30 or 90 days, a calendar month, or any range. */
export const REPORT_PERIODS = ["30d", "90d", "month", "custom"] as const;
export type ReportPeriod = (typeof REPORT_PERIODS)[number];

/** The longest period a report covers, in days (a leap year). */
export const REPORT_MAX_DAYS = 366;

/** A report's query, as the schema (lib/schemas/report.ts) gives it: `from` ≤ `to`, at most REPORT_MAX_DAYS days. */
export type ReportQuery = {
  from: string;
  to: string;
  compare: ReportCompare;
  /** the sections included, in REPORT_SECTIONS order, without duplicates */
  sections: ReportSection[];
};

/** The compared period of a query: the days just before, or the same days a year earlier (null: no comparison). */
export function comparedPeriod(q: Pick<ReportQuery, "from" | "to" | "compare">): { from: string; to: string } | null {
  if (q.compare === "none") return null;
  if (q.compare === "previous") {
    const len = diffDays(q.from, q.to) + 1;
    return { from: addDays(q.from, -len), to: addDays(q.from, -1) };
  }
  return { from: sameDayYearEarlier(q.from), to: sameDayYearEarlier(q.to) };
}

/** The same calendar day a year earlier (29 February → 28 February). */
export function sameDayYearEarlier(day: string): string {
  const y = Number(day.slice(0, 4)) - 1;
  const md = day.slice(5);
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  return `${String(y).padStart(4, "0")}-${md === "02-29" && !leap ? "02-28" : md}`;
}

/** The query as URL parameters, in one order (the page's link, the PDF's, the share link's). */
export function reportSearchParams(q: ReportQuery): URLSearchParams {
  return new URLSearchParams({ from: q.from, to: q.to, compare: q.compare, sections: q.sections.join(",") });
}

/** The PDF's file name: ringside-report-2026-01-01-to-2026-03-31.pdf */
export function reportFileName(q: Pick<ReportQuery, "from" | "to">): string {
  return `ringside-report-${q.from}-to-${q.to}.pdf`;
}

// ---------------------------------------------------------------------------------------
// The report
// ---------------------------------------------------------------------------------------

/** The metrics whose period means the summary shows: the scores, then the nightly physiology. */
export const REPORT_SCORE_METRICS = ["sleep.score", "readiness.score", "activity.score"] as const satisfies readonly MetricId[];
export const REPORT_PHYSIOLOGY_METRICS = [
  "night.lowest_heart_rate",
  "night.average_hrv",
  "readiness.temperature_deviation",
  "night.average_breath",
  "spo2.spo2_average",
  "spo2.breathing_disturbance_index",
] as const satisfies readonly MetricId[];
export const REPORT_SUMMARY_METRICS = [...REPORT_SCORE_METRICS, ...REPORT_PHYSIOLOGY_METRICS] as const;
export type ReportSummaryMetricId = (typeof REPORT_SUMMARY_METRICS)[number];

/** The metrics charted besides the summary's: the night's sleep and its stages, steps and active calories. */
export const REPORT_SLEEP_CHART_METRIC = "night.total_sleep_duration" as const satisfies MetricId;
export const REPORT_STAGE_METRICS = [
  "night.deep_sleep_duration",
  "night.rem_sleep_duration",
  "night.light_sleep_duration",
  "night.awake_time",
] as const satisfies readonly MetricId[];
export const REPORT_ACTIVITY_CHART_METRICS = ["activity.steps", "activity.active_calories"] as const satisfies readonly MetricId[];
/** Every metric the report reads (its summary, its charts, its methods' units). */
export const REPORT_METRICS: readonly MetricId[] = [
  ...REPORT_SUMMARY_METRICS,
  REPORT_SLEEP_CHART_METRIC,
  ...REPORT_STAGE_METRICS,
  ...REPORT_ACTIVITY_CHART_METRICS,
];

/** Where a metric's normal range comes from: the personal normal range (nightly physiology) or the 90-day baseline band. */
export type ReportRangeSource = "normal_range" | "baseline";
export type ReportRangeState = "below" | "within" | "above";

/** One mean of the summary: the period's, the compared period's, and the person's normal range going into the period. */
export type ReportMean = {
  metric: ReportSummaryMetricId;
  label: string;
  unit: string;
  decimals: number;
  /** the mean of the days with a value (the read API's summary.mean of /api/v1/metrics/:metric) */
  mean: number | null;
  /** days with a value */
  n: number;
  /** the compared period's mean and its change (null without a comparison or without enough values) */
  compared: { mean: number | null; n: number; delta: number | null } | null;
  /** the range of the period's first day (built from the days before the period) and where the mean lies against it */
  range: { source: ReportRangeSource; low: number; high: number; state: ReportRangeState } | null;
};

export type ReportFlaggedNight = {
  day: string;
  level: "watch" | "likely";
  flags: number;
  /** rest mode was on: shown, not alerted */
  muted: boolean;
  /** the markers that flagged that night (temperature_deviation, resting_heart_rate, hrv, breathing_rate) */
  markers: string[];
};

/** A figure over the period's days: its mean, the days it had a value, and its last value. */
export type ReportFigure = { mean: number | null; n: number; last: { day: string; value: number } | null };

export type ReportSummary = {
  /** the person as the report names them (their name or e-mail, null when unknown), age when shared */
  person: { name: string | null; age: number | null };
  from: string;
  to: string;
  days: number;
  compare: ReportCompare;
  compared: { from: string; to: string } | null;
  /** nights with a main sleep; days with any score */
  nightsWithData: number;
  daysWithData: number;
  scores: ReportMean[];
  physiology: ReportMean[];
  earlyWarning: { nights: ReportFlaggedNight[]; watch: number; likely: number; judged: number };
  /** sleep debt, hours (the signal's daily value) */
  sleepDebt: ReportFigure;
  regularity: {
    /** the Sleep Regularity Index (0–100) */
    sri: ReportFigure;
    /** standard deviation of bedtime and of wake time, minutes */
    bedtimeSdMin: ReportFigure;
    wakeTimeSdMin: ReportFigure;
  };
};

/** A chart's lines: one slot per day of the period (`from` … `to`), nulls for days without a value. */
export type ReportLineChart = {
  kind: "line";
  id: string;
  group: ReportChartGroup;
  metric: MetricId | "signals.training_load";
  title: string;
  unit: string;
  decimals: number;
  value: Num[];
  /** the 7-day mean (at least 4 of the 7 days) */
  avg7: Num[];
  /** the normal range of each day (null where there is none yet) */
  low: Num[];
  high: Num[];
  rangeSource: ReportRangeSource | null;
  /** what the chart shows, in words */
  caption: string;
};

/** The night's sleep stages, hours (main sleep). */
export type ReportStagesChart = {
  kind: "stages";
  id: "sleep.stages";
  group: "sleep";
  title: string;
  unit: "h";
  deep: Num[];
  rem: Num[];
  light: Num[];
  awake: Num[];
  caption: string;
};

/** The night's timing: bedtime and wake time as hours after the evening's midnight (−1.5 = 22:30, 7.25 = 07:15). */
export type ReportTimingChart = {
  kind: "timing";
  id: "sleep.timing";
  group: "sleep";
  title: string;
  unit: "h";
  bedtime: Num[];
  wakeTime: Num[];
  caption: string;
};

export const REPORT_CHART_GROUPS = ["sleep", "physiology", "activity", "scores"] as const;
export type ReportChartGroup = (typeof REPORT_CHART_GROUPS)[number];
export const REPORT_CHART_GROUP_LABELS: Record<ReportChartGroup, string> = {
  sleep: "Sleep",
  physiology: "Nightly physiology",
  activity: "Activity",
  scores: "Scores",
};

export type ReportChart = ReportLineChart | ReportStagesChart | ReportTimingChart;

export type ReportCount = { type: string; label: string; count: number; minutes: number; calories: number | null };

export type ReportEvents = {
  workouts: ReportCount[];
  sessions: ReportCount[];
  /** the person's tags and the ring app's, each with the days it was on */
  tags: Array<{ name: string; source: "own" | "ring"; days: string[] }>;
  restModes: Array<{ from: string; to: string | null }>;
};

export type ReportNote = { day: string; text: string; tags: string[] };

export type ReportMethods = {
  device: { hardware: string | null; firmware: string | null } | null;
  /** where the period's documents came from */
  sources: { synced: boolean; imported: boolean };
  units: Array<{ label: string; unit: string }>;
  /** how the baselines, normal ranges and signals are computed, in words (docs/report.md has the details) */
  baselines: string[];
  /** runs of at least REPORT_GAP_MIN_DAYS days without any data */
  gaps: Array<{ from: string; to: string; days: number }>;
  disclaimer: string;
};

/**
 * The cycle section: not tracked (the person's cycle tracking is off), or their cycles that
 * start in the period with their lengths and detected ovulations, and the next period's window
 * (status not_applicable: paused by hormonal contraception or pregnancy; insufficient_data: no
 * start known yet).
 */
export type ReportCycle =
  | { tracked: false }
  | {
      tracked: true;
      status: "not_applicable" | "insufficient_data" | "ok";
      message: string | null;
      cycles: Array<{ start: string; length: number | null; ovulation: string | null }>;
      prediction: { from: string; to: string; sd_days: number } | null;
    };

/** The report: what the query asked for, its sections (absent when left out). */
export type Report = {
  query: ReportQuery;
  /** when it was built (ISO instant) */
  generatedAt: string;
  title: string;
  /** the document's language (BCP 47) */
  lang: string;
  summary?: ReportSummary;
  /** the days the charts' slots stand for (from … to) */
  charts?: ReportChart[];
  events?: ReportEvents;
  methods?: ReportMethods;
  notes?: ReportNote[];
  cycle?: ReportCycle;
};

/** A gap worth naming in Methods: this many days in a row without any data. */
export const REPORT_GAP_MIN_DAYS = 3;

/** Where each figure is explained (docs/report.md, served like the other docs). */
export const REPORT_DOCS_PATH = "/docs/report";

export const REPORT_DISCLAIMER =
  "This report summarises data recorded by a consumer ring and computed by Ringside. It is not a diagnosis and not a medical device's output.";

// ---------------------------------------------------------------------------------------
// Building it (pure): from what the service read
// ---------------------------------------------------------------------------------------

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
): ReportEvents["tags"] {
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
