import "server-only";
import { clock } from "@/lib/clock";
import { getMetric, type MetricDef, type MetricId } from "@/lib/metrics/catalog";
import { groupByDay, pickMainSleep, toDense, type NumericSeries, type SleepPeriodLike } from "@/lib/metrics/series";
import { ROLLING_MIN_COUNT, rollingMean } from "@/lib/metrics/stats";
import { activityName } from "@/lib/metrics/workouts";
import {
  comparedPeriod,
  REPORT_ACTIVITY_CHART_METRICS,
  REPORT_DISCLAIMER,
  REPORT_METRICS,
  REPORT_PHYSIOLOGY_METRICS,
  REPORT_SCORE_METRICS,
  REPORT_SLEEP_CHART_METRIC,
  REPORT_STAGE_METRICS,
  REPORT_SUMMARY_METRICS,
  type Report,
  type ReportChart,
  type ReportCycle,
  type ReportEvents,
  type ReportMethods,
  type ReportNote,
  type ReportQuery,
  type ReportSummary,
  type ReportTag,
} from "@/lib/metrics/report";
import {
  clockHoursOn,
  countByType,
  flaggedNights,
  gapsOf,
  hoursOf,
  lineChart,
  REPORT_METHOD_NOTES,
  reportFigure,
  reportMean,
  tagsWithDays,
} from "@/lib/metrics/report-build";
import { getDaysWithDocuments, getDocumentRows, getPersonalAge, getRestModes, getRings, getSleepPeriodColumns } from "@/lib/db/queries/ring-data";
import { findUser } from "@/lib/db/queries/users";
import { listSyncStates } from "@/lib/db/queries/sync-state";
import { readImportState } from "@/lib/db/queries/imports";
import { getMetricSeries, getMetricValues } from "@/lib/services/metrics";
import { getSignals } from "@/lib/services/signals";
import { getCycle } from "@/lib/services/cycle";
import { listWorkouts } from "@/lib/services/records";
import { listNotes } from "@/lib/services/tags";
import type { Signal, SignalDay } from "@/lib/signals/signal-days";
import { SEVEN_DAY_MEAN } from "@/lib/metrics/trend-layers";
import { historyDownloading } from "@/lib/services/history";

// The report for a doctor or a coach (issue 45): read through the same services as the read API
// (the metrics' series, the signals, the workouts, the notes), so each of its means, counts and
// flagged nights equals what /api/v1/metrics/:metric, /api/v1/signals and the others answer for
// the same period. The maths and the shapes are lib/metrics/report.ts; docs/report.md says what
// each figure is. The page, the PDF, the share links and the read API all build it here.
//
// The report shares only what its person chose: their notes, their tags and their cycle are
// sections of their own, off unless chosen; without the cycle section nothing of it is drawn on
// (the flagged nights and the normal ranges are those of a person who does not track: a band
// that followed the phase would tell it), and the person is named only by the name they set.

type Range = { from: string; to: string };

const numeric = (s: Awaited<ReturnType<typeof getMetricSeries>>): NumericSeries => {
  if (s.kind !== "numeric") throw new Error(`the report charts numeric metrics only (${s.metric})`);
  return s;
};

/** Each metric's series over the period (and over the compared period), as the read API gives them. */
async function readSeries(userId: string, ids: readonly MetricId[], range: Range, cycle: boolean): Promise<Map<MetricId, NumericSeries>> {
  const out = new Map<MetricId, NumericSeries>();
  for (const id of ids) out.set(id, numeric(await getMetricSeries({ userId, metric: getMetric(id), ...range, cycle })));
  return out;
}

const signalOf = <K extends Signal["kind"]>(d: SignalDay, kind: K) => d.signals.find((s): s is Extract<Signal, { kind: K }> => s.kind === kind) ?? null;

/** The need of the period's last day with a sleep debt row. */
function sleepNeedOf(signals: readonly SignalDay[]): ReportSummary["sleepNeed"] {
  for (let k = signals.length - 1; k >= 0; k--) {
    const s = signalOf(signals[k]!, "sleep_debt");
    if (!s) continue;
    const b = s.baseline;
    return {
      day: signals[k]!.day,
      needH: b.needH,
      needSource: b.needSource,
      needNights: b.needNights,
      needRange: b.needRange,
      needAtLeast: b.needAtLeast,
      needSourceText: b.needSourceText,
    };
  }
  return null;
}

function summaryOf(opts: {
  q: ReportQuery;
  person: ReportSummary["person"];
  series: Map<MetricId, NumericSeries>;
  compared: Map<MetricId, NumericSeries> | null;
  signals: SignalDay[];
  daysWithData: number;
}): ReportSummary {
  const { q, series, compared, signals } = opts;
  const mean = (id: (typeof REPORT_SUMMARY_METRICS)[number]) => {
    const def = getMetric(id);
    return reportMean({ ...def, id }, series.get(id)!, compared?.get(id) ?? null);
  };
  const regularity = signals.map((d) => ({ day: d.day, r: signalOf(d, "regularity") }));
  return {
    person: opts.person,
    from: q.from,
    to: q.to,
    days: series.get(REPORT_SLEEP_CHART_METRIC)!.summary.days,
    compare: q.compare,
    compared: comparedPeriod(q),
    nightsWithData: series.get(REPORT_SLEEP_CHART_METRIC)!.summary.n,
    daysWithData: opts.daysWithData,
    scores: REPORT_SCORE_METRICS.map(mean),
    physiology: REPORT_PHYSIOLOGY_METRICS.map(mean),
    earlyWarning: flaggedNights(
      signals.flatMap((d) => {
        const s = signalOf(d, "early_warning");
        return s ? [{ day: d.day, level: s.level, flags: s.flags, muted: s.muted, flagged: s.markers.filter((m) => m.flagged).map((m) => m.marker) }] : [];
      }),
    ),
    sleepDebt: reportFigure(
      signals.map((d) => ({ day: d.day, value: signalOf(d, "sleep_debt")?.value ?? null })),
      2,
    ),
    sleepNeed: sleepNeedOf(signals),
    regularity: {
      sri: reportFigure(
        regularity.map((d) => ({ day: d.day, value: d.r?.value ?? null })),
        1,
      ),
      bedtimeSdMin: reportFigure(
        regularity.map((d) => ({ day: d.day, value: d.r?.spread.bedtimeSdMin ?? null })),
        0,
      ),
      wakeTimeSdMin: reportFigure(
        regularity.map((d) => ({ day: d.day, value: d.r?.spread.wakeTimeSdMin ?? null })),
        0,
      ),
    },
  };
}

/**
 * The name a report gives its person: a name Ringside knows, never an e-mail address (the ring
 * service gives no name, and an account may hold its address as one).
 */
function personName(user: { name: string | null; email: string | null } | null): string | null {
  const name = user?.name?.trim();
  if (!name || name.includes("@") || name.toLowerCase() === user?.email?.toLowerCase()) return null;
  return name;
}

/** How a chart's caption names its unit. */
const UNIT_WORDS: Record<string, string> = {
  s: "hours",
  score: "points out of 100",
  bpm: "beats a minute",
  ms: "milliseconds",
  "°C": "°C against your long-term norm",
  "/min": "breaths a minute",
  "%": "per cent",
  // the one count charted: the breathing disturbance index
  count: "disturbances per hour of sleep",
  steps: "steps",
  kcal: "kilocalories",
};
const rangeWords = (hasNormal: boolean) =>
  hasNormal ? "your normal range (mean ± 0.5 SD of the 60 nights before each day)" : "your baseline (mean ± 2 SD of the 90 days before each day)";
const captionOf = (m: MetricDef, what: string, hasNormal: boolean) =>
  `${what} each day, in ${UNIT_WORDS[m.unit] ?? m.unit}, with its ${SEVEN_DAY_MEAN.label} and ${rangeWords(hasNormal)}. Gaps are days without a value.`;

/** The charts: sleep (duration, stages, timing), the nightly physiology, activity (steps, active calories, training load), the scores. */
async function chartsOf(userId: string, q: ReportQuery, series: Map<MetricId, NumericSeries>, signals: SignalDay[]): Promise<ReportChart[]> {
  const line = (id: MetricId, group: Parameters<typeof lineChart>[0]["group"], what: string) => {
    const m = getMetric(id);
    const s = series.get(id)!;
    return lineChart({
      id,
      group,
      metric: id,
      title: m.label,
      unit: m.unit,
      decimals: m.decimals,
      series: s,
      hours: m.unit === "s",
      caption: captionOf(m, what, !!s.normal),
    });
  };
  const stages = await getMetricValues({ userId, metrics: REPORT_STAGE_METRICS.map(getMetric), ...q });
  const stage = (id: (typeof REPORT_STAGE_METRICS)[number]) => hoursOf(toDense(stages.get(id) ?? [], q.from, q.to) as Array<number | null>);
  const periods = await getSleepPeriodColumns<SleepPeriodLike & { day: string; bedtime_start: unknown; bedtime_end: unknown }>({
    userId,
    from: q.from,
    to: q.to,
    columns: ["type", "total_sleep_duration", "time_in_bed", "bedtime_start", "bedtime_end"],
  });
  const mains = [...groupByDay(periods)].map(([day, list]) => ({ day, main: pickMainSleep(list) }));
  const at = (col: "bedtime_start" | "bedtime_end") =>
    toDense(
      mains.map(({ day, main }) => ({ day, value: clockHoursOn(day, typeof main?.[col] === "string" ? main[col] : null) })),
      q.from,
      q.to,
    );
  const load = signals.map((d) => signalOf(d, "training_load")?.inputs.load ?? null);
  const loadAvg7 = rollingMean(load, 7, ROLLING_MIN_COUNT[7]).map((v) => (v === null ? null : Math.round(v * 10) / 10));
  return [
    line(REPORT_SLEEP_CHART_METRIC, "sleep", "Total sleep of the night's main sleep"),
    {
      kind: "stages",
      id: "sleep.stages",
      group: "sleep",
      title: "Sleep stages",
      unit: "h",
      deep: stage("night.deep_sleep_duration"),
      rem: stage("night.rem_sleep_duration"),
      light: stage("night.light_sleep_duration"),
      awake: stage("night.awake_time"),
      caption: "Hours of deep, REM and light sleep and of time awake in each night's main sleep. Gaps are nights without a main sleep.",
    },
    {
      kind: "timing",
      id: "sleep.timing",
      group: "sleep",
      title: "Sleep timing",
      unit: "h",
      bedtime: at("bedtime_start"),
      wakeTime: at("bedtime_end"),
      caption: "When each night's main sleep began (bedtime) and ended (wake time), on the clock the ring recorded that night.",
    },
    ...REPORT_PHYSIOLOGY_METRICS.map((id) => line(id, "physiology", getMetric(id).label)),
    ...REPORT_ACTIVITY_CHART_METRICS.map((id) => line(id, "activity", getMetric(id).label)),
    {
      kind: "line",
      id: "signals.training_load",
      group: "activity",
      metric: "signals.training_load",
      title: "Training load",
      unit: "load",
      decimals: 0,
      value: load,
      avg7: loadAvg7,
      low: load.map(() => null),
      high: load.map(() => null),
      rangeSource: null,
      caption:
        "Training load each day, in MET-minutes (the ring's medium and high activity, or the day's workouts when they add up to more), " +
        `with its ${SEVEN_DAY_MEAN.label}. No normal range is drawn.`,
    },
    ...REPORT_SCORE_METRICS.map((id) => line(id, "scores", getMetric(id).label)),
  ];
}

async function eventsOf(userId: string, q: ReportQuery): Promise<ReportEvents> {
  const range = { userId, from: q.from, to: q.to };
  const workouts = (await listWorkouts(range)).workouts;
  const sessions = await getDocumentRows({ ...range, collection: "session", columns: ["type", "duration"] });
  const restModes = (await getRestModes(range)).filter((m) => !(m.start_time && m.start_time === m.end_time));
  return {
    workouts: countByType(
      workouts.map((w) => ({ type: w.activity, seconds: w.duration, calories: w.calories })),
      activityName,
    ),
    sessions: countByType(
      sessions.map((s) => ({ type: typeof s.type === "string" ? s.type : "session", seconds: typeof s.duration === "number" ? s.duration : null })),
      activityName,
    ),
    restModes: restModes.map((m) => ({ from: m.day, to: m.end_day })),
  };
}

/** The tags section: the person's tags with their days, and the ring app's when the reader may read them. */
async function tagsOf(userId: string, q: ReportQuery, ringTags: boolean): Promise<ReportTag[]> {
  const notes = await listNotes({ userId, from: q.from, to: q.to });
  return tagsWithDays(ringTags ? notes : notes.map((n) => ({ ...n, ringTags: [] })));
}

async function notesOf(userId: string, q: ReportQuery): Promise<ReportNote[]> {
  return (await listNotes({ userId, from: q.from, to: q.to }))
    .filter((n) => n.text.trim() !== "")
    .map((n) => ({ day: n.day, text: n.text, tags: [...n.tags.map((t) => t.name), ...n.ringTags.map((t) => t.name)] }));
}

async function methodsOf(userId: string, q: ReportQuery, withData: ReadonlySet<string>): Promise<ReportMethods> {
  const ring = (await getRings(userId))[0] ?? null;
  const imported = await readImportState(userId);
  const units = REPORT_METRICS.filter((id) => !(REPORT_STAGE_METRICS as readonly MetricId[]).includes(id)).map((id) => {
    const m = getMetric(id);
    return { label: m.label, unit: m.unit === "s" ? "h" : m.unit };
  });
  return {
    device: ring ? { hardware: ring.hardware_type, firmware: ring.firmware_version } : null,
    sources: {
      synced: (await listSyncStates(userId)).some((s) => s.lastSuccessAt !== null),
      imported: !!imported && imported.status === "done" && !imported.dryRun,
    },
    units,
    baselines: [...REPORT_METHOD_NOTES],
    gaps: gapsOf(withData, q.from, q.to),
    disclaimer: REPORT_DISCLAIMER,
  };
}

/**
 * The report of one person for a query (the schema has checked it: lib/schemas/report.ts).
 * `ringTags` false: the tags section leaves out the ring app's tags (a token that may not read them).
 */
export async function buildReport(userId: string, q: ReportQuery, opts: { ringTags?: boolean } = {}): Promise<Report> {
  const has = new Set(q.sections);
  // the cycle is drawn on only when the person chose to share it (and while they track it)
  const cycle = has.has("cycle");
  const report: Report = {
    query: q,
    generatedAt: clock.date().toISOString(),
    title: `Ringside report, ${q.from} to ${q.to}`,
    lang: "en",
    downloading: await historyDownloading(userId),
  };
  const needsSeries = has.has("summary") || has.has("charts");
  const ids: MetricId[] = [...REPORT_SUMMARY_METRICS, REPORT_SLEEP_CHART_METRIC, ...(has.has("charts") ? REPORT_ACTIVITY_CHART_METRICS : [])];
  const series = needsSeries ? await readSeries(userId, ids, q, cycle) : new Map<MetricId, NumericSeries>();
  const signals = needsSeries ? (await getSignals({ userId, from: q.from, to: q.to, cycle })).days : [];
  const withData = has.has("summary") || has.has("methods") ? await getDaysWithDocuments({ userId, from: q.from, to: q.to }) : new Set<string>();
  if (has.has("summary")) {
    const cmp = comparedPeriod(q);
    const user = await findUser(userId);
    report.summary = summaryOf({
      q,
      person: { name: personName(user), age: await getPersonalAge(userId) },
      series,
      compared: cmp ? await readSeries(userId, REPORT_SUMMARY_METRICS, cmp, cycle) : null,
      signals,
      daysWithData: withData.size,
    });
  }
  if (has.has("charts")) report.charts = await chartsOf(userId, q, series, signals);
  if (has.has("events")) report.events = await eventsOf(userId, q);
  if (has.has("methods")) report.methods = await methodsOf(userId, q, withData);
  if (has.has("notes")) report.notes = await notesOf(userId, q);
  if (has.has("tags")) report.tags = await tagsOf(userId, q, opts.ringTags ?? true);
  if (has.has("cycle")) report.cycle = await cycleOf(userId, q);
  return report;
}

/** The cycle section: not tracked while tracking is off; else the cycles starting in the period and the next window. */
async function cycleOf(userId: string, q: ReportQuery): Promise<ReportCycle> {
  const c = await getCycle({ userId, from: q.from, to: q.to });
  if (c.status === "off") return { tracked: false };
  return {
    tracked: true,
    status: c.status,
    message: c.message,
    cycles: c.cycles.filter((x) => x.start >= q.from && x.start <= q.to).map((x) => ({ start: x.start, length: x.length, ovulation: x.ovulation })),
    prediction: c.prediction,
  };
}
