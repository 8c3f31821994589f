// The ring's own state as alert conditions: its battery (low while discharging, charged on the
// charger) and tonight's bedtime window. Pure: each takes the samples or the guidance the caller
// read and the instant it is now. The battery rules are episodes (lib/alerts/evaluate.ts): one
// message per discharge cycle, one per charge; the bedtime window is a moment, sent once a night.
import type { Condition } from "@/lib/alerts/evaluate";
import type { BatteryRuleParams } from "@/lib/alerts/schemas";
import { bedtimeWindowOf, type BedtimeRow, type BedtimeWindow } from "@/lib/metrics/bedtime";

/** One battery reading of the ring (`ring_battery_level`); the two flags may be missing. */
export type BatterySample = { t: number; level: number; charging: boolean | null; inCharger: boolean | null };

/** A reading older than this tells nothing about the ring now (it syncs through the phone). */
export const BATTERY_FRESH_MS = 3 * 3_600_000;
/** How far back the rules read: longer than a charge lasts, so the current cycle's start is in it. */
export const BATTERY_LOOKBACK_MS = 14 * 86_400_000;
/** A rise of this many points between two readings is a charge, whatever the flags say. */
export const CHARGE_RISE = 5;

/**
 * Whether the ring was on the charger at reading `i`: its flags say so (charging, or in the
 * charger), or, when the service sent neither flag, the level rose since the reading before.
 */
export function isOnCharger(samples: readonly BatterySample[], i: number): boolean {
  const s = samples[i]!;
  if (s.charging === true || s.inCharger === true) return true;
  if (s.charging !== null || s.inCharger !== null) return false;
  const prev = samples[i - 1];
  return prev !== undefined && s.level > prev.level;
}

/** The index of the first reading of the current discharge (after the last charge seen; 0 if none). */
function dischargeStart(samples: readonly BatterySample[]): number {
  for (let i = samples.length - 1; i >= 1; i--) {
    if (isOnCharger(samples, i) || samples[i]!.level >= samples[i - 1]!.level + CHARGE_RISE) return i + (isOnCharger(samples, i) ? 1 : 0);
  }
  return isOnCharger(samples, 0) ? 1 : 0;
}

/** The readings up to `now`, oldest first; null when the newest is missing or too old to trust. */
function freshReadings(samples: readonly BatterySample[], now: number): BatterySample[] | null {
  const upTo = samples.filter((s) => s.t <= now).sort((a, b) => a.t - b.t);
  const newest = upTo.at(-1);
  return newest && now - newest.t <= BATTERY_FRESH_MS ? upTo : null;
}

export type BatteryFacts = { level: number; threshold: number; at: number };

/**
 * "The ring's battery is low": the newest reading (recent enough to trust) is at or under the
 * threshold and the ring is off the charger. One episode per discharge cycle: its key is the
 * cycle's first reading, and it ends when a charge is seen (on the charger, or the level jumped).
 * A reading back over the threshold within the same cycle (the level wobbles) changes nothing.
 */
export function evaluateBatteryLowRule(params: BatteryRuleParams, samples: readonly BatterySample[], now: number): Condition<BatteryFacts> {
  const r = freshReadings(samples, now);
  if (!r) return { state: "unknown" };
  const last = r.length - 1;
  if (isOnCharger(r, last)) return { state: "inactive" };
  const start = dischargeStart(r);
  const cycle = r.slice(start);
  const newest = r[last]!;
  if (newest.level <= params.level) {
    return {
      state: "active",
      key: `cycle:${new Date(cycle[0]?.t ?? newest.t).toISOString()}`,
      facts: { level: newest.level, threshold: params.level, at: newest.t },
    };
  }
  // over the threshold now, under it earlier in this cycle: the same discharge, nothing to say
  return cycle.some((s) => s.level <= params.level) ? { state: "unknown" } : { state: "inactive" };
}

/**
 * "The ring is charged": the newest reading (recent enough) is on the charger at or over the
 * level. One episode per charge: its key is the charge's first reading on the charger; it ends
 * when the ring comes off. On the charger under the level changes nothing.
 */
export function evaluateChargedRule(params: BatteryRuleParams, samples: readonly BatterySample[], now: number): Condition<BatteryFacts> {
  const r = freshReadings(samples, now);
  if (!r) return { state: "unknown" };
  const last = r.length - 1;
  if (!isOnCharger(r, last)) return { state: "inactive" };
  const newest = r[last]!;
  if (newest.level < params.level) return { state: "unknown" };
  let first = last;
  while (first > 0 && isOnCharger(r, first - 1)) first--;
  return { state: "active", key: `charge:${new Date(r[first]!.t).toISOString()}`, facts: { level: newest.level, threshold: params.level, at: newest.t } };
}

export type BedtimeFacts = { day: string; window: BedtimeWindow; recommendation: string | null };

/**
 * "Your bedtime window opens": the newest bedtime guidance has a window, and now is inside it
 * (from its start until its end). Null otherwise: a night without a recommendation, guidance
 * for another night (the window is past or not yet open), or no guidance at all.
 */
export function openBedtimeWindow(newest: BedtimeRow | null, now: number): BedtimeFacts | null {
  if (!newest) return null;
  const window = bedtimeWindowOf(newest);
  if (!window || now < window.start || now >= window.end) return null;
  return { day: newest.day, window, recommendation: newest.recommendation };
}
