import "server-only";
import { z } from "zod";
import { reportCycleSchema } from "@/lib/api/v1/responses-cycle";
import { metricIdEnum as metricId } from "@/lib/api/v1/responses";
import {
  REPORT_CHART_GROUPS,
  REPORT_COMPARE_MODES,
  REPORT_SECTIONS,
  REPORT_SUMMARY_METRICS,
  type ReportChartGroup,
  type ReportCompare,
  type ReportSection,
  type ReportSummaryMetricId,
} from "@/lib/metrics/report";

// The report's answer (GET /api/v1/report?format=json) as a zod schema, for the OpenAPI document only
// (like lib/api/v1/responses.ts; lib/api/v1/responses.test.ts holds its type equal to the contract's).

const enumOf = <T extends string>(values: readonly T[]) => z.enum(values as [T, ...T[]]);
const day = z.iso.date();
const instant = z.iso.datetime();
const num = z.number().nullable();

// The report (GET /api/v1/report?format=json): lib/metrics/report.ts's Report
const reportMetric = enumOf<ReportSummaryMetricId>(REPORT_SUMMARY_METRICS);
const reportMean = z.object({
  metric: reportMetric,
  label: z.string(),
  unit: z.string(),
  decimals: z.number().int(),
  mean: num.describe("the mean of the period's days with a value (the series' summary.mean)"),
  n: z.number().int(),
  compared: z.object({ mean: num, n: z.number().int(), delta: num }).nullable().describe("the compared period's mean and the change (null: no comparison)"),
  range: z
    .object({ source: z.enum(["normal_range", "baseline"]), low: z.number(), high: z.number(), state: z.enum(["below", "within", "above"]) })
    .nullable()
    .describe("the range of the period's first day, from the days before it, and where the mean lies against it"),
});
const reportFigure = z.object({ mean: num, n: z.number().int(), last: z.object({ day, value: z.number() }).nullable() });
const reportSummary = z.object({
  person: z.object({ name: z.string().nullable(), age: z.number().nullable() }),
  from: day,
  to: day,
  days: z.number().int(),
  compare: enumOf<ReportCompare>(REPORT_COMPARE_MODES),
  compared: z.object({ from: day, to: day }).nullable(),
  nightsWithData: z.number().int(),
  daysWithData: z.number().int(),
  scores: z.array(reportMean),
  physiology: z.array(reportMean),
  earlyWarning: z.object({
    nights: z.array(z.object({ day, level: z.enum(["watch", "likely"]), flags: z.number().int(), muted: z.boolean(), markers: z.array(z.string()) })),
    watch: z.number().int(),
    likely: z.number().int(),
    judged: z.number().int(),
  }),
  sleepDebt: reportFigure.describe("hours owed over 14 nights, each day's"),
  sleepNeed: z
    .object({
      day,
      needH: z.number(),
      needSource: z.enum(["setting", "estimated", "default"]),
      needNights: z.number().int(),
      needRange: z.object({ lowH: z.number(), highH: z.number() }).nullable(),
      needAtLeast: z.boolean(),
      needSourceText: z.string(),
    })
    .nullable()
    .describe("the sleep need the period's last debt was measured against: as a sleep-debt row of /api/v1/signals gives it"),
  regularity: z.object({ sri: reportFigure, bedtimeSdMin: reportFigure, wakeTimeSdMin: reportFigure }),
});
const chartGroup = enumOf<ReportChartGroup>(REPORT_CHART_GROUPS);
const slots = z.array(num).describe("one slot per day from `from` to `to` (null: no value)");
const reportChart = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("line"),
    id: z.string(),
    group: chartGroup,
    metric: z.union([metricId, z.literal("signals.training_load")]),
    title: z.string(),
    unit: z.string(),
    decimals: z.number().int(),
    value: slots,
    avg7: slots,
    low: slots,
    high: slots,
    rangeSource: z.enum(["normal_range", "baseline"]).nullable(),
    caption: z.string(),
  }),
  z.object({
    kind: z.literal("stages"),
    id: z.literal("sleep.stages"),
    group: z.literal("sleep"),
    title: z.string(),
    unit: z.literal("h"),
    deep: slots,
    rem: slots,
    light: slots,
    awake: slots,
    caption: z.string(),
  }),
  z.object({
    kind: z.literal("timing"),
    id: z.literal("sleep.timing"),
    group: z.literal("sleep"),
    title: z.string(),
    unit: z.literal("h"),
    bedtime: slots,
    wakeTime: slots,
    caption: z.string(),
  }),
]);
const reportCount = z.object({ type: z.string(), label: z.string(), count: z.number().int(), minutes: z.number(), calories: num });

export const reportResponseSchema = z.object({
  query: z.object({ from: day, to: day, compare: enumOf<ReportCompare>(REPORT_COMPARE_MODES), sections: z.array(enumOf<ReportSection>(REPORT_SECTIONS)) }),
  generatedAt: instant,
  title: z.string(),
  lang: z.string(),
  downloading: z
    .object({ from: day.nullable().describe("the first day not downloaded yet") })
    .nullable()
    .describe("the person's history is still downloading (a back-fill is running): the report's charts may miss days from `from` on; null when it is all in"),
  summary: reportSummary.optional(),
  charts: z.array(reportChart).optional(),
  events: z
    .object({
      workouts: z.array(reportCount),
      sessions: z.array(reportCount),
      restModes: z.array(z.object({ from: day, to: day.nullable() })),
    })
    .optional(),
  methods: z
    .object({
      device: z.object({ hardware: z.string().nullable(), firmware: z.string().nullable() }).nullable(),
      sources: z.object({ synced: z.boolean(), imported: z.boolean() }),
      units: z.array(z.object({ label: z.string(), unit: z.string() })),
      baselines: z.array(z.string()),
      gaps: z.array(z.object({ from: day, to: day, days: z.number().int() })),
      disclaimer: z.string(),
    })
    .optional(),
  notes: z.array(z.object({ day, text: z.string(), tags: z.array(z.string()) })).optional(),
  tags: z
    .array(z.object({ name: z.string(), source: z.enum(["own", "ring"]), days: z.array(day) }))
    .describe("the person's tags (and the ring app's, for a token that may read them) with the days each was on")
    .optional(),
  cycle: reportCycleSchema.optional(),
});
