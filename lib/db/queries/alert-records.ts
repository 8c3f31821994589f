// The alerts tables' records as the database gives them, and their rows (lib/db/queries/alert-rows.ts):
// text times, 0/1 booleans and JSON text turned into Dates, booleans and values. Used by the settings,
// rules and channels (alerts.ts) and the episodes and deliveries (alert-episodes.ts). Pure.
import { clock } from "@/lib/clock";
import { fromDbTime, toDbTime } from "@/lib/db/dialect";
import type {
  AlertChannelRow,
  AlertDeliveryRow,
  AlertEpisodeRow,
  AlertRuleRow,
  DeliveryPurpose,
  DeliveryStatus,
  NewDelivery,
} from "@/lib/db/queries/alert-rows";
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export type Time = string | number | null;
export const at = (v: Time): Date => fromDbTime(v) ?? new Date(0);
export const atOrNull = (v: Time): Date | null => fromDbTime(v);
export const when = (d: Date | null): string | null => (d ? toDbTime(d) : null);

export type RuleRecord = { id: string; userId: string; kind: string; enabled: number | boolean; params: string; createdAt: Time };
export type ChannelRecord = Omit<AlertChannelRow, "kind" | "enabled" | "confirmed" | "createdAt"> & {
  kind: string;
  enabled: number | boolean;
  confirmedAt: Time;
  createdAt: Time;
};
export type EpisodeRecord = Omit<AlertEpisodeRow, "kind" | "startedAt" | "lastSeenAt" | "endedAt"> & {
  kind: string;
  startedAt: Time;
  lastSeenAt: Time;
  endedAt: Time;
};
export type DeliveryRecord = Omit<AlertDeliveryRow, "channelKind" | "purpose" | "status" | "nextAttemptAt" | "sentAt" | "createdAt"> & {
  channelKind: string;
  purpose: string;
  status: string;
  nextAttemptAt: Time;
  sentAt: Time;
  createdAt: Time;
};

export const toRule = (r: RuleRecord): AlertRuleRow => ({
  id: r.id,
  userId: r.userId,
  kind: r.kind,
  enabled: Boolean(r.enabled),
  params: parseJson(r.params),
  createdAt: at(r.createdAt),
});
export const toChannel = (c: ChannelRecord): AlertChannelRow => ({
  id: c.id,
  userId: c.userId,
  kind: c.kind,
  label: c.label,
  url: c.url,
  recipient: c.recipient,
  secret: c.secret,
  enabled: Boolean(c.enabled),
  confirmed: c.kind !== "email" || c.confirmedAt !== null,
  createdAt: at(c.createdAt),
});
export const toEpisode = (e: EpisodeRecord): AlertEpisodeRow => ({
  ...e,
  kind: e.kind,
  startedAt: at(e.startedAt),
  lastSeenAt: at(e.lastSeenAt),
  endedAt: atOrNull(e.endedAt),
});
export const toDelivery = (d: DeliveryRecord): AlertDeliveryRow => ({
  id: d.id,
  userId: d.userId,
  episodeId: d.episodeId,
  channelId: d.channelId,
  channelKind: d.channelKind,
  channelLabel: d.channelLabel,
  purpose: d.purpose as DeliveryPurpose,
  title: d.title,
  body: d.body,
  link: d.link,
  data: d.data,
  status: d.status as DeliveryStatus,
  attempts: Number(d.attempts),
  nextAttemptAt: atOrNull(d.nextAttemptAt),
  lastError: d.lastError,
  sentAt: atOrNull(d.sentAt),
  createdAt: at(d.createdAt),
});

/** A new delivery's message columns, in the order channelId, channelKind, channelLabel, purpose, title, body, link, data. */
export const deliveryValues = (d: NewDelivery) => [d.channelId, d.channelKind, d.channelLabel, d.purpose, d.title, d.body, d.link, d.data] as const;

export const DELIVERY = `d.id, d.userId, d.episodeId, d.channelId, d.channelKind, d.channelLabel, d.purpose, d.title, d.body, d.link, d.data,
  d.status, d.attempts, d.nextAttemptAt, d.lastError, d.sentAt, d.createdAt`;
export const nowText = () => toDbTime(clock.date());
