// The alerts feature's vocabulary and bounds besides the rule kinds (those are the registry,
// lib/alerts/kinds/): the channel kinds, how many rules and channels a person may have, the
// lengths of what they type, the history kept, the weekdays and the digest's metrics. Pure data,
// safe in the browser.
import type { MetricId } from "@/lib/metrics/catalog";

export const ALERT_CHANNEL_KINDS = ["ntfy", "email", "webhook"] as const;
export type AlertChannelKind = (typeof ALERT_CHANNEL_KINDS)[number];

export function isAlertChannelKind(kind: string): kind is AlertChannelKind {
  return (ALERT_CHANNEL_KINDS as readonly string[]).includes(kind);
}

export const ALERT_CHANNEL_LABELS: Record<AlertChannelKind, string> = {
  ntfy: "ntfy",
  email: "E-mail",
  webhook: "Webhook",
};

/** Bounds of what a person can set (each sizes work or storage); each rule kind holds its own parameters' bounds. */
export const ALERT_LIMITS = {
  /** rules per person */
  maxRules: 20,
  /** channels per person */
  maxChannels: 5,
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
