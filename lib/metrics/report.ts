// The report for a doctor or a coach (issue 45): one period's summary, charts, events and
// methods, as the page (/report), the PDF and the read API (/api/v1/report?format=json) show
// it. Pure: the types and the section and compare vocabularies; the functions that build a
// Report (lib/metrics/report-build.ts) read series the service (lib/services/report.ts) has already read through the same
// services as the read API, so every figure here equals the read API's for the same period.
// docs/report.md says what each figure is and how it is computed.
import { addDays, diffDays } from "@/lib/days";
import type { MetricId } from "@/lib/metrics/catalog";
import type { Num } from "@/lib/metrics/stats";

// ---------------------------------------------------------------------------------------
// The query
// ---------------------------------------------------------------------------------------

/** The report's sections, in the order it shows them. */
export const REPORT_SECTIONS = ["summary", "charts", "events", "methods", "notes", "tags", "cycle"] as const;
export type ReportSection = (typeof REPORT_SECTIONS)[number];

/**
 * The sections a new report includes: everything but the person's own words (their notes and
 * their tags) and the cycle, each opt-in. Only a report with the cycle section judges the nights
 * and draws the normal ranges against the cycle's phase (lib/services/report.ts).
 */
export const DEFAULT_REPORT_SECTIONS: readonly ReportSection[] = ["summary", "charts", "events", "methods"];

export const REPORT_SECTION_LABELS: Record<ReportSection, string> = {
  summary: "Summary",
  charts: "Charts",
  events: "Events",
  methods: "Methods",
  notes: "Notes",
  tags: "Tags",
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

/** The sleep need on a day, as the sleep-debt row's baseline gives it (lib/signals/signal-days.ts). */
export type ReportSleepNeed = {
  day: string;
  needH: number;
  needSource: "setting" | "estimated" | "default";
  needNights: number;
  needRange: { lowH: number; highH: number } | null;
  needAtLeast: boolean;
  needSourceText: string;
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
  /** the sleep need the period's last debt was measured against (null without the sleep debt) */
  sleepNeed: ReportSleepNeed | null;
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
  restModes: Array<{ from: string; to: string | null }>;
};

/** The tags section: the person's tags and the ring app's, each with the days it was on. */
export type ReportTag = { name: string; source: "own" | "ring"; days: string[] };

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
  /** the person's history is still downloading: the first day not here yet (null: not known); null when it is all in */
  downloading: { from: string | null } | null;
  summary?: ReportSummary;
  /** the days the charts' slots stand for (from … to) */
  charts?: ReportChart[];
  events?: ReportEvents;
  methods?: ReportMethods;
  notes?: ReportNote[];
  tags?: ReportTag[];
  cycle?: ReportCycle;
};

/** Whether a chart has no value to draw in its period (it says "No data in this period" instead). */
export function isEmptyChart(c: ReportChart): boolean {
  const none = (xs: readonly Num[]) => xs.every((v) => v === null || !Number.isFinite(v));
  switch (c.kind) {
    case "line":
      return none(c.value);
    case "stages":
      return none(c.deep) && none(c.rem) && none(c.light) && none(c.awake);
    case "timing":
      return none(c.bedtime) && none(c.wakeTime);
  }
}

/** The line at the top of a report drawn while the history is still downloading. */
export function downloadingLine(d: NonNullable<Report["downloading"]>, formatDay: (day: string) => string): string {
  return d.from ? `History still downloading: data from ${formatDay(d.from)} on.` : "History still downloading.";
}

/** A gap worth naming in Methods: this many days in a row without any data. */
export const REPORT_GAP_MIN_DAYS = 3;

/** Where each figure is explained (docs/report.md, served like the other docs). */
export const REPORT_DOCS_PATH = "/docs/report";

export const REPORT_DISCLAIMER =
  "This report summarises data recorded by a consumer ring and computed by Ringside. It is not a diagnosis and not a medical device's output.";
