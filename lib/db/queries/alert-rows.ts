// The rows of the alerts tables (prisma/schema.prisma "Alerts and digests") as the queries
// (lib/db/queries/alerts.ts) read and write them. A rule's, an episode's and a channel's kind is
// stored as text: lib/alerts narrows it (the rule kinds' registry, lib/alerts/kinds; the channel
// kinds, lib/alerts/catalog.ts). Types and one pure function, no database access.

/** Quiet hours: alerts that start between `from` and `to` (minutes from midnight, local) wait until `to`. */
export type QuietHours = { from: number; to: number };

export type AlertSettingsRow = { userId: string; includeValues: boolean; timeZone: string; linkBase: string | null; quietHours: QuietHours | null };

export type AlertRuleRow = {
  id: string;
  userId: string;
  kind: string;
  enabled: boolean;
  /** parsed JSON; checked against the kind's schema before use */
  params: unknown;
  createdAt: Date;
};

export type AlertChannelRow = {
  id: string;
  userId: string;
  kind: string;
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
  kind: string;
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
  channelKind: string;
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
export type DueDelivery = AlertDeliveryRow & { episode: { kind: string; key: string; startedAt: Date } | null };

export type NewEpisode = {
  userId: string;
  ruleId: string;
  kind: string;
  key: string;
  dedupeKey: string;
  title: string;
  at: Date;
  /** moments (a digest, a bedtime window) end as they start: one message, nothing to clear */
  endedAt: Date | null;
};

/** The row a new episode is stored as (its id aside). */
export function episodeFields(e: NewEpisode): Omit<AlertEpisodeRow, "id"> {
  const { at, ...rest } = e;
  return { ...rest, startedAt: at, lastSeenAt: at };
}
