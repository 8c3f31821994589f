// The metric catalog: every chartable field of the seven daily collections and of the sleep
// periods, with what a chart or a summary needs to know about it. Pure data, safe in the
// browser. Metric ids are "<prefix>.<column>" (e.g. "readiness.hrv_balance").

/** The ring-service collections Ringside stores, by their upstream name. */
export type CollectionId =
  | "daily_sleep"
  | "daily_readiness"
  | "daily_activity"
  | "daily_spo2"
  | "daily_stress"
  | "daily_resilience"
  | "daily_cardiovascular_age"
  | "sleep";

export type CollectionDef = {
  id: CollectionId;
  /** SQLite table */
  table: string;
  label: string;
  /** the scope the ring service needs for it */
  scope: "daily" | "spo2Daily";
};

export const COLLECTIONS: Record<CollectionId, CollectionDef> = {
  daily_sleep: { id: "daily_sleep", table: "daily_sleep", label: "Sleep", scope: "daily" },
  daily_readiness: { id: "daily_readiness", table: "daily_readiness", label: "Readiness", scope: "daily" },
  daily_activity: { id: "daily_activity", table: "daily_activity", label: "Activity", scope: "daily" },
  daily_spo2: { id: "daily_spo2", table: "daily_spo2", label: "Blood oxygen", scope: "spo2Daily" },
  daily_stress: { id: "daily_stress", table: "daily_stress", label: "Stress", scope: "daily" },
  daily_resilience: { id: "daily_resilience", table: "daily_resilience", label: "Resilience", scope: "daily" },
  daily_cardiovascular_age: {
    id: "daily_cardiovascular_age",
    table: "daily_cardiovascular_age",
    label: "Cardiovascular age",
    scope: "daily",
  },
  sleep: { id: "sleep", table: "sleep_period", label: "Sleep periods", scope: "daily" },
};

export const COLLECTION_IDS = Object.keys(COLLECTIONS) as CollectionId[];
export const DAILY_COLLECTION_IDS = COLLECTION_IDS.filter((c) => c !== "sleep");

/** score: 0–100 score; duration: seconds; count: whole things; temperature_deviation: °C from
 * the person's norm; category: one of a fixed list; measure: any other physical quantity. */
export type MetricKind = "score" | "duration" | "count" | "temperature_deviation" | "category" | "measure";
/** Whether a higher value is better, worse, or neither (shown neutrally). */
export type Direction = "higher" | "lower" | "neutral";
export type Unit =
  | "score"
  | "s"
  | "steps"
  | "kcal"
  | "m"
  | "%"
  | "bpm"
  | "ms"
  | "°C"
  | "/min"
  | "m/s"
  | "years"
  | "MET"
  | "MET·min"
  | "count";

export type CategoryDef = {
  value: string;
  label: string;
  /** CSS colour, from a variable in app/globals.css */
  color: string;
};

/**
 * Where the value comes from: a typed column of a daily table; the day's main sleep period
 * (see pickMainSleep); or an aggregate over the day's naps.
 */
export type MetricSource =
  | { type: "daily"; collection: Exclude<CollectionId, "sleep">; column: string }
  | { type: "night"; column: string }
  | { type: "naps"; aggregate: "total_sleep" | "count" };

export type MetricDef = {
  id: string;
  source: MetricSource;
  collection: CollectionId;
  label: string;
  /** shorter label for tight spaces (chips, axis titles) */
  short: string;
  /** heading the metric is listed under in pickers */
  group: string;
  unit: Unit;
  direction: Direction;
  kind: MetricKind;
  /** decimals worth showing in the stored unit */
  decimals: number;
  /** durations: shown in hours or minutes */
  durationIn?: "h" | "min";
  /** a contributor to one of the scores */
  isContributor?: boolean;
  /** category metrics: the values, worst first */
  categories?: readonly CategoryDef[];
  /** one of the few metrics that summarise a day; used for pickers' defaults and the
   * "strongest relationships" search */
  isHeadline?: boolean;
  description?: string;
  /** values can be negative (a difference), so no lower bound of 0 */
  isSigned?: boolean;
  /** the natural bounds of the value (scores 0–100, amounts ≥ 0); baseline bands are clipped to them */
  min?: number;
  max?: number;
};

type Spec = Omit<MetricDef, "id" | "collection" | "short" | "decimals" | "min" | "max"> & {
  short?: string;
  decimals?: number;
};

const daily = (collection: Exclude<CollectionId, "sleep">, column: string) =>
  ({ type: "daily", collection, column }) as const;
const night = (column: string) => ({ type: "night", column }) as const;

const contributor = (
  collection: Exclude<CollectionId, "sleep">,
  group: string,
  column: string,
  label: string,
): [string, Spec] => [
  column,
  {
    source: daily(collection, column),
    label,
    group,
    unit: "score",
    direction: "higher",
    kind: "score",
    isContributor: true,
  },
];

export const STRESS_SUMMARY_CATEGORIES: readonly CategoryDef[] = [
  { value: "stressful", label: "Stressful", color: "var(--cat-stressful)" },
  { value: "normal", label: "Normal", color: "var(--cat-normal)" },
  { value: "restored", label: "Restored", color: "var(--cat-restored)" },
];

export const RESILIENCE_LEVELS: readonly CategoryDef[] = [
  { value: "limited", label: "Limited", color: "var(--cat-limited)" },
  { value: "adequate", label: "Adequate", color: "var(--cat-adequate)" },
  { value: "solid", label: "Solid", color: "var(--cat-solid)" },
  { value: "strong", label: "Strong", color: "var(--cat-strong)" },
  { value: "exceptional", label: "Exceptional", color: "var(--cat-exceptional)" },
];

const SPECS: Array<[string, Spec]> = [
  // --- daily_sleep
  [
    "sleep.score",
    {
      source: daily("daily_sleep", "score"),
      label: "Sleep score",
      short: "Sleep",
      group: "Sleep",
      unit: "score",
      direction: "higher",
      kind: "score",
      isHeadline: true,
    },
  ],
  ...(
    [
      ["total_sleep", "Total sleep (contributor)"],
      ["efficiency", "Efficiency (contributor)"],
      ["restfulness", "Restfulness"],
      ["rem_sleep", "REM sleep (contributor)"],
      ["deep_sleep", "Deep sleep (contributor)"],
      ["latency", "Latency (contributor)"],
      ["timing", "Timing"],
    ] as const
  ).map(([c, l]) => {
    const [, spec] = contributor("daily_sleep", "Sleep contributors", c, l);
    return [`sleep.${c}`, spec] as [string, Spec];
  }),
  // --- daily_readiness
  [
    "readiness.score",
    {
      source: daily("daily_readiness", "score"),
      label: "Readiness score",
      short: "Readiness",
      group: "Readiness",
      unit: "score",
      direction: "higher",
      kind: "score",
      isHeadline: true,
    },
  ],
  [
    "readiness.temperature_deviation",
    {
      source: daily("daily_readiness", "temperature_deviation"),
      label: "Temperature deviation",
      short: "Temp. dev.",
      group: "Readiness",
      unit: "°C",
      direction: "neutral",
      kind: "temperature_deviation",
      decimals: 2,
      isHeadline: true,
      description: "Body temperature against your long-term norm.",
    },
  ],
  [
    "readiness.temperature_trend_deviation",
    {
      source: daily("daily_readiness", "temperature_trend_deviation"),
      label: "Temperature trend deviation",
      short: "Temp. trend",
      group: "Readiness",
      unit: "°C",
      direction: "neutral",
      kind: "temperature_deviation",
      decimals: 2,
    },
  ],
  ...(
    [
      ["previous_night", "Previous night"],
      ["sleep_balance", "Sleep balance"],
      ["sleep_regularity", "Sleep regularity"],
      ["previous_day_activity", "Previous day activity"],
      ["activity_balance", "Activity balance"],
      ["body_temperature", "Body temperature"],
      ["resting_heart_rate", "Resting heart rate (contributor)"],
      ["hrv_balance", "HRV balance"],
      ["recovery_index", "Recovery index"],
    ] as const
  ).map(([c, l]) => {
    const [, spec] = contributor("daily_readiness", "Readiness contributors", c, l);
    return [`readiness.${c}`, spec] as [string, Spec];
  }),
  // --- daily_activity
  [
    "activity.score",
    {
      source: daily("daily_activity", "score"),
      label: "Activity score",
      short: "Activity",
      group: "Activity",
      unit: "score",
      direction: "higher",
      kind: "score",
      isHeadline: true,
    },
  ],
  ["activity.steps", { source: daily("daily_activity", "steps"), label: "Steps", group: "Activity", unit: "steps", direction: "higher", kind: "count", isHeadline: true }],
  ["activity.active_calories", { source: daily("daily_activity", "active_calories"), label: "Active calories", group: "Activity", unit: "kcal", direction: "higher", kind: "measure", isHeadline: true }],
  ["activity.total_calories", { source: daily("daily_activity", "total_calories"), label: "Total calories", group: "Activity", unit: "kcal", direction: "neutral", kind: "measure" }],
  ["activity.target_calories", { source: daily("daily_activity", "target_calories"), label: "Calorie target", group: "Activity", unit: "kcal", direction: "neutral", kind: "measure" }],
  ["activity.equivalent_walking_distance", { source: daily("daily_activity", "equivalent_walking_distance"), label: "Walking-equivalent distance", short: "Distance", group: "Activity", unit: "m", direction: "higher", kind: "measure" }],
  ["activity.target_meters", { source: daily("daily_activity", "target_meters"), label: "Distance target", group: "Activity", unit: "m", direction: "neutral", kind: "measure" }],
  ["activity.meters_to_target", { source: daily("daily_activity", "meters_to_target"), label: "Distance to target", group: "Activity", unit: "m", direction: "lower", kind: "measure", isSigned: true }],
  ["activity.average_met_minutes", { source: daily("daily_activity", "average_met_minutes"), label: "Average MET", group: "Activity", unit: "MET", direction: "higher", kind: "measure", decimals: 2 }],
  ["activity.high_activity_met_minutes", { source: daily("daily_activity", "high_activity_met_minutes"), label: "High-activity MET minutes", group: "Activity", unit: "MET·min", direction: "higher", kind: "measure" }],
  ["activity.medium_activity_met_minutes", { source: daily("daily_activity", "medium_activity_met_minutes"), label: "Medium-activity MET minutes", group: "Activity", unit: "MET·min", direction: "higher", kind: "measure" }],
  ["activity.low_activity_met_minutes", { source: daily("daily_activity", "low_activity_met_minutes"), label: "Low-activity MET minutes", group: "Activity", unit: "MET·min", direction: "higher", kind: "measure" }],
  ["activity.sedentary_met_minutes", { source: daily("daily_activity", "sedentary_met_minutes"), label: "Sedentary MET minutes", group: "Activity", unit: "MET·min", direction: "lower", kind: "measure" }],
  ["activity.high_activity_time", { source: daily("daily_activity", "high_activity_time"), label: "High activity time", group: "Activity", unit: "s", direction: "higher", kind: "duration", durationIn: "min" }],
  ["activity.medium_activity_time", { source: daily("daily_activity", "medium_activity_time"), label: "Medium activity time", group: "Activity", unit: "s", direction: "higher", kind: "duration", durationIn: "min" }],
  ["activity.low_activity_time", { source: daily("daily_activity", "low_activity_time"), label: "Low activity time", group: "Activity", unit: "s", direction: "higher", kind: "duration", durationIn: "h" }],
  ["activity.sedentary_time", { source: daily("daily_activity", "sedentary_time"), label: "Sedentary time", group: "Activity", unit: "s", direction: "lower", kind: "duration", durationIn: "h" }],
  ["activity.resting_time", { source: daily("daily_activity", "resting_time"), label: "Resting time", group: "Activity", unit: "s", direction: "neutral", kind: "duration", durationIn: "h" }],
  ["activity.non_wear_time", { source: daily("daily_activity", "non_wear_time"), label: "Non-wear time", group: "Activity", unit: "s", direction: "lower", kind: "duration", durationIn: "h" }],
  ["activity.inactivity_alerts", { source: daily("daily_activity", "inactivity_alerts"), label: "Inactivity alerts", group: "Activity", unit: "count", direction: "lower", kind: "count" }],
  ...(
    [
      ["stay_active", "Stay active"],
      ["move_every_hour", "Move every hour"],
      ["meet_daily_targets", "Meet daily targets"],
      ["training_frequency", "Training frequency"],
      ["training_volume", "Training volume"],
      ["recovery_time", "Recovery time"],
    ] as const
  ).map(([c, l]) => {
    const [, spec] = contributor("daily_activity", "Activity contributors", c, l);
    return [`activity.${c}`, spec] as [string, Spec];
  }),
  // --- daily_spo2
  ["spo2.spo2_average", { source: daily("daily_spo2", "spo2_average"), label: "SpO₂ average", short: "SpO₂", group: "Blood oxygen", unit: "%", direction: "higher", kind: "measure", decimals: 1, isHeadline: true }],
  ["spo2.breathing_disturbance_index", { source: daily("daily_spo2", "breathing_disturbance_index"), label: "Breathing disturbance index", short: "BDI", group: "Blood oxygen", unit: "count", direction: "lower", kind: "count", isHeadline: true, description: "Breathing disturbances per hour of sleep." }],
  // --- daily_stress
  ["stress.stress_high", { source: daily("daily_stress", "stress_high"), label: "Time in high stress", short: "Stress", group: "Stress", unit: "s", direction: "lower", kind: "duration", durationIn: "min", isHeadline: true }],
  ["stress.recovery_high", { source: daily("daily_stress", "recovery_high"), label: "Time in high recovery", short: "Recovery", group: "Stress", unit: "s", direction: "higher", kind: "duration", durationIn: "min", isHeadline: true }],
  ["stress.day_summary", { source: daily("daily_stress", "day_summary"), label: "Stress day summary", short: "Day summary", group: "Stress", unit: "count", direction: "higher", kind: "category", categories: STRESS_SUMMARY_CATEGORIES }],
  // --- daily_resilience
  ["resilience.level", { source: daily("daily_resilience", "level"), label: "Resilience level", short: "Resilience", group: "Resilience", unit: "count", direction: "higher", kind: "category", categories: RESILIENCE_LEVELS }],
  ["resilience.sleep_recovery", { source: daily("daily_resilience", "sleep_recovery"), label: "Sleep recovery", group: "Resilience", unit: "score", direction: "higher", kind: "score", decimals: 1, isContributor: true }],
  ["resilience.daytime_recovery", { source: daily("daily_resilience", "daytime_recovery"), label: "Daytime recovery", group: "Resilience", unit: "score", direction: "higher", kind: "score", decimals: 1, isContributor: true }],
  ["resilience.stress", { source: daily("daily_resilience", "stress"), label: "Stress balance", group: "Resilience", unit: "score", direction: "higher", kind: "score", decimals: 1, isContributor: true }],
  // --- daily_cardiovascular_age
  ["cardio.vascular_age", { source: daily("daily_cardiovascular_age", "vascular_age"), label: "Cardiovascular age", short: "CV age", group: "Heart health", unit: "years", direction: "lower", kind: "measure", isHeadline: true }],
  ["cardio.pulse_wave_velocity", { source: daily("daily_cardiovascular_age", "pulse_wave_velocity"), label: "Pulse wave velocity", short: "PWV", group: "Heart health", unit: "m/s", direction: "lower", kind: "measure", decimals: 2 }],
  // --- sleep periods: the day's main sleep
  ["night.total_sleep_duration", { source: night("total_sleep_duration"), label: "Total sleep", group: "Night (main sleep)", unit: "s", direction: "higher", kind: "duration", durationIn: "h", isHeadline: true }],
  ["night.time_in_bed", { source: night("time_in_bed"), label: "Time in bed", group: "Night (main sleep)", unit: "s", direction: "neutral", kind: "duration", durationIn: "h" }],
  ["night.efficiency", { source: night("efficiency"), label: "Sleep efficiency", group: "Night (main sleep)", unit: "%", direction: "higher", kind: "measure" }],
  ["night.deep_sleep_duration", { source: night("deep_sleep_duration"), label: "Deep sleep", group: "Night (main sleep)", unit: "s", direction: "higher", kind: "duration", durationIn: "h" }],
  ["night.rem_sleep_duration", { source: night("rem_sleep_duration"), label: "REM sleep", group: "Night (main sleep)", unit: "s", direction: "higher", kind: "duration", durationIn: "h" }],
  ["night.light_sleep_duration", { source: night("light_sleep_duration"), label: "Light sleep", group: "Night (main sleep)", unit: "s", direction: "neutral", kind: "duration", durationIn: "h" }],
  ["night.awake_time", { source: night("awake_time"), label: "Awake time", group: "Night (main sleep)", unit: "s", direction: "lower", kind: "duration", durationIn: "min" }],
  ["night.latency", { source: night("latency"), label: "Sleep latency", group: "Night (main sleep)", unit: "s", direction: "neutral", kind: "duration", durationIn: "min" }],
  ["night.average_heart_rate", { source: night("average_heart_rate"), label: "Average heart rate", short: "Avg HR", group: "Night (main sleep)", unit: "bpm", direction: "lower", kind: "measure", decimals: 1 }],
  ["night.lowest_heart_rate", { source: night("lowest_heart_rate"), label: "Lowest heart rate", short: "Lowest HR", group: "Night (main sleep)", unit: "bpm", direction: "lower", kind: "measure", isHeadline: true }],
  ["night.average_hrv", { source: night("average_hrv"), label: "Average HRV", short: "HRV", group: "Night (main sleep)", unit: "ms", direction: "higher", kind: "measure", isHeadline: true }],
  ["night.average_breath", { source: night("average_breath"), label: "Breathing rate", group: "Night (main sleep)", unit: "/min", direction: "neutral", kind: "measure", decimals: 1 }],
  ["night.restless_periods", { source: night("restless_periods"), label: "Restless periods", group: "Night (main sleep)", unit: "count", direction: "lower", kind: "count" }],
  ["night.sleep_score_delta", { source: night("sleep_score_delta"), label: "Sleep score delta", group: "Night (main sleep)", unit: "score", direction: "neutral", kind: "count", isSigned: true }],
  ["night.readiness_score_delta", { source: night("readiness_score_delta"), label: "Readiness score delta", group: "Night (main sleep)", unit: "score", direction: "neutral", kind: "count", isSigned: true }],
  // --- sleep periods: naps
  ["naps.total_sleep", { source: { type: "naps", aggregate: "total_sleep" }, label: "Nap sleep", group: "Naps", unit: "s", direction: "neutral", kind: "duration", durationIn: "min", description: "Sleep in naps (periods other than the main sleep)." }],
  ["naps.count", { source: { type: "naps", aggregate: "count" }, label: "Naps", group: "Naps", unit: "count", direction: "neutral", kind: "count" }],
];

function bounds(s: Spec): { min?: number; max?: number } {
  if (s.kind === "score" || s.unit === "%") return { min: 0, max: 100 };
  if (s.kind === "category" || s.kind === "temperature_deviation" || s.isSigned) return {};
  return { min: 0 };
}

function build(): MetricDef[] {
  return SPECS.map(([id, s]) => ({
    ...s,
    ...bounds(s),
    id,
    collection: s.source.type === "daily" ? s.source.collection : "sleep",
    short: s.short ?? s.label.replace(/ \(contributor\)$/, ""),
    decimals: s.decimals ?? 0,
  }));
}

/** A value clipped to the metric's natural bounds (for band edges, never for data). */
export function clampToMetric(m: Pick<MetricDef, "min" | "max">, v: number): number {
  if (m.min !== undefined && v < m.min) return m.min;
  if (m.max !== undefined && v > m.max) return m.max;
  return v;
}

export const METRICS: readonly MetricDef[] = build();
const BY_ID = new Map(METRICS.map((m) => [m.id, m]));

export function getMetric(id: string): MetricDef | undefined {
  return BY_ID.get(id);
}

export function isMetricId(id: string): boolean {
  return BY_ID.has(id);
}

export function isNumericMetric(m: MetricDef): boolean {
  return m.kind !== "category";
}

export const NUMERIC_METRICS = METRICS.filter(isNumericMetric);
export const CATEGORY_METRICS = METRICS.filter((m) => m.kind === "category");
export const HEADLINE_METRICS = METRICS.filter((m) => m.isHeadline);

/** Metrics grouped for pickers, in catalog order. */
export function metricGroups(filter: (m: MetricDef) => boolean = () => true): Array<{ group: string; metrics: MetricDef[] }> {
  const out: Array<{ group: string; metrics: MetricDef[] }> = [];
  for (const m of METRICS) {
    if (!filter(m)) continue;
    let g = out.find((x) => x.group === m.group);
    if (!g) {
      g = { group: m.group, metrics: [] };
      out.push(g);
    }
    g.metrics.push(m);
  }
  return out;
}

/** The contributor metrics of a score, in catalog order. */
export function contributorsOf(collection: "daily_sleep" | "daily_readiness" | "daily_activity" | "daily_resilience"): MetricDef[] {
  return METRICS.filter((m) => m.isContributor && m.collection === collection);
}

/** Rank of a category value (0 = worst), or -1. */
export function categoryRank(m: MetricDef, value: string | null | undefined): number {
  if (!value || !m.categories) return -1;
  return m.categories.findIndex((c) => c.value === value);
}
