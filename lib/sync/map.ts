import "server-only";
import type { z } from "zod";
import {
  RING_DOCUMENT_SCHEMAS,
  RING_ENUMS,
  type RingCollection,
  type RingDailyActivity,
  type RingDailyCardiovascularAge,
  type RingDailyReadiness,
  type RingDailyResilience,
  type RingDailySleep,
  type RingDailySpo2,
  type RingDailyStress,
  type RingSleepPeriod,
} from "@/lib/ring/schemas";

// Pure: one document from the ring service → one database row (typed columns + raw JSON).
// Contributors are flattened into columns of the same name (prisma/schema.prisma). A value of
// one of the spec's closed lists that Ringside does not know (RING_ENUMS) keeps the document:
// its column is stored as null (unknown; charts show a gap) and the value is reported in
// `unknown` for the caller to log once (lib/sync/unknown-values.ts).

export type CellValue = string | number | null;
/** A row for one of the ring data tables; keys are column names. */
export type DocumentRow = Record<string, CellValue> & { userId: string; documentId: string | null; day: string; raw: string; syncedAt: string };

/** A closed-list value Ringside does not know yet: stored as unknown (null column). */
export type UnknownValue = { field: string; value: string };

export type MapResult =
  | { ok: true; row: DocumentRow; unknown?: UnknownValue[] }
  | { ok: false; error: string; documentId: string | null; day: string | null; raw: string };

const n = (v: number | null | undefined): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
const s = (v: string | null | undefined): string | null => (typeof v === "string" ? v : null);

type Columns = Record<string, CellValue>;

const MAPPERS: { [C in RingCollection]: (doc: z.infer<(typeof RING_DOCUMENT_SCHEMAS)[C]>) => Columns } = {
  daily_activity: (d: RingDailyActivity) => ({
    timestamp: s(d.timestamp),
    score: n(d.score),
    active_calories: n(d.active_calories),
    total_calories: n(d.total_calories),
    target_calories: n(d.target_calories),
    steps: n(d.steps),
    equivalent_walking_distance: n(d.equivalent_walking_distance),
    target_meters: n(d.target_meters),
    meters_to_target: n(d.meters_to_target),
    average_met_minutes: n(d.average_met_minutes),
    high_activity_met_minutes: n(d.high_activity_met_minutes),
    medium_activity_met_minutes: n(d.medium_activity_met_minutes),
    low_activity_met_minutes: n(d.low_activity_met_minutes),
    sedentary_met_minutes: n(d.sedentary_met_minutes),
    high_activity_time: n(d.high_activity_time),
    medium_activity_time: n(d.medium_activity_time),
    low_activity_time: n(d.low_activity_time),
    sedentary_time: n(d.sedentary_time),
    resting_time: n(d.resting_time),
    non_wear_time: n(d.non_wear_time),
    inactivity_alerts: n(d.inactivity_alerts),
    class_5_min: s(d.class_5_min),
    meet_daily_targets: n(d.contributors.meet_daily_targets),
    move_every_hour: n(d.contributors.move_every_hour),
    recovery_time: n(d.contributors.recovery_time),
    stay_active: n(d.contributors.stay_active),
    training_frequency: n(d.contributors.training_frequency),
    training_volume: n(d.contributors.training_volume),
  }),
  daily_readiness: (d: RingDailyReadiness) => ({
    timestamp: s(d.timestamp),
    score: n(d.score),
    temperature_deviation: n(d.temperature_deviation),
    temperature_trend_deviation: n(d.temperature_trend_deviation),
    activity_balance: n(d.contributors.activity_balance),
    body_temperature: n(d.contributors.body_temperature),
    hrv_balance: n(d.contributors.hrv_balance),
    previous_day_activity: n(d.contributors.previous_day_activity),
    previous_night: n(d.contributors.previous_night),
    recovery_index: n(d.contributors.recovery_index),
    resting_heart_rate: n(d.contributors.resting_heart_rate),
    sleep_balance: n(d.contributors.sleep_balance),
    sleep_regularity: n(d.contributors.sleep_regularity),
  }),
  daily_sleep: (d: RingDailySleep) => ({
    timestamp: s(d.timestamp),
    score: n(d.score),
    deep_sleep: n(d.contributors.deep_sleep),
    efficiency: n(d.contributors.efficiency),
    latency: n(d.contributors.latency),
    rem_sleep: n(d.contributors.rem_sleep),
    restfulness: n(d.contributors.restfulness),
    timing: n(d.contributors.timing),
    total_sleep: n(d.contributors.total_sleep),
  }),
  daily_spo2: (d: RingDailySpo2) => ({
    spo2_average: n(d.spo2_percentage?.average),
    breathing_disturbance_index: n(d.breathing_disturbance_index),
  }),
  daily_stress: (d: RingDailyStress) => ({
    stress_high: n(d.stress_high),
    recovery_high: n(d.recovery_high),
    day_summary: s(d.day_summary),
  }),
  daily_resilience: (d: RingDailyResilience) => ({
    level: s(d.level),
    sleep_recovery: n(d.contributors.sleep_recovery),
    daytime_recovery: n(d.contributors.daytime_recovery),
    stress: n(d.contributors.stress),
  }),
  daily_cardiovascular_age: (d: RingDailyCardiovascularAge) => ({
    vascular_age: n(d.vascular_age),
    pulse_wave_velocity: n(d.pulse_wave_velocity),
  }),
  sleep: (d: RingSleepPeriod) => ({
    type: s(d.type),
    bedtime_start: s(d.bedtime_start),
    bedtime_end: s(d.bedtime_end),
    period: n(d.period),
    time_in_bed: n(d.time_in_bed),
    total_sleep_duration: n(d.total_sleep_duration),
    awake_time: n(d.awake_time),
    deep_sleep_duration: n(d.deep_sleep_duration),
    light_sleep_duration: n(d.light_sleep_duration),
    rem_sleep_duration: n(d.rem_sleep_duration),
    latency: n(d.latency),
    efficiency: n(d.efficiency),
    average_breath: n(d.average_breath),
    average_heart_rate: n(d.average_heart_rate),
    lowest_heart_rate: n(d.lowest_heart_rate),
    average_hrv: n(d.average_hrv),
    restless_periods: n(d.restless_periods),
    readiness_score_delta: n(d.readiness_score_delta),
    sleep_score_delta: n(d.sleep_score_delta),
    low_battery_alert: typeof d.low_battery_alert === "boolean" ? (d.low_battery_alert ? 1 : 0) : null,
  }),
};

/** The typed columns of each collection's table (besides userId, documentId, day, raw, syncedAt). */
export const TYPED_COLUMNS: { [C in RingCollection]: string[] } = (() => {
  const sample = {
    daily_activity: MAPPERS.daily_activity({ contributors: {} } as RingDailyActivity),
    daily_readiness: MAPPERS.daily_readiness({ contributors: {} } as RingDailyReadiness),
    daily_sleep: MAPPERS.daily_sleep({ contributors: {} } as RingDailySleep),
    daily_spo2: MAPPERS.daily_spo2({} as RingDailySpo2),
    daily_stress: MAPPERS.daily_stress({} as RingDailyStress),
    daily_resilience: MAPPERS.daily_resilience({ contributors: {} } as RingDailyResilience),
    daily_cardiovascular_age: MAPPERS.daily_cardiovascular_age({} as RingDailyCardiovascularAge),
    sleep: MAPPERS.sleep({} as RingSleepPeriod),
  };
  return Object.fromEntries(Object.entries(sample).map(([k, v]) => [k, Object.keys(v)])) as { [C in RingCollection]: string[] };
})();

/** A short, value-free description of why a document failed validation (paths and messages). */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 8)
    .map((i) => `${i.path.join(".") || "(document)"}: ${i.message}`)
    .join("; ")
    .slice(0, 500);
}

function peek(doc: unknown, key: "id" | "day"): string | null {
  if (doc && typeof doc === "object" && !Array.isArray(doc)) {
    const v = (doc as Record<string, unknown>)[key];
    if (typeof v === "string" && v.length > 0 && v.length <= 256) return v;
  }
  return null;
}

/**
 * Validates one document of `collection` and maps it to a row, or says why it cannot be
 * stored. `rawText` is the document's JSON as received (else it is serialised). Never throws.
 */
export function mapDocument(collection: RingCollection, doc: unknown, userId: string, syncedAt: string, rawText?: string): MapResult {
  let raw: string;
  if (rawText !== undefined) raw = rawText;
  else {
    try {
      raw = JSON.stringify(doc) ?? "null";
    } catch {
      raw = "null";
    }
  }
  const schema = RING_DOCUMENT_SCHEMAS[collection];
  const parsed = schema.safeParse(doc);
  if (!parsed.success) {
    return { ok: false, error: describeIssues(parsed.error), documentId: peek(doc, "id"), day: peek(doc, "day"), raw };
  }
  const data = parsed.data as { id?: string | null; day: string };
  const mapper = MAPPERS[collection] as (d: unknown) => Columns;
  const row: DocumentRow = {
    userId,
    documentId: data.id ?? null,
    day: data.day,
    ...mapper(parsed.data),
    raw,
    syncedAt,
  };
  const unknown = blankUnknownValues(collection, row);
  return unknown ? { ok: true, row, unknown } : { ok: true, row };
}

/**
 * Nulls the columns of RING_ENUMS fields whose value is not a known one; returns what was
 * unknown (undefined when everything was known: the common case allocates nothing).
 */
function blankUnknownValues(collection: RingCollection, row: DocumentRow): UnknownValue[] | undefined {
  const lists = (RING_ENUMS as Partial<Record<RingCollection, Record<string, readonly string[]>>>)[collection];
  if (!lists) return undefined;
  let unknown: UnknownValue[] | undefined;
  for (const field in lists) {
    const value = row[field];
    if (typeof value !== "string" || lists[field]!.includes(value)) continue;
    row[field] = null;
    (unknown ??= []).push({ field, value });
  }
  return unknown;
}

/** The key a document is unique by: its id, or its day for cardiovascular age. */
export function documentKey(collection: RingCollection, row: { documentId: string | null; day: string }): string {
  return collection === "daily_cardiovascular_age" ? row.day : (row.documentId ?? row.day);
}
