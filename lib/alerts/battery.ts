// The ring's battery as the two battery rule kinds read it (lib/alerts/kinds/ring-battery-low.ts,
// ring-charged.ts): its readings, whether it was on the charger, the current discharge, and the
// words both kinds share. Pure: each function takes the samples the caller read and the instant
// it is now.
import { link, withLink, type AlertMessage, type MessageContext } from "@/lib/alerts/messages";

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
export function dischargeStart(samples: readonly BatterySample[]): number {
  for (let i = samples.length - 1; i >= 1; i--) {
    if (isOnCharger(samples, i) || samples[i]!.level >= samples[i - 1]!.level + CHARGE_RISE) return i + (isOnCharger(samples, i) ? 1 : 0);
  }
  return isOnCharger(samples, 0) ? 1 : 0;
}

/** The readings up to `now`, oldest first; null when the newest is missing or too old to trust. */
export function freshReadings(samples: readonly BatterySample[], now: number): BatterySample[] | null {
  const upTo = samples.filter((s) => s.t <= now).sort((a, b) => a.t - b.t);
  const newest = upTo.at(-1);
  return newest && now - newest.t <= BATTERY_FRESH_MS ? upTo : null;
}

export type BatteryFacts = { level: number; threshold: number; at: number };

/** A battery alert (low, charged): its words, the link to Today, and the threshold, time and (with values) level as data. */
export function batteryMessage(facts: BatteryFacts, ctx: MessageContext, words: { title: string; body: string }): AlertMessage {
  const url = link(ctx, "/");
  return {
    title: words.title,
    body: withLink(words.body, url),
    link: url,
    data: { threshold: facts.threshold, at: new Date(facts.at).toISOString(), ...(ctx.includeValues ? { values: { level: facts.level } } : {}) },
  };
}
