// What alerts exist and their bounds: the one declaration the schemas (lib/alerts/schemas.ts),
// the evaluation, the Settings forms and the README follow. Pure data, safe in the browser.
import type { MetricId } from "@/lib/metrics/catalog";

export const ALERT_RULE_KINDS = [
  "metric_out_of_range",
  "no_new_sleep",
  "connection",
  "weekly_digest",
  "ring_battery_low",
  "ring_charged",
  "bedtime_window",
  "early_warning",
] as const;
export type AlertRuleKind = (typeof ALERT_RULE_KINDS)[number];

export const ALERT_RULE_LABELS: Record<AlertRuleKind, string> = {
  metric_out_of_range: "A metric outside its usual range",
  no_new_sleep: "No new night of sleep",
  connection: "The connection needs attention",
  weekly_digest: "Weekly digest",
  ring_battery_low: "The ring's battery is low",
  ring_charged: "The ring is charged",
  bedtime_window: "Your bedtime window opens",
  early_warning: "Early warning (several night markers off your baseline)",
};

/**
 * Rules sent at a moment rather than while a condition holds (checked on every tick, one message
 * each time): the digest's weekly slot, the bedtime window's start.
 */
export const TIMED_RULE_KINDS: readonly AlertRuleKind[] = ["weekly_digest", "bedtime_window"];

export const ALERT_CHANNEL_KINDS = ["ntfy", "email", "webhook"] as const;
export type AlertChannelKind = (typeof ALERT_CHANNEL_KINDS)[number];

export const ALERT_CHANNEL_LABELS: Record<AlertChannelKind, string> = {
  ntfy: "ntfy",
  email: "E-mail",
  webhook: "Webhook",
};

/** Which side of the usual range a metric rule watches. */
export const METRIC_SIDES = ["below", "above", "either"] as const;

/** Bounds of everything a person can set (each sizes work or storage). */
export const ALERT_LIMITS = {
  /** rules per person */
  maxRules: 20,
  /** channels per person */
  maxChannels: 5,
  /** metric rule: days in a row outside the range */
  metricDays: { min: 1, max: 14, default: 3 },
  /** no new night for this many days (1 would fire every morning before the ring syncs) */
  sleepDays: { min: 2, max: 14, default: 2 },
  /** sync failing for this many hours */
  failingHours: { min: 1, max: 168, default: 12 },
  /** ring battery at or under this level (%), not charging */
  batteryLow: { min: 5, max: 50, default: 20 },
  /** ring charging and at or over this level (%) */
  batteryCharged: { min: 50, max: 100, default: 100 },
  /** http(s) addresses of channels */
  urlMaxLength: 2048,
  labelMaxLength: 60,
  tokenMaxLength: 512,
  emailMaxLength: 254,
  timeZoneMaxLength: 64,
  /** history rows kept per person, and for how long */
  historyKeep: 200,
  historyDays: 180,
  /** history rows shown in Settings */
  historyShown: 50,
  /**
   * Messages a person may have sent at once on request ("Send a test", e-mail confirmation
   * codes), then one more every `sendsRefillMinutes`: a person is watching each one, and
   * without a bound a channel form would make the server a port scanner or a mail cannon.
   */
  sendsBurst: 5,
  sendsRefillMinutes: 2,
} as const;

/** ISO weekdays: 1 = Monday … 7 = Sunday. */
export const WEEKDAYS = [
  { value: 1, label: "Monday" },
  { value: 2, label: "Tuesday" },
  { value: 3, label: "Wednesday" },
  { value: 4, label: "Thursday" },
  { value: 5, label: "Friday" },
  { value: 6, label: "Saturday" },
  { value: 7, label: "Sunday" },
] as const;

/** The metrics a weekly digest covers, in order. */
export const DIGEST_METRICS = [
  "readiness.score",
  "sleep.score",
  "activity.score",
  "night.total_sleep_duration",
  "activity.steps",
] as const satisfies readonly MetricId[];

/** The metric whose best and worst days a digest names. */
export const DIGEST_DAY_METRICS = ["readiness.score", "sleep.score"] as const;
