import "server-only";
import { z } from "zod";

// zod schemas for every payload Ringside reads from the ring service, after the OpenAPI
// document (reference/openapi-1.37.json). Tolerant on purpose (ARCHITECTURE "client parsers
// must accept what it allows"): unknown keys pass through (looseObject), optional keys may
// be missing or null (nullish). Fields the spec marks required stay required, except where
// the real service is known to differ (ring-api-facts §3): cardiovascular age without `id`,
// readiness without `sleep_regularity`. Time series inside documents (`met`, `heart_rate`,
// `hrv`) are checked for shape but not item by item: Ringside keeps them in `raw` only.

const isoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "must be a day YYYY-MM-DD");

/**
 * The closed lists of the spec that Ringside reads (collection → field → known values). The
 * service adds values over time (facts §3), so a value not listed here never sets a document
 * aside: the schema below accepts any string for these fields, lib/sync/map.ts stores an
 * unknown one as null (the raw JSON keeps it) and it is logged once per process.
 */
export const RING_ENUMS = {
  daily_stress: { day_summary: ["restored", "normal", "stressful"] },
  daily_resilience: { level: ["limited", "adequate", "solid", "strong", "exceptional"] },
  sleep: { type: ["deleted", "sleep", "long_sleep", "late_nap", "rest"] },
} as const satisfies Partial<Record<string, Record<string, readonly string[]>>>;

/** A field of one of RING_ENUMS' lists: any string (bounded), or null/missing. */
const openEnum = z.string().max(200).nullish();
const text = z.string();
const num = z.number();
const optNum = num.nullish();
const optText = text.nullish();

/**
 * PublicSample, checked loosely (items are not stored in columns): `items` must be an array,
 * passed through as it is (z.array would copy a day's 1,440 MET values per document).
 */
export const ringSampleSchema = z.looseObject({
  interval: num,
  items: z.custom<unknown[]>((v) => Array.isArray(v), { message: "must be an array" }),
  timestamp: text,
});

export const ringActivityContributorsSchema = z.looseObject({
  meet_daily_targets: optNum,
  move_every_hour: optNum,
  recovery_time: optNum,
  stay_active: optNum,
  training_frequency: optNum,
  training_volume: optNum,
});

export const ringReadinessContributorsSchema = z.looseObject({
  activity_balance: optNum,
  body_temperature: optNum,
  hrv_balance: optNum,
  previous_day_activity: optNum,
  previous_night: optNum,
  recovery_index: optNum,
  resting_heart_rate: optNum,
  sleep_balance: optNum,
  sleep_regularity: optNum,
});

export const ringSleepContributorsSchema = z.looseObject({
  deep_sleep: optNum,
  efficiency: optNum,
  latency: optNum,
  rem_sleep: optNum,
  restfulness: optNum,
  timing: optNum,
  total_sleep: optNum,
});

/** PublicDailyActivity */
export const ringDailyActivitySchema = z.looseObject({
  id: text.min(1),
  day: isoDay,
  timestamp: text,
  score: optNum,
  active_calories: num,
  average_met_minutes: num,
  contributors: ringActivityContributorsSchema,
  equivalent_walking_distance: num,
  high_activity_met_minutes: num,
  high_activity_time: num,
  inactivity_alerts: num,
  low_activity_met_minutes: num,
  low_activity_time: num,
  medium_activity_met_minutes: num,
  medium_activity_time: num,
  met: ringSampleSchema.nullish(),
  meters_to_target: num,
  non_wear_time: num,
  resting_time: num,
  sedentary_met_minutes: num,
  sedentary_time: num,
  steps: num,
  target_calories: num,
  target_meters: num,
  total_calories: num,
  class_5_min: optText,
});
export type RingDailyActivity = z.infer<typeof ringDailyActivitySchema>;

/** PublicDailyReadiness */
export const ringDailyReadinessSchema = z.looseObject({
  id: text.min(1),
  day: isoDay,
  timestamp: text,
  contributors: ringReadinessContributorsSchema,
  score: optNum,
  temperature_deviation: optNum,
  temperature_trend_deviation: optNum,
});
export type RingDailyReadiness = z.infer<typeof ringDailyReadinessSchema>;

/** PublicDailySleep */
export const ringDailySleepSchema = z.looseObject({
  id: text.min(1),
  day: isoDay,
  timestamp: text,
  contributors: ringSleepContributorsSchema,
  score: optNum,
});
export type RingDailySleep = z.infer<typeof ringDailySleepSchema>;

/** PublicDailySpO2 */
export const ringDailySpo2Schema = z.looseObject({
  id: text.min(1),
  day: isoDay,
  spo2_percentage: z.looseObject({ average: optNum }).nullish(),
  breathing_disturbance_index: optNum,
});
export type RingDailySpo2 = z.infer<typeof ringDailySpo2Schema>;

/** PublicDailyStress */
export const ringDailyStressSchema = z.looseObject({
  id: text.min(1),
  day: isoDay,
  stress_high: optNum,
  recovery_high: optNum,
  day_summary: openEnum,
});
export type RingDailyStress = z.infer<typeof ringDailyStressSchema>;

/** DailyResilienceModel */
export const ringDailyResilienceSchema = z.looseObject({
  id: text.min(1),
  day: isoDay,
  /** Required and non-null in the spec; read tolerantly (a missing level is stored as unknown too). */
  level: openEnum,
  contributors: z.looseObject({ sleep_recovery: num, daytime_recovery: num, stress: num }),
});
export type RingDailyResilience = z.infer<typeof ringDailyResilienceSchema>;

/** PublicDailyCardiovascularAge (`id` may be absent in real responses, facts §3.7) */
export const ringDailyCardiovascularAgeSchema = z.looseObject({
  id: text.min(1).nullish(),
  day: isoDay,
  vascular_age: optNum,
  pulse_wave_velocity: optNum,
});
export type RingDailyCardiovascularAge = z.infer<typeof ringDailyCardiovascularAgeSchema>;

/** PublicModifiedSleepModel (a sleep period) */
export const ringSleepPeriodSchema = z.looseObject({
  id: text.min(1),
  day: isoDay,
  bedtime_start: text,
  bedtime_end: text,
  low_battery_alert: z.boolean(),
  period: num,
  time_in_bed: num,
  type: openEnum,
  average_breath: optNum,
  average_heart_rate: optNum,
  average_hrv: optNum,
  awake_time: optNum,
  deep_sleep_duration: optNum,
  efficiency: optNum,
  heart_rate: ringSampleSchema.nullish(),
  hrv: ringSampleSchema.nullish(),
  latency: optNum,
  light_sleep_duration: optNum,
  lowest_heart_rate: optNum,
  movement_30_sec: optText,
  readiness: z
    .looseObject({
      contributors: ringReadinessContributorsSchema.nullish(),
      score: optNum,
      temperature_deviation: optNum,
      temperature_trend_deviation: optNum,
    })
    .nullish(),
  readiness_score_delta: optNum,
  rem_sleep_duration: optNum,
  restless_periods: optNum,
  sleep_phase_5_min: optText,
  sleep_phase_30_sec: optText,
  sleep_score_delta: optNum,
  total_sleep_duration: optNum,
});
export type RingSleepPeriod = z.infer<typeof ringSleepPeriodSchema>;

/**
 * PersonalInfoResponse (a bare object, not a list). `id` is required by the spec; a snapshot
 * without it degrades to the account Ringside already knows (lib/sync/engine.ts) instead of
 * failing, and sign-in (which needs it to know who connects) checks it itself.
 */
export const ringPersonalInfoSchema = z.looseObject({
  id: text.min(1).nullish(),
  age: optNum,
  weight: optNum,
  height: optNum,
  biological_sex: optText,
  email: optText,
});
export type RingPersonalInfo = z.infer<typeof ringPersonalInfoSchema>;

/**
 * The list wrapper (MultiDocumentResponse_<Model>_ or MultiDocumentResponseDict). Documents
 * are validated one by one afterwards, so one bad document never loses a whole page.
 */
export const ringListPageSchema = z.looseObject({
  data: z.array(z.unknown()),
  next_token: z.string().nullish(),
});
export type RingListPage = z.infer<typeof ringListPageSchema>;

/** The collections Ringside stores, with the schema of one document of each. */
export const RING_DOCUMENT_SCHEMAS = {
  daily_activity: ringDailyActivitySchema,
  daily_readiness: ringDailyReadinessSchema,
  daily_sleep: ringDailySleepSchema,
  daily_spo2: ringDailySpo2Schema,
  daily_stress: ringDailyStressSchema,
  daily_resilience: ringDailyResilienceSchema,
  daily_cardiovascular_age: ringDailyCardiovascularAgeSchema,
  sleep: ringSleepPeriodSchema,
} as const;

export type RingCollection = keyof typeof RING_DOCUMENT_SCHEMAS;
export const RING_COLLECTIONS = Object.keys(RING_DOCUMENT_SCHEMAS) as RingCollection[];

export function isRingCollection(value: string): value is RingCollection {
  return Object.prototype.hasOwnProperty.call(RING_DOCUMENT_SCHEMAS, value);
}

export type RingDocumentOf<C extends RingCollection> = z.infer<(typeof RING_DOCUMENT_SCHEMAS)[C]>;

// ---------------------------------------------------------------------------
// Webhooks
// ---------------------------------------------------------------------------

export const WEBHOOK_OPERATIONS = ["create", "update", "delete"] as const;
export const webhookOperationSchema = z.enum(WEBHOOK_OPERATIONS);
export type WebhookOperation = z.infer<typeof webhookOperationSchema>;

/**
 * A notification POSTed to our callback (facts §6.3). object_id/event_time may be absent.
 * event_type stays a closed list (unlike the documents' lists): it is the protocol's verb, an
 * unknown one cannot be acted on, and the trailing-window poll picks up whatever it was about.
 */
export const ringWebhookNotificationSchema = z.looseObject({
  event_type: webhookOperationSchema,
  data_type: z.string().min(1).max(64),
  object_id: z.string().min(1).max(256).nullish(),
  event_time: z.string().max(64).nullish(),
  user_id: z.string().min(1).max(256),
});
export type RingWebhookNotification = z.infer<typeof ringWebhookNotificationSchema>;

/** WebhookSubscriptionModel */
export const ringWebhookSubscriptionSchema = z.looseObject({
  id: z.string().min(1),
  callback_url: z.string(),
  event_type: z.string(),
  data_type: z.string(),
  expiration_time: z.string(),
});
export type RingWebhookSubscription = z.infer<typeof ringWebhookSubscriptionSchema>;

/** GET /v2/webhook/subscription answers a bare array (facts §2.1). */
export const ringWebhookSubscriptionListSchema = z.array(ringWebhookSubscriptionSchema);

/** The `detail` of an error body: FastAPI string, HTTPValidationError list, or RFC 7807. */
export const ringErrorBodySchema = z.looseObject({
  detail: z.union([z.string(), z.array(z.unknown())]).nullish(),
  title: z.string().nullish(),
});
