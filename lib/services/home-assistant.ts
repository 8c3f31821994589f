import "server-only";
import { AppError } from "@/lib/http/errors";
import { env } from "@/lib/env.mjs";
import { logger } from "@/lib/log";
import { addDays } from "@/lib/days";
import { CYCLE_DATA_KIND, DATA_KINDS, parseStoredKinds, type DataKind } from "@/lib/auth/api-scopes";
import { homeAssistantSettingsInputSchema } from "@/lib/schemas/requests";
import { endHomeAssistantPublish, findHomeAssistantPublish, saveHomeAssistantPublish } from "@/lib/db/queries/home-assistant";
import { listSyncStates } from "@/lib/db/queries/sync-state";
import { entitiesFor, metricsOf, signalsOf, type EntityDef, type HomeAssistantSnapshot } from "@/lib/home-assistant/entities";
import { nodeIdOf } from "@/lib/home-assistant/topics";
import type { Marker } from "@/lib/signals/early-warning";
import { getCycleSettings } from "@/lib/services/cycle-entries";
import { getCycleToday } from "@/lib/services/cycle";
import { getSignals } from "@/lib/services/signals";
import { newestBattery, newestBedtime, newestValues } from "@/lib/services/state";
import { stateToday } from "@/lib/services/person-today";

// A person's Home Assistant publishing (Settings → Home automation): off until they turn it on,
// with the data kinds they choose as for a token; only they can change it (the caller is the
// signed-in person, never a person named by a form). Turning it off, "Delete all my data" and a
// member's removal end it here (endHomeAssistant), so their device disappears from Home
// Assistant. And what the publisher (lib/services/home-assistant-publisher.ts) reads for a person.

export type HomeAssistantSettings = {
  enabled: boolean;
  kinds: DataKind[];
  /** MQTT_URL is set: this Ringside talks to a broker */
  configured: boolean;
};

/** What a person who never chose publishes when they turn it on: every kind but the cycle (as a new token). */
const DEFAULT_KINDS: readonly DataKind[] = DATA_KINDS.filter((k) => k !== CYCLE_DATA_KIND);

export async function getHomeAssistantSettings(userId: string): Promise<HomeAssistantSettings> {
  const row = await findHomeAssistantPublish(userId);
  return { enabled: row?.enabled ?? false, kinds: row ? parseStoredKinds(row.kinds) : [...DEFAULT_KINDS], configured: env.MQTT !== null };
}

/** Turns publishing on or off with the kinds given (a bad input is a 422 that changes nothing). */
export async function saveHomeAssistantSettings(userId: string, input: unknown): Promise<HomeAssistantSettings> {
  const parsed = homeAssistantSettingsInputSchema.safeParse(input);
  if (!parsed.success) throw new AppError("unprocessable_entity", parsed.error.issues[0]?.message ?? "The request is not valid.");
  const before = await findHomeAssistantPublish(userId);
  // turned off without kinds: the ones chosen before stay for the next time
  const kinds = parsed.data.kinds.length > 0 ? parsed.data.kinds : before ? parseStoredKinds(before.kinds) : [...DEFAULT_KINDS];
  await saveHomeAssistantPublish(userId, nodeIdOf(userId), { enabled: parsed.data.enabled, kinds: JSON.stringify(kinds) });
  logger.info({ userId, enabled: parsed.data.enabled, kinds: kinds.length }, "home assistant publishing saved");
  return getHomeAssistantSettings(userId);
}

/**
 * Ends the person's publishing for good, before their data or the person goes ("Delete all my
 * data", a member's removal): the setting is deleted, and the publisher empties their device's
 * retained messages at the broker. Nothing when they never published.
 */
export async function endHomeAssistant(userId: string): Promise<void> {
  if (await endHomeAssistantPublish(userId, nodeIdOf(userId))) logger.info({ userId }, "home assistant publishing ended");
}

/** The entities a person's device has now: their kinds, and the cycle's only while they track it. */
export async function homeAssistantEntitiesOf(userId: string, storedKinds: string): Promise<EntityDef[]> {
  const kinds = new Set(parseStoredKinds(storedKinds));
  const tracking = kinds.has(CYCLE_DATA_KIND) ? (await getCycleSettings(userId)).tracking : false;
  return entitiesFor(kinds, tracking);
}

/** How many days back the newest signal is looked for. */
const SIGNAL_LOOKBACK_DAYS = 6;

/** What those entities show for the person: only what they read, each the newest there is. */
export async function readHomeAssistantSnapshot(userId: string, entities: readonly EntityDef[]): Promise<HomeAssistantSnapshot> {
  const shows = (object: string) => entities.some((e) => e.object === object);
  const { today } = await stateToday(userId);
  const values = await newestValues(userId, metricsOf(entities), today);
  const signalKinds = signalsOf(entities);
  const signals = signalKinds.length ? await getSignals({ userId, from: addDays(today, -SIGNAL_LOOKBACK_DAYS), to: today, kinds: signalKinds }) : null;
  let earlyWarning: HomeAssistantSnapshot["earlyWarning"] = null;
  let sleepDebt: HomeAssistantSnapshot["sleepDebt"] = null;
  for (const d of signals?.days ?? []) {
    for (const s of d.signals) {
      if (s.kind === "early_warning" && s.level !== null) {
        earlyWarning = { day: d.day, level: s.level, flagged: s.markers.filter((m) => m.flagged).map((m): Marker => m.marker) };
      }
      if (s.kind === "sleep_debt" && s.value !== null) sleepDebt = { day: d.day, hours: s.value };
    }
  }
  const cycle = shows("cycle_phase") ? await getCycleToday(userId) : null;
  return {
    metrics: Object.fromEntries([...values].map(([id, v]) => [id, { value: v.value, day: v.day }])),
    earlyWarning,
    sleepDebt,
    battery: shows("battery") ? await newestBattery(userId) : null,
    bedtime: shows("bedtime_start") ? await newestBedtime(userId, today) : null,
    lastSyncAt: shows("last_sync") ? await lastSuccessfulSync(userId) : null,
    cycle: cycle ? { day: cycle.day, cycleDay: cycle.cycle_day, phase: cycle.phase } : null,
  };
}

/** The newest successful sync of any of the person's collections. */
async function lastSuccessfulSync(userId: string): Promise<string | null> {
  let newest: Date | null = null;
  for (const s of await listSyncStates(userId)) {
    const at = s.lastSuccessAt;
    if (at && (!newest || at > newest)) newest = at;
  }
  return newest ? newest.toISOString() : null;
}
