import "server-only";
import { z } from "zod";
import { DATA_KINDS, type DataKind } from "@/lib/auth/api-scopes";
import { METRICS, NUMERIC_METRICS, type MetricDef, type MetricId } from "@/lib/metrics/catalog";
import { ACTIVITY_CLASSES, SLEEP_PHASES, type ActivityClass, type SleepPhase } from "@/lib/metrics/day-detail";
import { SYNC_COLLECTIONS, type SyncCollection } from "@/lib/resources";
import { SIGNAL_KINDS, type SignalKind } from "@/lib/signals/catalog";
import { EARLY_WARNING_LEVELS, EARLY_WARNING_MARKERS, FLAG_RULES, type EarlyWarningLevel, type FlagRule, type Marker } from "@/lib/signals/early-warning";
import type { LoadZone } from "@/lib/signals/training-load";
import { stateCycleSchema } from "@/lib/api/v1/responses-cycle";
import { MISSING_REASONS, type MissingReason } from "@/lib/metrics/missing-night";

// The read API's answers as zod schemas, for the OpenAPI document (lib/api/v1/openapi.ts) only:
// the routes answer with the contract's types (lib/api/contract.ts), and
// lib/api/v1/responses.test.ts holds each schema's type equal to its contract type, so neither
// can change without the other (tsc fails). The contract test validates real answers against
// the generated document.

const enumOf = <T extends string>(values: readonly T[]) => z.enum(values as [T, ...T[]]);
const uniq = <T>(xs: readonly T[]) => [...new Set(xs)];

const day = z.iso.date();
const instant = z.iso.datetime();
const num = z.number().nullable();
export const metricIdEnum = enumOf<MetricId>(METRICS.map((m) => m.id));
export const numericMetricIdEnum = enumOf<MetricId>(NUMERIC_METRICS.map((m) => m.id));
const metricId = metricIdEnum;
export const dataKindEnum = enumOf<DataKind>(DATA_KINDS);
const dataKind = dataKindEnum;
const collection = enumOf<SyncCollection>(SYNC_COLLECTIONS);
const flag = z.enum(["high", "low"]).nullable();
const meanResult = z.object({ mean: num, n: z.number().int() });
const rows = z.record(z.string(), z.unknown());

export const errorEnvelopeSchema = z.object({ error: z.object({ code: z.string(), message: z.string(), details: z.unknown().optional() }) });

const collectionRange = z.object({ collection, firstDay: day.nullable(), lastDay: day.nullable(), count: z.number().int() });

export const catalogResponseSchema = z.object({
  ranges: z.array(collectionRange),
  firstDay: day.nullable(),
  lastDay: day.nullable(),
  kinds: z.array(z.object({ kind: dataKind, label: z.string(), granted: z.boolean() })),
  metrics: z.array(
    z.object({
      id: metricId,
      label: z.string(),
      short: z.string(),
      group: z.string(),
      unit: enumOf<MetricDef["unit"]>(uniq(METRICS.map((m) => m.unit))),
      kind: enumOf<MetricDef["kind"]>(uniq(METRICS.map((m) => m.kind))),
      direction: z.enum(["higher", "lower", "neutral"]),
      decimals: z.number().int(),
      dataKind,
      description: z.string().nullable(),
      categories: z.array(z.object({ value: z.string(), label: z.string() })).nullable(),
      readable: z.boolean(),
    }),
  ),
});

const numericSeries = z.object({
  kind: z.literal("numeric"),
  metric: z.string(),
  from: day,
  to: day,
  value: z.array(num),
  avg7: z.array(num),
  avg30: z.array(num),
  baseMean: z.array(num),
  baseLow: z.array(num),
  baseHigh: z.array(num),
  flag: z.array(flag),
  run: z.array(z.boolean()),
  summary: z.object({ n: z.number().int(), mean: num, min: num, max: num, days: z.number().int(), anomalies: z.number().int() }),
  comparison: z.object({ days: z.number().int(), current: meanResult, previous: meanResult, delta: num, deltaPct: num, minCount: z.number().int() }),
  normal: z
    .object({
      transform: z.enum(["none", "ln"]),
      windowDays: z.number().int(),
      baseDays: z.number().int(),
      minNights: z.number().int(),
      k: z.number(),
      low: z.array(num),
      high: z.array(num),
      base7: z.array(num),
      state: z.array(z.enum(["below", "within", "above"]).nullable()),
      nights: z.number().int(),
    })
    .optional()
    .describe(
      "the personal normal range of a nightly physiology metric: the band (mean ± k sd of the windowDays nights before each day) " +
        "and the baseDays-day mean read against it; no band before minNights nights",
    ),
});
const categorySeries = z.object({
  kind: z.literal("category"),
  metric: z.string(),
  from: day,
  to: day,
  value: z.array(z.string().nullable()),
  counts: z.record(z.string(), z.number().int()),
  n: z.number().int(),
  previousCounts: z.record(z.string(), z.number().int()),
  previousN: z.number().int(),
  summary: z.object({ n: z.number().int(), days: z.number().int(), mostCommon: z.string().nullable() }),
});
export const seriesResponseSchema = z.discriminatedUnion("kind", [numericSeries, categorySeries]);

const span = { startMin: num, endMin: num };
const dayWorkout = z.object({
  id: z.string(),
  day,
  activity: z.string(),
  intensity: z.string().nullable(),
  source: z.string().nullable(),
  start: z.string().nullable(),
  end: z.string().nullable(),
  duration: num,
  calories: num,
  distance: num,
  label: z.string().nullable(),
  ...span,
});
const daySession = z.object({
  id: z.string(),
  type: z.string().nullable(),
  mood: z.string().nullable(),
  start: z.string().nullable(),
  end: z.string().nullable(),
  duration: num,
  ...span,
});
const restMode = z.object({ id: z.string(), startDay: day, endDay: day.nullable(), ongoing: z.boolean() }).nullable();
const bedtime = z.object({
  day,
  status: z.string().nullable(),
  recommendation: z.string().nullable(),
  window: z.object({ start: z.string(), end: z.string() }).nullable(),
});

export const todayResponseSchema = z.object({
  day: day.nullable(),
  metrics: z.partialRecord(
    metricId,
    z.object({
      id: metricId,
      day,
      value: num,
      prior7Mean: num,
      prior7N: z.number().int(),
      delta: num,
      baseline: z.object({ mean: z.number(), low: z.number(), high: z.number(), n: z.number().int() }).nullable(),
      flag,
      spark: z.array(num),
    }),
  ),
  categories: z.partialRecord(metricId, z.object({ id: metricId, day, value: z.string().nullable(), recent: z.array(z.string().nullable()) })),
  age: z.number().nullable(),
  ranges: z.array(collectionRange),
  records: z.object({
    workouts: z.array(dayWorkout),
    sessions: z.array(daySession),
    bedtime: bedtime.nullable(),
    restMode,
    battery: z.object({ level: num, charging: z.boolean().nullable(), at: instant }).nullable(),
    ring: z
      .object({ hardware: z.string().nullable(), design: z.string().nullable(), color: z.string().nullable(), size: num, firmware: z.string().nullable() })
      .nullable(),
  }),
});

export const daysResponseSchema = z.object({
  from: day,
  to: day,
  metrics: z.array(metricId),
  days: z.array(z.object({ day, values: z.partialRecord(metricId, z.union([z.number(), z.string()]).nullable()) })),
});

const samplePoint = z.object({ t: z.number(), value: num });
const segment = <K extends string>(kinds: readonly K[]) => z.object({ kind: enumOf<K>(kinds), start: z.number(), end: z.number() });
const minutes = <K extends string>(kinds: readonly K[]) => z.object(Object.fromEntries(kinds.map((k) => [k, z.number()])) as Record<K, z.ZodNumber>);
const ringTagRef = z.object({ id: z.string(), name: z.string(), color: z.string() });
const dayNote = z.object({
  day,
  text: z.string(),
  tags: z.array(z.object({ id: z.number().int(), name: z.string(), color: z.string().nullable() })),
  ringTags: z.array(ringTagRef),
});

const missingReason = enumOf<MissingReason>(MISSING_REASONS).nullable();

export const dayResponseSchema = z.object({
  day,
  previous: day.nullable(),
  next: day.nullable(),
  daily: z.record(z.string(), rows),
  raw: z.record(z.string(), z.unknown()),
  periods: z.array(
    z.object({
      documentId: z.string(),
      type: z.string().nullable(),
      role: z.enum(["main", "nap", "other"]),
      bedtimeStart: z.string().nullable(),
      bedtimeEnd: z.string().nullable(),
      anchor: day.nullable(),
      start: num,
      end: num,
      row: rows,
      hypnogram: z.object({ segments: z.array(segment<SleepPhase>(SLEEP_PHASES)), minutes: minutes<SleepPhase>(SLEEP_PHASES) }).nullable(),
      heartRate: z.array(samplePoint),
      hrv: z.array(samplePoint),
    }),
  ),
  activity: z
    .object({ anchor: day, segments: z.array(segment<ActivityClass>(ACTIVITY_CLASSES)), minutes: minutes<ActivityClass>(ACTIVITY_CLASSES) })
    .nullable(),
  note: dayNote.nullable(),
  records: z.object({
    offsetMinutes: z.number().describe("the person's UTC offset that day, minutes"),
    heartRate: z.array(z.object({ t: z.number().describe("minutes from local midnight"), bpm: z.number(), source: z.string().nullable() })),
    workouts: z.array(dayWorkout),
    sessions: z.array(daySession),
    ringTags: z.array(
      z.object({
        id: z.string(),
        tagId: z.string().nullable(),
        name: z.string(),
        code: z.string().nullable(),
        comment: z.string().nullable(),
        time: z.string().nullable(),
      }),
    ),
    bedtime: bedtime.nullable(),
    restMode,
  }),
  missing_reason: missingReason.describe(
    "why the day has no main sleep, the likeliest reason from what Ringside holds (docs/signals.md): " +
      "charger (the battery readings of the night are in the charger), " +
      "worn_no_sleep (heart-rate samples through the night, no sleep period), rest_mode, not_synced (the sleep periods are not downloaded for the day yet), " +
      "not_recorded_yet (today or yesterday: the ring service has nothing yet), not_worn; null when the day has a main sleep (or the token cannot read sleep)",
  ),
});

export const calendarResponseSchema = z.object({
  metric: metricId,
  from: day,
  to: day,
  thresholds: z.array(z.number()),
  days: z.array(
    z.object({
      day,
      status: z.enum(["value", "not_worn", "missing", "not_synced", "before_history"]),
      value: num,
      level: num,
      missingReason: missingReason.describe(
        "why the day has no main sleep, as the day's missing_reason; null when it has one (or the token cannot read sleep)",
      ),
    }),
  ),
});

const strength = z.enum(["negligible", "weak", "moderate", "strong"]);
const correlation = z.object({ r: z.number(), n: z.number().int(), slope: z.number(), intercept: z.number(), ciLow: num, ciHigh: num });
const lag = z.union([z.literal(0), z.literal(1)]);

export const correlationResponseSchema = z.object({
  x: metricId,
  y: metricId,
  lag,
  from: day,
  to: day,
  points: z.array(z.object({ day, x: z.number(), y: z.number() })),
  correlation: correlation.extend({ strength }).nullable(),
});

export const strongestResponseSchema = z.object({
  from: day,
  to: day,
  minN: z.number().int(),
  results: z.array(correlation.extend({ x: metricId, y: metricId, lag, strength })),
});

const tag = z.object({ id: z.number().int(), name: z.string(), color: z.string().nullable(), days: z.number().int() });
const ringTag = z.object({ id: z.string(), name: z.string(), color: z.string(), days: z.number().int(), source: z.literal("ring") });
export const tagsResponseSchema = z.object({ tags: z.array(tag), ringTags: z.array(ringTag) });

const group = meanResult.extend({ sd: num });
export const tagComparisonResponseSchema = z.object({
  tag: z.union([tag, ringTag]),
  metric: metricId,
  lag,
  from: day.nullable(),
  to: day.nullable(),
  comparison: z.object({ tagged: group, untagged: group, difference: num, differencePct: num, lag: z.number().int() }).nullable(),
});

export const notesResponseSchema = z.object({ from: day, to: day, days: z.array(dayNote) });

export const syncStatusResponseSchema = z.object({
  running: z.boolean(),
  lastSuccessAt: instant.nullable(),
  rateLimitedUntil: instant.nullable(),
  account: z.object({ status: z.string() }).nullable(),
  collections: z.array(
    z.object({
      collection,
      label: z.string(),
      status: z.string(),
      unit: z.enum(["documents", "samples"]).describe("what documents counts: documents, or a time series' samples"),
      documents: z.number().int(),
      backfillDone: z.boolean(),
      progress: z.number(),
      lastSuccessAt: instant.nullable(),
      newestDay: day.nullable(),
      oldestDay: day
        .nullable()
        .describe("how far back the stored history reaches (the oldest stored day); while backfillDone is false, the back-fill is still reaching further back"),
    }),
  ),
});

const stateValue = z
  .object({
    value: z.number(),
    unit: enumOf<MetricDef["unit"]>(uniq(METRICS.map((m) => m.unit))),
    day,
    ageDays: z.number().int().describe("days before the person's today (0: today)"),
  })
  .nullable();
export const stateResponseSchema = z.object({
  today: day.describe("the person's today, in the time zone of Settings → Alerts (UTC until saved)"),
  timeZone: z.string(),
  scores: z.object({ readiness: stateValue, sleep: stateValue, activity: stateValue }),
  night: z.object({ lowestHeartRate: stateValue, averageHrv: stateValue, breathingRate: stateValue, temperatureDeviation: stateValue }),
  battery: z
    .object({
      level: z.number(),
      charging: z.boolean().nullable(),
      inCharger: z.boolean().nullable(),
      at: instant.describe("when the ring read it"),
      freshUntil: instant.describe("after this the reading tells nothing about the ring now"),
    })
    .nullable(),
  bedtime: z
    .object({
      day: day.describe("the evening the guidance is for"),
      start: z.string().nullable().describe("the window's start, ISO 8601 at the ring's UTC offset; null: no window that night"),
      end: z.string().nullable(),
      status: z.string().nullable(),
      recommendation: z.string().nullable(),
      ageDays: z.number().int(),
    })
    .nullable(),
  cycle: stateCycleSchema,
});

const marker = enumOf<Marker>(EARLY_WARNING_MARKERS);
const byMarker = <T extends z.ZodType>(t: T) => z.object(Object.fromEntries(EARLY_WARNING_MARKERS.map((m) => [m, t])) as Record<Marker, T>);
const markerBaseline = z.object({ median: z.number(), sd: num, nights: z.number().int() }).nullable();

const earlyWarningSignal = z.object({
  kind: z.literal("early_warning"),
  level: enumOf<EarlyWarningLevel>(EARLY_WARNING_LEVELS).nullable().describe("null: too few markers with a value and a baseline to judge"),
  status: z.enum(["ok", "insufficient_history", "no_data"]),
  muted: z.boolean().describe("rest mode was on that day: shown, never alerted"),
  flags: z.number().int(),
  heartRateTwoNights: z.boolean(),
  inputs: byMarker(num).describe("the night's values: °C, bpm (the night's lowest), ms, breaths a minute"),
  baseline: byMarker(markerBaseline).describe("the median of nights d−60 … d−3 (HRV: in ms; its sd on the ln scale)"),
  markers: z.array(
    z.object({
      marker,
      delta: num.describe("the change against the baseline (HRV: a fraction, −0.3 = 30 % lower)"),
      threshold: num.describe("the change at which tonight's value flags (HRV: the 2-SD fraction)"),
      flagged: z.boolean(),
      mean3: num.describe("temperature: the mean change of the last 3 nights"),
      rule: z
        .object({
          name: enumOf<FlagRule>(FLAG_RULES).describe(
            "change: tonight's change; mean3: the temperature's 3-night mean; " +
              "two_nights: the resting heart rate two nights in a row; sd: HRV more than 2 SD below",
          ),
          value: z.number().describe("what the rule read: tonight's change, the 3-night mean, or HRV's change as a fraction"),
          threshold: z.number().describe("the rule's threshold, in the same unit"),
          previous: z.number().optional().describe("two_nights: the night before's change"),
        })
        .nullable()
        .describe("the rule that flagged the marker (docs/signals.md, early warning); null when it did not flag"),
    }),
  ),
  cycle_adjusted: z
    .boolean()
    .optional()
    .describe(
      "judged against the person's cycle phase (cycle tracking on, enough nights of each phase); " +
        "present only for a token with the cycle kind while the person tracks their cycle",
    ),
  cycle_correction: z.string().optional().describe("the phase correction made, in words (only when cycle_adjusted)"),
});
const sleepDebtSignal = z.object({
  kind: z.literal("sleep_debt"),
  value: num.describe("hours owed over the last 14 nights"),
  unit: z.literal("h"),
  status: z.enum(["ok", "no_data"]),
  inputs: z.object({ nights: z.array(num).describe("each night's sleep in hours, last night first"), nightsWithData: z.number().int() }),
  baseline: z.object({
    needH: z.number().describe("the sleep need the debt is measured against, hours"),
    needSource: z.enum(["setting", "estimated", "default"]),
    needNights: z.number().int().describe("the nights the estimate read (estimated), or had so far (default); 0 for the setting"),
    needRange: z
      .object({ lowH: z.number(), highH: z.number() })
      .nullable()
      .describe("how sure the estimate is: the need lies within lowH … highH hours (a 95 % profile-likelihood range); null for the setting and the default"),
    needAtLeast: z
      .boolean()
      .describe("the nights never reached the point where more sleep stops helping: the need is at least needH, and the debt a lower bound"),
    needSourceText: z.string().describe('the source in words: "your setting", "estimated from 84 nights", "default"'),
  }),
});
const regularitySignal = z.object({
  kind: z.literal("regularity"),
  value: num.describe("the Sleep Regularity Index of the 14 days ending that day"),
  unit: z.literal("index"),
  status: z.enum(["ok", "no_data"]),
  inputs: z.object({ dayPairs: z.number().int(), spreadNights: z.number().int(), workNights: z.number().int(), freeNights: z.number().int() }),
  baseline: z.object({ freeDays: z.array(z.number().int()) }),
  spread: z
    .object({ bedtime: num, bedtimeSdMin: num, wakeTime: num, wakeTimeSdMin: num })
    .describe("mean clock times (hours after midnight) and their sd (minutes)"),
  socialJetLag: z
    .object({ hours: num, midSleepWork: num, midSleepFree: num, chronotype: num })
    .describe("hours; mid-sleep and chronotype (MSF_sc) as hours after midnight"),
});
const trainingLoadSignal = z.object({
  kind: z.literal("training_load"),
  value: num.describe("the acute:chronic ratio (EWMA 7 and 28 days)"),
  zone: enumOf<LoadZone>(["below", "within", "above", "well_above"]).nullable(),
  status: z.enum(["ok", "insufficient_history", "no_data"]),
  inputs: z
    .object({
      load: num,
      activity: num,
      workouts: num,
      acute: num,
      daysWithData: z.number().int(),
      vo2Max: num,
      vo2MaxDay: day.nullable(),
    })
    .describe("MET-minutes: the day's load, the ring's activity and the workouts' estimate, and the acute load; the latest VO2 max"),
  baseline: z.object({ chronic: num }),
});

export const signalsResponseSchema = z.object({
  from: day,
  to: day,
  kinds: z.array(enumOf<SignalKind>(SIGNAL_KINDS)),
  settings: z.object({ sleepNeedMinutes: z.number().int().nullable(), freeDays: z.array(z.number().int()) }),
  days: z.array(z.object({ day, signals: z.array(z.discriminatedUnion("kind", [earlyWarningSignal, sleepDebtSignal, regularitySignal, trainingLoadSignal])) })),
});
