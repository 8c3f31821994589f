// The alerts tables' rows as Prisma Client reads them, and the app's rows (lib/db/queries/alert-rows.ts):
// the columns each query selects, JSON text turned into values, a channel's confirmation into a flag,
// and a delivery's purpose and status narrowed to the values Ringside writes. Used by the settings,
// rules and channels (alerts.ts) and the episodes and deliveries (alert-episodes.ts). Pure.
import type { Prisma } from "@/lib/generated/prisma/client";
import type { AlertChannelRow, AlertDeliveryRow, AlertRuleRow, DeliveryPurpose, DeliveryStatus, NewDelivery } from "@/lib/db/queries/alert-rows";

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** `value` when it is one of `values`, else `otherwise` (a stored value Ringside did not write). */
function oneOf<T extends string>(values: readonly T[], value: string, otherwise: T): T {
  return values.find((v) => v === value) ?? otherwise;
}

const PURPOSES: readonly DeliveryPurpose[] = ["alert", "digest", "test"];
const STATUSES: readonly DeliveryStatus[] = ["pending", "sent", "failed", "cancelled"];

export const RULE = { id: true, userId: true, kind: true, enabled: true, params: true, createdAt: true } as const;
export const CHANNEL = {
  id: true,
  userId: true,
  kind: true,
  label: true,
  url: true,
  recipient: true,
  secret: true,
  enabled: true,
  confirmedAt: true,
  createdAt: true,
} as const;
export const EPISODE = {
  id: true,
  userId: true,
  ruleId: true,
  kind: true,
  key: true,
  dedupeKey: true,
  title: true,
  startedAt: true,
  lastSeenAt: true,
  endedAt: true,
} as const;
export const DELIVERY = {
  id: true,
  userId: true,
  episodeId: true,
  channelId: true,
  channelKind: true,
  channelLabel: true,
  purpose: true,
  title: true,
  body: true,
  link: true,
  data: true,
  status: true,
  attempts: true,
  nextAttemptAt: true,
  lastError: true,
  sentAt: true,
  createdAt: true,
} as const;

type RuleRecord = Prisma.AlertRuleGetPayload<{ select: typeof RULE }>;
type ChannelRecord = Prisma.AlertChannelGetPayload<{ select: typeof CHANNEL }>;
type DeliveryRecord = Prisma.AlertDeliveryGetPayload<{ select: typeof DELIVERY }>;

export const toRule = (r: RuleRecord): AlertRuleRow => ({ ...r, params: parseJson(r.params) });

export const toChannel = ({ confirmedAt, ...c }: ChannelRecord): AlertChannelRow => ({ ...c, confirmed: c.kind !== "email" || confirmedAt !== null });

export const toDelivery = (d: DeliveryRecord): AlertDeliveryRow => ({
  ...d,
  purpose: oneOf(PURPOSES, d.purpose, "alert"),
  status: oneOf(STATUSES, d.status, "failed"),
});

/** A new delivery's message columns. */
export const deliveryData = (d: NewDelivery) => ({
  channelId: d.channelId,
  channelKind: d.channelKind,
  channelLabel: d.channelLabel,
  purpose: d.purpose,
  title: d.title,
  body: d.body,
  link: d.link,
  data: d.data,
});
