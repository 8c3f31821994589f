import { CYCLE_DATA_KIND, kindOfCollection, kindsOfMetric, type DataKind } from "@/lib/auth/api-scopes";
import { CYCLE_PHASES, type CyclePhase } from "@/lib/cycle";
import { getMetric, METRICS, type MetricId } from "@/lib/metrics/catalog";
import { SIGNALS, type SignalKind } from "@/lib/signals/catalog";
import { EARLY_WARNING_LEVELS, type EarlyWarningLevel, type Marker } from "@/lib/signals/early-warning";

// The entities of a person's Home Assistant device, each declared once: how Home Assistant shows it
// (component, device class, state class, unit), the data kinds it needs (a person publishes only the
// kinds they chose, as a token reads only its own), and where its value comes from. The discovery
// configs (discovery.ts), the state document and the service's reads (which metrics, which
// signals) all follow from this list. Pure.

/** What the service reads for a person, only of the kinds they publish (the rest absent or null). */
export type HomeAssistantSnapshot = {
  /** the newest value of each metric an entity shows, with its day */
  metrics: Partial<Record<MetricId, { value: number; day: string }>>;
  /** the newest night with an early-warning level */
  earlyWarning: { day: string; level: EarlyWarningLevel; flagged: Marker[] } | null;
  /** the newest day with a sleep debt, hours */
  sleepDebt: { day: string; hours: number } | null;
  /** the newest battery reading, flags as the ring sent them */
  battery: { level: number; charging: boolean | null; inCharger: boolean | null; at: string; freshUntil: string } | null;
  /** the newest bedtime guidance: its window at the ring's UTC offset (null on a night without one) */
  bedtime: { day: string; start: string | null; end: string | null } | null;
  /** the newest successful sync of any collection */
  lastSyncAt: string | null;
  /** today's cycle day and phase (null when cycle tracking does not apply now) */
  cycle: { day: string; cycleDay: number | null; phase: CyclePhase } | null;
};

/** An entity's value in the state document: Home Assistant shows null as unknown. */
export type EntityValue = { value: string | number | null; attributes?: Record<string, unknown> };

export type EntityComponent = "sensor" | "binary_sensor" | "button";

export type EntityDef = {
  /** the object id: part of the topic and of the unique_id, never changed */
  object: string;
  component: EntityComponent;
  /** the entity's name on the device ("Ringside — Anna" + "Sleep score") */
  name: string;
  /** every data kind it needs */
  kinds: readonly DataKind[];
  /** only while the person tracks their cycle (the cycle kind too) */
  whileTracking?: true;
  /** the explained signal it shows (the service computes only those) */
  signal?: SignalKind;
  deviceClass?: string;
  stateClass?: "measurement" | "total_increasing";
  unit?: string;
  /** an enum sensor's values */
  options?: readonly string[];
  icon?: string;
  diagnostic?: true;
  precision?: number;
  /** its value (and attributes) in the state document; a button has none */
  read?: (s: HomeAssistantSnapshot) => EntityValue;
};

const round = (v: number, decimals: number) => Math.round(v * 10 ** decimals) / 10 ** decimals;

/** The readiness contributors, from the metric catalog (the score's own contributors). */
export const READINESS_CONTRIBUTOR_METRICS: readonly MetricId[] = METRICS.filter((m) => m.collection === "daily_readiness" && m.isContributor).map((m) => m.id);

/** An entity whose value is the newest value of one metric of the catalog. */
function metricEntity(
  object: string,
  name: string,
  metric: MetricId,
  look: Pick<EntityDef, "deviceClass" | "stateClass" | "unit" | "icon" | "precision"> & { scale?: (v: number) => number; more?: MetricId[] },
): EntityDef & { metrics: readonly MetricId[] } {
  const { scale = (v: number) => v, more = [], ...shown } = look;
  return {
    object,
    component: "sensor",
    name,
    kinds: [...new Set([metric, ...more].flatMap((id) => kindsOfMetric(getMetric(id))))],
    ...shown,
    metrics: [metric, ...more],
    read: (s) => {
      const v = s.metrics[metric];
      const attributes: Record<string, unknown> = { day: v?.day ?? null };
      if (more.length) attributes.contributors = Object.fromEntries(more.map((id) => [id.slice(id.indexOf(".") + 1), s.metrics[id]?.value ?? null]));
      return { value: v ? scale(v.value) : null, attributes };
    },
  };
}

const unitOf = (id: MetricId) => getMetric(id).unit;

const METRIC_ENTITIES = [
  metricEntity("readiness", "Readiness score", "readiness.score", { stateClass: "measurement", icon: "mdi:gauge", more: [...READINESS_CONTRIBUTOR_METRICS] }),
  metricEntity("sleep_score", "Sleep score", "sleep.score", { stateClass: "measurement", icon: "mdi:sleep" }),
  metricEntity("activity_score", "Activity score", "activity.score", { stateClass: "measurement", icon: "mdi:run" }),
  metricEntity("lowest_heart_rate", "Lowest heart rate", "night.lowest_heart_rate", {
    stateClass: "measurement",
    unit: unitOf("night.lowest_heart_rate"),
    icon: "mdi:heart-pulse",
  }),
  metricEntity("hrv", "HRV", "night.average_hrv", { stateClass: "measurement", unit: unitOf("night.average_hrv"), icon: "mdi:heart-flash" }),
  metricEntity("breathing_rate", "Breathing rate", "night.average_breath", {
    stateClass: "measurement",
    unit: unitOf("night.average_breath"),
    icon: "mdi:lungs",
    precision: 1,
  }),
  // a deviation, not a temperature: no device class, which would convert 0.2 °C into 32.4 °F
  metricEntity("temperature_deviation", "Temperature deviation", "readiness.temperature_deviation", {
    stateClass: "measurement",
    unit: unitOf("readiness.temperature_deviation"),
    icon: "mdi:thermometer",
    precision: 2,
  }),
  metricEntity("sleep_duration", "Sleep duration", "night.total_sleep_duration", {
    deviceClass: "duration",
    stateClass: "measurement",
    unit: "h",
    precision: 2,
    scale: (s) => round(s / 3600, 2),
  }),
  metricEntity("sleep_efficiency", "Sleep efficiency", "night.efficiency", { stateClass: "measurement", unit: "%", icon: "mdi:percent" }),
  // a day's count that starts again at 0 the next day
  metricEntity("steps", "Steps", "activity.steps", { stateClass: "total_increasing", unit: "steps", icon: "mdi:walk" }),
  metricEntity("active_calories", "Active calories", "activity.active_calories", { stateClass: "total_increasing", unit: "kcal", icon: "mdi:fire" }),
];

/** Every entity a person's device can have, in the order Home Assistant lists them. */
export const ENTITIES: readonly EntityDef[] = [
  ...METRIC_ENTITIES,
  {
    object: "early_warning",
    component: "sensor",
    name: "Early warning",
    kinds: SIGNALS.early_warning.reads.map(kindOfCollection),
    signal: "early_warning",
    deviceClass: "enum",
    options: EARLY_WARNING_LEVELS,
    icon: "mdi:alert-decagram",
    read: (s) => ({ value: s.earlyWarning?.level ?? null, attributes: { day: s.earlyWarning?.day ?? null, flagged: s.earlyWarning?.flagged ?? [] } }),
  },
  {
    object: "sleep_debt",
    component: "sensor",
    name: "Sleep debt",
    kinds: SIGNALS.sleep_debt.reads.map(kindOfCollection),
    signal: "sleep_debt",
    deviceClass: "duration",
    stateClass: "measurement",
    unit: "h",
    precision: 1,
    read: (s) => ({ value: s.sleepDebt?.hours ?? null, attributes: { day: s.sleepDebt?.day ?? null } }),
  },
  {
    object: "battery",
    component: "sensor",
    name: "Battery",
    kinds: ["ring_battery_level"],
    deviceClass: "battery",
    stateClass: "measurement",
    unit: "%",
    diagnostic: true,
    read: (s) => ({ value: s.battery?.level ?? null, attributes: { at: s.battery?.at ?? null, fresh_until: s.battery?.freshUntil ?? null } }),
  },
  {
    object: "charging",
    component: "binary_sensor",
    name: "Charging",
    kinds: ["ring_battery_level"],
    deviceClass: "battery_charging",
    diagnostic: true,
    read: (s) => {
      const b = s.battery;
      const on = b && (b.charging === true || b.inCharger === true) ? "ON" : b && (b.charging === false || b.inCharger === false) ? "OFF" : null;
      return { value: on, attributes: { in_charger: b?.inCharger ?? null, at: b?.at ?? null, fresh_until: b?.freshUntil ?? null } };
    },
  },
  {
    object: "bedtime_start",
    component: "sensor",
    name: "Bedtime window start",
    kinds: ["sleep_time"],
    deviceClass: "timestamp",
    icon: "mdi:bed-clock",
    read: (s) => ({ value: s.bedtime?.start ?? null, attributes: { day: s.bedtime?.day ?? null } }),
  },
  {
    object: "bedtime_end",
    component: "sensor",
    name: "Bedtime window end",
    kinds: ["sleep_time"],
    deviceClass: "timestamp",
    icon: "mdi:bed-clock",
    read: (s) => ({ value: s.bedtime?.end ?? null, attributes: { day: s.bedtime?.day ?? null } }),
  },
  {
    object: "last_sync",
    component: "sensor",
    name: "Last sync",
    kinds: [],
    deviceClass: "timestamp",
    diagnostic: true,
    read: (s) => ({ value: s.lastSyncAt }),
  },
  { object: "sync", component: "button", name: "Sync now", kinds: [], icon: "mdi:sync" },
  {
    object: "cycle_day",
    component: "sensor",
    name: "Cycle day",
    kinds: [CYCLE_DATA_KIND],
    whileTracking: true,
    stateClass: "measurement",
    icon: "mdi:calendar-today",
    read: (s) => ({ value: s.cycle?.cycleDay ?? null, attributes: { day: s.cycle?.day ?? null } }),
  },
  {
    object: "cycle_phase",
    component: "sensor",
    name: "Cycle phase",
    kinds: [CYCLE_DATA_KIND],
    whileTracking: true,
    deviceClass: "enum",
    options: CYCLE_PHASES,
    icon: "mdi:calendar-sync",
    read: (s) => ({ value: s.cycle?.phase ?? null, attributes: { day: s.cycle?.day ?? null } }),
  },
];

/** The metrics each metric entity reads. */
const METRICS_OF = new Map<string, readonly MetricId[]>(METRIC_ENTITIES.map((e) => [e.object, e.metrics]));

/** The entities a person with these kinds (and cycle tracking on or off) publishes. */
export function entitiesFor(kinds: ReadonlySet<DataKind>, tracking: boolean): EntityDef[] {
  return ENTITIES.filter((e) => e.kinds.every((k) => kinds.has(k)) && (!e.whileTracking || tracking));
}

/** The metrics those entities read (what the service asks for). */
export function metricsOf(entities: readonly EntityDef[]): MetricId[] {
  return [...new Set(entities.flatMap((e) => METRICS_OF.get(e.object) ?? []))];
}

/** The signals those entities show. */
export function signalsOf(entities: readonly EntityDef[]): SignalKind[] {
  return [...new Set(entities.flatMap((e) => (e.signal ? [e.signal] : [])))];
}

/** The state document of those entities: each one's value and attributes, by object id. */
export function stateDocument(entities: readonly EntityDef[], snapshot: HomeAssistantSnapshot): Record<string, EntityValue> {
  const out: Record<string, EntityValue> = {};
  for (const e of entities) if (e.read) out[e.object] = e.read(snapshot);
  return out;
}
