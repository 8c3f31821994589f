// A Report (lib/metrics/report.ts) made up by a test, every section filled, for the renderers'
// tests (the PDF's, the page's): deterministic values from the day's index alone, so it is the
// same in any time zone and with any RING_EMULATOR_SEED. Not a report of stored data: the
// numbers' agreement with the read API is lib/services/report's test.
import { addDays, dayRange } from "@/lib/days";
import {
  DEFAULT_REPORT_SECTIONS,
  REPORT_DISCLAIMER,
  comparedPeriod,
  type Report,
  type ReportChart,
  type ReportCompare,
  type ReportMean,
  type ReportSection,
} from "@/lib/metrics/report";
import type { Num } from "@/lib/metrics/stats";
import { SEVEN_DAY_MEAN } from "@/lib/metrics/trend-layers";

export type ReportFixtureOptions = {
  from: string;
  days: number;
  name?: string;
  compare?: ReportCompare;
  sections?: ReportSection[];
  /** a note's text (notes may hold anything a person typed) */
  noteText?: string;
  /** the history still downloading (default: all in) */
  downloading?: Report["downloading"];
};

const wave = (i: number, period: number, amp: number) => amp * Math.sin((2 * Math.PI * i) / period);
/** every 11th day has no value, as a ring left on the charger */
const gap = (i: number, v: number): Num => (i % 11 === 5 ? null : Math.round(v * 100) / 100);
const avg7 = (xs: Num[]): Num[] =>
  xs.map((_, i) => {
    const w = xs.slice(Math.max(0, i - 6), i + 1).filter((v): v is number => v !== null);
    return w.length >= 4 ? Math.round((w.reduce((s, v) => s + v, 0) / w.length) * 100) / 100 : null;
  });

function lineChart(id: string, group: "sleep" | "physiology" | "activity" | "scores", title: string, unit: string, days: number, base: number, amp: number) {
  const value = Array.from({ length: days }, (_, i) => gap(i, base + wave(i, 9, amp) + wave(i, 31, amp / 2)));
  return {
    kind: "line",
    id,
    group,
    metric: id,
    title,
    unit,
    decimals: 1,
    value,
    avg7: avg7(value),
    low: value.map((_, i) => (i < 3 ? null : base - amp)),
    high: value.map((_, i) => (i < 3 ? null : base + amp)),
    rangeSource: "normal_range",
    caption: `${title}: each day's value, its ${SEVEN_DAY_MEAN.label} and the normal range built from the 60 nights before each day.`,
  } as ReportChart;
}

function mean(metric: ReportMean["metric"], label: string, unit: string, decimals: number, value: number, compare: boolean): ReportMean {
  return {
    metric,
    label,
    unit,
    decimals,
    mean: value,
    n: 80,
    compared: compare ? { mean: value - 1.25, n: 84, delta: 1.25 } : null,
    range: { source: "normal_range", low: value - 3, high: value + 3, state: "within" },
  };
}

/** A report over `days` days from `from`, every section asked for filled with made-up values. */
export function reportFixture(opts: ReportFixtureOptions): Report {
  const { from, days } = opts;
  const to = addDays(from, days - 1);
  const compare = opts.compare ?? "previous";
  const sections = opts.sections ?? [...DEFAULT_REPORT_SECTIONS, "notes", "tags", "cycle"];
  const query = { from, to, compare, sections };
  const compared = comparedPeriod(query);
  const has = (s: ReportSection) => sections.includes(s);
  const c = compared !== null;
  const allDays = dayRange(from, to);
  const flagged = allDays.filter((_, i) => i % 29 === 13);
  const stage = (base: number) => Array.from({ length: days }, (_, i) => gap(i, base + wave(i, 7, base / 5)));
  return {
    query,
    generatedAt: `${addDays(to, 1)}T08:00:00.000Z`,
    title: `Ringside report, ${from} to ${to}`,
    lang: "en",
    downloading: opts.downloading ?? null,
    ...(has("summary")
      ? {
          summary: {
            person: { name: opts.name ?? "Ada Fixture", age: 41 },
            from,
            to,
            days,
            compare,
            compared,
            nightsWithData: days - Math.floor(days / 11),
            daysWithData: days - Math.floor(days / 11) + 1,
            scores: [
              mean("sleep.score", "Sleep score", "", 1, 81.4, c),
              mean("readiness.score", "Readiness score", "", 1, 77.6, c),
              mean("activity.score", "Activity score", "", 1, 84.2, c),
            ],
            physiology: [
              mean("night.lowest_heart_rate", "Lowest heart rate", "bpm", 1, 52.3, c),
              mean("night.average_hrv", "HRV", "ms", 1, 48.7, c),
              mean("readiness.temperature_deviation", "Temperature deviation", "°C", 2, 0.13, c),
              mean("night.average_breath", "Breathing rate", "/min", 1, 14.6, c),
              mean("spo2.spo2_average", "SpO2", "%", 1, 96.4, c),
              mean("spo2.breathing_disturbance_index", "Breathing disturbance index", "", 1, 3.2, c),
            ],
            earlyWarning: {
              nights: flagged.map((d, i) => ({
                day: d,
                level: i % 2 ? "likely" : "watch",
                flags: i % 2 ? 2 : 1,
                muted: i === 2,
                markers: i % 2 ? ["temperature_deviation", "resting_heart_rate"] : ["hrv"],
              })),
              watch: flagged.filter((_, i) => i % 2 === 0).length,
              likely: flagged.filter((_, i) => i % 2 === 1).length,
              judged: days - 3,
            },
            sleepDebt: { mean: 1.7, n: days - 7, last: { day: to, value: 2.1 } },
            sleepNeed: {
              day: to,
              needH: 7.4,
              needSource: "estimated",
              needNights: 84,
              needRange: { lowH: 7.13, highH: 7.67 },
              needAtLeast: false,
              needSourceText: "estimated from 84 nights",
            },
            regularity: {
              sri: { mean: 78.3, n: days - 7, last: { day: to, value: 80 } },
              bedtimeSdMin: { mean: 41.5, n: days - 7, last: null },
              wakeTimeSdMin: { mean: 33.2, n: days - 7, last: null },
            },
          },
        }
      : {}),
    ...(has("charts")
      ? {
          charts: [
            lineChart("sleep.total_sleep_duration", "sleep", "Sleep duration", "h", days, 7.2, 0.6),
            {
              kind: "stages",
              id: "sleep.stages",
              group: "sleep",
              title: "Sleep stages",
              unit: "h",
              deep: stage(1.2),
              rem: stage(1.6),
              light: stage(3.9),
              awake: stage(0.6),
              caption: "Each night's stages, stacked: deep, REM, light and awake time, in hours.",
            },
            {
              kind: "timing",
              id: "sleep.timing",
              group: "sleep",
              title: "Sleep timing",
              unit: "h",
              bedtime: Array.from({ length: days }, (_, i) => gap(i, -1 + wave(i, 7, 0.5))),
              wakeTime: Array.from({ length: days }, (_, i) => gap(i, 7 + wave(i, 7, 0.4))),
              caption: "Each night's bedtime and wake time.",
            },
            lineChart("night.lowest_heart_rate", "physiology", "Lowest heart rate", "bpm", days, 52, 3),
            lineChart("night.average_hrv", "physiology", "HRV", "ms", days, 48, 8),
            lineChart("readiness.temperature_deviation", "physiology", "Temperature deviation", "°C", days, 0.1, 0.3),
            lineChart("activity.steps", "activity", "Steps", "", days, 8500, 2500),
            lineChart("signals.training_load", "activity", "Training load", "", days, 1, 0.3),
            lineChart("sleep.score", "scores", "Sleep score", "", days, 80, 6),
          ] as ReportChart[],
        }
      : {}),
    ...(has("events")
      ? {
          events: {
            workouts: [
              { type: "running", label: "Running", count: 12, minutes: 540, calories: 5400 },
              { type: "cycling", label: "Cycling", count: 4, minutes: 320, calories: null },
            ],
            sessions: [{ type: "breathing", label: "Breathing", count: 6, minutes: 45, calories: null }],
            restModes: [{ from: addDays(from, 20), to: addDays(from, 23) }],
          },
        }
      : {}),
    ...(has("methods")
      ? {
          methods: {
            device: { hardware: "gen3", firmware: "2.9.1" },
            sources: { synced: true, imported: false },
            units: [
              { label: "Heart rate", unit: "beats per minute (bpm)" },
              { label: "Temperature deviation", unit: "degrees Celsius (°C)" },
            ],
            baselines: ["Normal ranges are the mean ± 1 standard deviation of the 60 nights before each night, with at least 14 values."],
            gaps: [{ from: addDays(from, 40), to: addDays(from, 43), days: 4 }],
            disclaimer: REPORT_DISCLAIMER,
          },
        }
      : {}),
    ...(has("notes") ? { notes: [{ day: addDays(from, 2), text: opts.noteText ?? "Slept badly after a late flight.", tags: ["travel"] }] } : {}),
    ...(has("tags")
      ? {
          tags: [
            { name: "alcohol", source: "own" as const, days: allDays.filter((_, i) => i % 10 === 3) },
            { name: "sauna", source: "ring" as const, days: allDays.filter((_, i) => i % 20 === 7) },
          ],
        }
      : {}),
    ...(has("cycle") ? { cycle: { tracked: false } } : {}),
  };
}
