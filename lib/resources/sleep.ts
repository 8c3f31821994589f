import { closedList, defineResource, type ColumnDef, type MetricSpec } from "@/lib/resources/define";
import { READINESS_CONTRIBUTORS } from "@/lib/resources/daily-readiness";

const ints = <const K extends string>(names: readonly K[]): Array<ColumnDef<K>> => names.map((name) => ({ name, type: "int" as const }));

type NightColumn =
  | "total_sleep_duration"
  | "time_in_bed"
  | "efficiency"
  | "deep_sleep_duration"
  | "rem_sleep_duration"
  | "light_sleep_duration"
  | "awake_time"
  | "latency"
  | "average_heart_rate"
  | "lowest_heart_rate"
  | "average_hrv"
  | "average_breath"
  | "restless_periods"
  | "sleep_score_delta"
  | "readiness_score_delta";

const NIGHT = "Night (main sleep)";
const night = (column: NightColumn, spec: Omit<MetricSpec, "from" | "group">): MetricSpec<NightColumn> => ({ ...spec, from: { night: column }, group: NIGHT });

/**
 * PublicModifiedSleepModel: one sleep period (a night, a nap, a rest). A day may have several;
 * the charts read the day's main sleep (lib/metrics/series.ts pickMainSleep) and its naps.
 */
export const sleepPeriods = defineResource({
  name: "sleep",
  openapiModel: "PublicModifiedSleepModel",
  table: "sleep_period",
  kind: "period",
  // the account export's name for these documents (the API's `sleep`)
  exportFile: "sleepmodel",
  label: "Sleep periods",
  color: "var(--sleep)",
  sharedLabel: "Sleep periods (stages, heart rate, HRV)",
  scope: "daily",
  // end needs +1 day; one report says the start is exclusive too
  window: { param: "date", start: "conflicting", end: "exclusive" },
  schema: (k) =>
    k.document({
      bedtime_start: k.text,
      bedtime_end: k.text,
      low_battery_alert: k.z.boolean(),
      period: k.num,
      time_in_bed: k.num,
      type: k.openEnum,
      average_breath: k.optNum,
      average_heart_rate: k.optNum,
      average_hrv: k.optNum,
      awake_time: k.optNum,
      deep_sleep_duration: k.optNum,
      efficiency: k.optNum,
      heart_rate: k.sample.nullish(),
      hrv: k.sample.nullish(),
      latency: k.optNum,
      light_sleep_duration: k.optNum,
      lowest_heart_rate: k.optNum,
      movement_30_sec: k.optText,
      readiness: k.z
        .looseObject({
          contributors: k.optNumbers(READINESS_CONTRIBUTORS).nullish(),
          score: k.optNum,
          temperature_deviation: k.optNum,
          temperature_trend_deviation: k.optNum,
        })
        .nullish(),
      readiness_score_delta: k.optNum,
      rem_sleep_duration: k.optNum,
      restless_periods: k.optNum,
      sleep_phase_5_min: k.optText,
      sleep_phase_30_sec: k.optText,
      sleep_score_delta: k.optNum,
      total_sleep_duration: k.optNum,
      // documented, not stored in columns (read by name from the account export)
      sleep_algorithm_version: k.openEnum,
      sleep_analysis_reason: k.openEnum,
      ring_id: k.optText,
      app_sleep_phase_5_min: k.optText,
    }),
  columns: [
    {
      name: "type",
      type: "text",
      categories: closedList([
        ["deleted", "Deleted"],
        ["sleep", "Sleep"],
        ["long_sleep", "Long sleep"],
        ["late_nap", "Late nap"],
        ["rest", "Rest"],
      ]),
    },
    { name: "bedtime_start", type: "text" },
    { name: "bedtime_end", type: "text" },
    ...ints([
      "period",
      "time_in_bed",
      "total_sleep_duration",
      "awake_time",
      "deep_sleep_duration",
      "light_sleep_duration",
      "rem_sleep_duration",
      "latency",
      "efficiency",
    ]),
    { name: "average_breath", type: "float" },
    { name: "average_heart_rate", type: "float" },
    ...ints(["lowest_heart_rate", "average_hrv", "restless_periods", "readiness_score_delta", "sleep_score_delta"]),
    { name: "low_battery_alert", type: "bool" },
  ],
  metrics: {
    "night.total_sleep_duration": night("total_sleep_duration", {
      label: "Total sleep",
      unit: "s",
      direction: "higher",
      kind: "duration",
      durationIn: "h",
      isHeadline: true,
    }),
    "night.time_in_bed": night("time_in_bed", { label: "Time in bed", unit: "s", direction: "neutral", kind: "duration", durationIn: "h" }),
    "night.efficiency": night("efficiency", { label: "Sleep efficiency", unit: "%", direction: "higher", kind: "measure" }),
    "night.deep_sleep_duration": night("deep_sleep_duration", { label: "Deep sleep", unit: "s", direction: "higher", kind: "duration", durationIn: "h" }),
    "night.rem_sleep_duration": night("rem_sleep_duration", { label: "REM sleep", unit: "s", direction: "higher", kind: "duration", durationIn: "h" }),
    "night.light_sleep_duration": night("light_sleep_duration", { label: "Light sleep", unit: "s", direction: "neutral", kind: "duration", durationIn: "h" }),
    "night.awake_time": night("awake_time", { label: "Awake time", unit: "s", direction: "lower", kind: "duration", durationIn: "min" }),
    "night.latency": night("latency", { label: "Sleep latency", unit: "s", direction: "neutral", kind: "duration", durationIn: "min" }),
    "night.average_heart_rate": night("average_heart_rate", {
      label: "Average heart rate",
      short: "Avg HR",
      unit: "bpm",
      direction: "lower",
      kind: "measure",
      decimals: 1,
    }),
    "night.lowest_heart_rate": night("lowest_heart_rate", {
      label: "Lowest heart rate",
      short: "Lowest HR",
      unit: "bpm",
      direction: "lower",
      kind: "measure",
      isHeadline: true,
    }),
    "night.average_hrv": night("average_hrv", { label: "Average HRV", short: "HRV", unit: "ms", direction: "higher", kind: "measure", isHeadline: true }),
    "night.average_breath": night("average_breath", { label: "Breathing rate", unit: "/min", direction: "neutral", kind: "measure", decimals: 1 }),
    "night.restless_periods": night("restless_periods", { label: "Restless periods", unit: "count", direction: "lower", kind: "count" }),
    "night.sleep_score_delta": night("sleep_score_delta", { label: "Sleep score delta", unit: "score", direction: "neutral", kind: "count", isSigned: true }),
    "night.readiness_score_delta": night("readiness_score_delta", {
      label: "Readiness score delta",
      unit: "score",
      direction: "neutral",
      kind: "count",
      isSigned: true,
    }),
    "naps.total_sleep": {
      from: { naps: "total_sleep" },
      label: "Nap sleep",
      group: "Naps",
      unit: "s",
      direction: "neutral",
      kind: "duration",
      durationIn: "min",
      description: "Sleep in naps (periods other than the main sleep).",
    },
    "naps.count": { from: { naps: "count" }, label: "Naps", group: "Naps", unit: "count", direction: "neutral", kind: "count" },
  },
});
