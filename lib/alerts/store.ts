// What the alerts core needs from storage and from the rest of Ringside, as interfaces: the
// worker (lib/alerts/worker.ts) is written against these, so it runs on the real database
// (lib/services/alerts.ts wires lib/db/queries/alerts.ts and the sync/metrics queries) and on
// an in-memory store in unit tests, each with an injected clock.
import type { Clock as ProcessClock } from "@/lib/clock";
import type { AlertChannelKind, AlertRuleKind } from "@/lib/alerts/catalog";
import type { ConnectionFactsInput } from "@/lib/alerts/evaluate";
import type { BatterySample } from "@/lib/alerts/evaluate-ring";
import type { QuietHours } from "@/lib/alerts/schemas";
import type { BedtimeRow } from "@/lib/metrics/bedtime";
import type { EarlyWarningNightFact } from "@/lib/alerts/early-warning";
import type { Units } from "@/lib/metrics/format";
import type { DayValue } from "@/lib/metrics/series";

export type AlertSettingsRow = { userId: string; includeValues: boolean; timeZone: string; linkBase: string | null; quietHours: QuietHours | null };

export type AlertRuleRow = {
  id: string;
  userId: string;
  kind: AlertRuleKind;
  enabled: boolean;
  /** parsed JSON; checked against the kind's schema before use */
  params: unknown;
  createdAt: Date;
};

export type AlertChannelRow = {
  id: string;
  userId: string;
  kind: AlertChannelKind;
  label: string;
  url: string | null;
  recipient: string | null;
  /** encrypted (lib/ring/crypto.ts); decrypted only to send */
  secret: string | null;
  enabled: boolean;
  /** false for an e-mail address not confirmed yet: nothing but its confirmation code goes there */
  confirmed: boolean;
  createdAt: Date;
};

export type AlertEpisodeRow = {
  id: number;
  userId: string;
  ruleId: string | null;
  kind: AlertRuleKind;
  key: string;
  dedupeKey: string | null;
  title: string;
  startedAt: Date;
  lastSeenAt: Date;
  endedAt: Date | null;
};

export type DeliveryStatus = "pending" | "sent" | "failed" | "cancelled";
export type DeliveryPurpose = "alert" | "digest" | "test";

export type NewDelivery = {
  channelId: string;
  channelKind: AlertChannelKind;
  channelLabel: string;
  purpose: DeliveryPurpose;
  title: string;
  body: string;
  link: string | null;
  /** JSON text */
  data: string;
};

export type AlertDeliveryRow = Omit<NewDelivery, "channelId"> & {
  id: number;
  userId: string;
  episodeId: number | null;
  channelId: string | null;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: Date | null;
  lastError: string | null;
  sentAt: Date | null;
  createdAt: Date;
};

/** A claimed delivery with what the message needs from its episode. */
export type DueDelivery = AlertDeliveryRow & { episode: { kind: AlertRuleKind; key: string; startedAt: Date } | null };

export type NewEpisode = {
  userId: string;
  ruleId: string;
  kind: AlertRuleKind;
  key: string;
  dedupeKey: string;
  title: string;
  at: Date;
  /** digests end as they start (one message, nothing to clear) */
  endedAt: Date | null;
};

/** The row a new episode is stored as (its id aside). */
export function episodeFields(e: NewEpisode): Omit<AlertEpisodeRow, "id"> {
  const { at, ...rest } = e;
  return { ...rest, startedAt: at, lastSeenAt: at };
}

export type AlertStore = {
  /** people with at least one switched-on rule */
  listUsersWithEnabledRules(): Promise<string[]>;
  /** the person's settings (defaults when never saved) */
  getSettings(userId: string): Promise<AlertSettingsRow>;
  listRules(userId: string): Promise<AlertRuleRow[]>;
  listChannels(userId: string): Promise<AlertChannelRow[]>;
  getChannel(channelId: string): Promise<AlertChannelRow | null>;
  listOpenEpisodes(userId: string): Promise<AlertEpisodeRow[]>;
  episodeExists(dedupeKey: string): Promise<boolean>;
  /**
   * Opens an episode and queues its deliveries in one transaction; null (and nothing written)
   * when an episode with the same dedupeKey exists (one open episode per rule, one digest per slot).
   */
  openEpisode(episode: NewEpisode, deliveries: NewDelivery[], firstAttemptAt: Date): Promise<AlertEpisodeRow | null>;
  touchEpisode(id: number, at: Date): Promise<void>;
  /** ends the episode (its dedupeKey is released) */
  endEpisode(id: number, at: Date): Promise<void>;
  /**
   * Takes up to `limit` pending deliveries due at `now`: each gets one more attempt and its next
   * attempt moved to `leaseUntil` (so a crash mid-send retries it, and no one else takes it).
   */
  claimDueDeliveries(now: Date, leaseUntil: Date, limit: number): Promise<DueDelivery[]>;
  finishDelivery(id: number, outcome: { status: DeliveryStatus; nextAttemptAt: Date | null; lastError: string | null; sentAt: Date | null }): Promise<void>;
  /** a test message's record (sent at once, never retried) */
  recordDelivery(
    userId: string,
    delivery: NewDelivery,
    outcome: { status: DeliveryStatus; lastError: string | null; sentAt: Date | null; at: Date },
  ): Promise<AlertDeliveryRow>;
  /** keeps each person's newest `keep` deliveries younger than `before`; returns rows removed */
  pruneHistory(opts: { before: Date; keep: number }): Promise<number>;
};

/** Read-only facts about a person from the rest of Ringside. */
export type AlertFacts = {
  metricRows(userId: string, metricId: string, from: string, to: string): Promise<DayValue<number | null>[]>;
  /** the newest day with a night of sleep (a main sleep or a daily sleep score), if any */
  newestNight(userId: string): Promise<string | null>;
  connection(userId: string): Promise<ConnectionFactsInput>;
  tags(userId: string, from: string, to: string): Promise<Array<{ day: string; name: string }>>;
  units(userId: string): Promise<Units>;
  /** the ring's battery readings with an instant in [from, to] (ms), oldest first */
  batterySamples(userId: string, from: number, to: number): Promise<BatterySample[]>;
  /** the newest bedtime guidance (sleep_time), if any */
  newestBedtime(userId: string): Promise<BedtimeRow | null>;
  /** sync work for the person is running or due now (evaluate once it is done) */
  isSyncing(userId: string, now: number): Promise<boolean>;
  /** each night's early warning (lib/signals) in a range; without it the rule is unknown and the digest leaves it out */
  earlyWarning?(userId: string, from: string, to: string): Promise<EarlyWarningNightFact[]>;
};

/** The alert code reads only the time: the one clock (lib/clock.ts), or a test's. */
export type Clock = Pick<ProcessClock, "now">;
