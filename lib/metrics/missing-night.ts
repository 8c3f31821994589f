// Why a day has no main sleep: the likeliest reason from what Ringside holds of that night.
// Pure: lib/services/missing-nights.ts gathers the facts (the sleep collection's sync state, the
// rest-mode periods, the ring's battery readings and heart-rate samples of the night) and asks
// here. docs/signals.md ("Why a night is missing") says the same in words.

export const MISSING_REASONS = ["not_synced", "rest_mode", "charger", "not_recorded_yet", "worn_no_sleep", "not_worn"] as const;
export type MissingReason = (typeof MISSING_REASONS)[number];

/** The reason in words, as the Day view, Today and the Calendar say it. */
export const MISSING_REASON_TEXT: Record<MissingReason, string> = {
  charger: "on the charger",
  worn_no_sleep: "worn, but no sleep recorded by the ring",
  rest_mode: "rest mode",
  not_synced: "not downloaded yet",
  not_recorded_yet: "the ring service has nothing yet",
  not_worn: "not worn",
};

/** The night a day's main sleep belongs to: from 22:00 the evening before to 06:00 on the day (local clock). */
export const MISSING_NIGHT = {
  /** minutes after the day's local midnight: −120 (22:00 the evening before) to 360 (06:00) */
  fromMinute: -120,
  toMinute: 360,
  /** battery readings: at least this many in the night, and at least this share of them in the charger */
  minBatteryReadings: 2,
  chargerShare: 0.5,
  /** heart-rate samples in the night that say the ring was on the finger (half an hour of 5-minute samples) */
  minHeartRateSamples: 6,
  /**
   * heart-rate samples count from the day's local midnight: a ring taken off at bedtime the
   * evening before leaves samples before it and says nothing of the night
   */
  heartRateFromMinute: 0,
  /** days before the person's today whose sleep may still come from the phone (0: today, 1: yesterday) */
  recentDays: 1,
} as const;

export type NightFacts = {
  /** the day has a main sleep (a long sleep period) */
  hasMainSleep: boolean;
  /** the sleep periods have been downloaded for the day (the back-fill passed it, or a sync ran since) */
  downloaded: boolean;
  /** a rest-mode period covers the day */
  restMode: boolean;
  /** the ring's battery readings of the night: how many, and how many in the charger */
  battery: { readings: number; inCharger: number };
  /** heart-rate samples of the night, from its local midnight (heartRateFromMinute) */
  heartRateSamples: number;
  /** days from the day to the person's today (0: it is today) */
  daysAgo: number;
};

/**
 * The likeliest reason for a day without a main sleep (null when it has one), first match wins:
 *  1. the sleep periods are not downloaded for the day yet → not_synced;
 *  2. rest mode was on → rest_mode;
 *  3. the battery readings of the night are mostly in the charger → charger;
 *  4. the day is today or yesterday: the phone may not have passed the night on → not_recorded_yet;
 *  5. heart-rate samples through the night (after midnight), yet no sleep → worn_no_sleep;
 *  6. none of these → not_worn.
 */
export function missingReason(f: NightFacts): MissingReason | null {
  const n = MISSING_NIGHT;
  if (f.hasMainSleep) return null;
  if (!f.downloaded) return "not_synced";
  if (f.restMode) return "rest_mode";
  if (f.battery.readings >= n.minBatteryReadings && f.battery.inCharger >= n.chargerShare * f.battery.readings) return "charger";
  if (f.daysAgo <= n.recentDays) return "not_recorded_yet";
  if (f.heartRateSamples >= n.minHeartRateSamples) return "worn_no_sleep";
  return "not_worn";
}
