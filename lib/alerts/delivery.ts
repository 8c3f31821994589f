// Delivery policy, pure: how long to wait before the next attempt, when to give up, and what
// a channel row becomes for its sender.
import type { ChannelTarget, OutgoingMessage } from "@/lib/alerts/channels/types";
import type { AlertChannelRow, DueDelivery } from "@/lib/db/queries/alert-rows";

/** Attempts per delivery, the first included (30 s, 1, 2, 4, 8, 16, 32 min between them: about an hour). */
export const MAX_DELIVERY_ATTEMPTS = 8;
export const RETRY_BASE_MS = 30_000;
export const RETRY_MAX_MS = 3_600_000;
/** How long a claimed delivery is held before another tick may take it again (longer than a send). */
export const DELIVERY_LEASE_MS = 120_000;

/** Wait after the `attempts`-th failed attempt (1 = the first): 30 s doubling, at most an hour. */
export function deliveryRetryDelay(attempts: number): number {
  return Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** Math.max(0, Math.min(attempts - 1, 20)));
}

/** A channel row as its sender needs it (secrets decrypted by `decrypt`); null when incomplete. */
export function channelTarget(channel: AlertChannelRow, decrypt: (stored: string) => string): ChannelTarget | null {
  switch (channel.kind) {
    case "ntfy":
      return channel.url ? { kind: "ntfy", url: channel.url, token: channel.secret ? decrypt(channel.secret) : null } : null;
    case "email":
      return channel.recipient ? { kind: "email", recipient: channel.recipient } : null;
    case "webhook":
      return channel.url && channel.secret ? { kind: "webhook", url: channel.url, secret: decrypt(channel.secret) } : null;
    default:
      return null;
  }
}

/** The message of a delivery: its stored words, an id stable across retries, its episode. */
export function outgoingMessage(d: DueDelivery): OutgoingMessage {
  let data: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(d.data);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) data = parsed as Record<string, unknown>;
  } catch {
    /* stored by us; an unreadable one sends without data */
  }
  return {
    purpose: d.purpose,
    id: d.episodeId !== null ? `episode-${d.episodeId}` : `test-${d.id}`,
    rule: d.episode?.kind ?? null,
    key: d.episode?.key ?? null,
    startedAt: (d.episode?.startedAt ?? d.createdAt).toISOString(),
    title: d.title,
    body: d.body,
    link: d.link,
    data,
  };
}
