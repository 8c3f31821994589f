import "server-only";
import { BATTERY_FRESH_MS } from "@/lib/alerts/battery";
import { CYCLE_DATA_KIND, kindsOfMetric, type DataKind } from "@/lib/auth/api-scopes";
import type { CyclePhase } from "@/lib/cycle";
import { getCycleToday } from "@/lib/services/cycle";
import { getLatestDays } from "@/lib/db/queries/ring-data";
import { bedtimeWindowOf, isoAtOffset } from "@/lib/metrics/bedtime";
import { getMetric, type MetricDef, type MetricId } from "@/lib/metrics/catalog";
import { addDays, diffDays } from "@/lib/days";
import { stateToday } from "@/lib/services/person-today";
import { getMetricValues } from "@/lib/services/metrics";
import { getNewestBedtimeRow } from "@/lib/services/records";
import { latestSample } from "@/lib/db/queries/time-series";

// The person's state in one small document, for home automation (GET /api/v1/state, the MCP
// tool get_state): the newest scores, last night's vital signs, the ring's battery and the
// newest bedtime window, each with how fresh it is. A function of the person's data and their
// "today" only (no "seconds ago"), so the read API's ETag holds until either changes.

/** A day's value with its day and how many days before the person's today that is. */
export type StateValue = { value: number; unit: MetricDef["unit"]; day: string; ageDays: number };

export type StateDocument = {
  /** the person's today, in their time zone (Settings → Alerts; UTC until saved) */
  today: string;
  timeZone: string;
  scores: { readiness: StateValue | null; sleep: StateValue | null; activity: StateValue | null };
  /** the newest night's values (each from its own newest day) */
  night: { lowestHeartRate: StateValue | null; averageHrv: StateValue | null; breathingRate: StateValue | null; temperatureDeviation: StateValue | null };
  /** the newest battery reading (flags as the ring sent them); `freshUntil`: when it is too old to tell the ring's state (the battery alerts' limit) */
  battery: { level: number; charging: boolean | null; inCharger: boolean | null; at: string; freshUntil: string } | null;
  /** the newest bedtime guidance: the evening of `day`; `start`/`end` at the ring's UTC offset, null without a window */
  bedtime: { day: string; start: string | null; end: string | null; status: string | null; recommendation: string | null; ageDays: number } | null;
  /**
   * today's cycle day and phase, and the next period window: present only for a reader with the
   * cycle kind and a person with cycle tracking on (and not paused); absent otherwise, never null.
   * Its keys are those of a row of GET /api/v1/cycle.
   */
  cycle?: StateCycle;
};

export type StateCycle = { day: string; cycle_day: number | null; phase: CyclePhase; next_period: { from: string; to: string } | null };

/** What each value of the document is: one metric of the catalog. */
export const STATE_METRICS = {
  scores: { readiness: "readiness.score", sleep: "sleep.score", activity: "activity.score" },
  night: {
    lowestHeartRate: "night.lowest_heart_rate",
    averageHrv: "night.average_hrv",
    breathingRate: "night.average_breath",
    temperatureDeviation: "readiness.temperature_deviation",
  },
} as const satisfies Record<string, Record<string, MetricId>>;

/** How far before a collection's newest day a value is looked for (a day without one). */
const LOOKBACK_DAYS = 6;

/** The newest value of each metric the reader may read, by metric. */
export async function newestValues(userId: string, ids: readonly MetricId[], today: string): Promise<Map<MetricId, StateValue>> {
  const latest = await getLatestDays(userId);
  const byCollection = new Map<string, MetricDef[]>();
  for (const id of ids) {
    const m = getMetric(id);
    byCollection.set(m.collection, [...(byCollection.get(m.collection) ?? []), m]);
  }
  const out = new Map<MetricId, StateValue>();
  for (const [collection, metrics] of byCollection) {
    const newest = latest[collection as keyof typeof latest];
    if (!newest) continue;
    const values = await getMetricValues({ userId, metrics, from: addDays(newest, -LOOKBACK_DAYS), to: newest });
    for (const m of metrics) {
      const row = (values.get(m.id) ?? []).findLast((r) => typeof r.value === "number");
      if (row) out.set(m.id, { value: row.value as number, unit: m.unit, day: row.day, ageDays: diffDays(row.day, today) });
    }
  }
  return out;
}

/** The state document, with only what `can` allows (the rest null). */
export async function getStateDocument(userId: string, can: (kind: DataKind) => boolean): Promise<StateDocument> {
  const { today, timeZone } = await stateToday(userId);
  const wanted = [...Object.values(STATE_METRICS.scores), ...Object.values(STATE_METRICS.night)].filter((id) =>
    kindsOfMetric(getMetric(id)).every((k) => can(k)),
  );
  const values = await newestValues(userId, wanted, today);
  const pick = <K extends string>(group: Record<K, MetricId>) =>
    Object.fromEntries(Object.entries<MetricId>(group).map(([k, id]) => [k, values.get(id) ?? null])) as Record<K, StateValue | null>;
  const cycle = can(CYCLE_DATA_KIND) ? await getCycleToday(userId) : null;
  return {
    today,
    timeZone,
    scores: pick(STATE_METRICS.scores),
    night: pick(STATE_METRICS.night),
    battery: can("ring_battery_level") ? await newestBattery(userId) : null,
    bedtime: can("sleep_time") ? await newestBedtime(userId, today) : null,
    ...(cycle ? { cycle: { day: cycle.day, cycle_day: cycle.cycle_day, phase: cycle.phase, next_period: cycle.next_period } } : {}),
  };
}

/** The ring's newest battery reading (the state document's `battery`). */
export async function newestBattery(userId: string): Promise<StateDocument["battery"]> {
  const reading = await latestSample("ring_battery_level", userId);
  const flag = (v: unknown) => (typeof v === "boolean" ? v : null);
  return reading && typeof reading.fields.level === "number"
    ? {
        level: reading.fields.level,
        charging: flag(reading.fields.charging),
        inCharger: flag(reading.fields.in_charger),
        at: new Date(reading.t).toISOString(),
        freshUntil: new Date(reading.t + BATTERY_FRESH_MS).toISOString(),
      }
    : null;
}

/** The newest bedtime guidance, its ages counted from `today` (the state document's `bedtime`). */
export async function newestBedtime(userId: string, today: string): Promise<StateDocument["bedtime"]> {
  const row = await getNewestBedtimeRow(userId);
  if (!row) return null;
  const window = bedtimeWindowOf(row);
  return {
    day: row.day,
    start: window ? isoAtOffset(window.start, window.offsetSeconds) : null,
    end: window ? isoAtOffset(window.end, window.offsetSeconds) : null,
    status: row.status,
    recommendation: row.recommendation,
    ageDays: diffDays(row.day, today),
  };
}
