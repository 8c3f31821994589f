import type { AlertChannelKind } from "@/lib/alerts/catalog";
import type { AlertMessage } from "@/lib/alerts/messages";

/** A channel as a sender needs it: secrets already decrypted (never logged, never stored plain). */
export type ChannelTarget =
  { kind: "ntfy"; url: string; token: string | null } | { kind: "email"; recipient: string } | { kind: "webhook"; url: string; secret: string };

/** One message out: what it is, which episode (webhook receivers dedupe on it), and its words. */
export type OutgoingMessage = AlertMessage & {
  purpose: "alert" | "digest" | "test";
  /** stable across retries of the same delivery */
  id: string;
  /** the rule's kind and the episode's key, when it is an alert */
  rule: string | null;
  key: string | null;
  startedAt: string;
};

/**
 * The outcome of one attempt. `retry`: worth trying again later (network, timeout, 5xx, 429);
 * otherwise the channel refused for good (a 4xx, a redirect, a bad address). `error` is for the
 * person (the history): no secrets, no addresses.
 */
export type SendResult = { ok: true } | { ok: false; retry: boolean; error: string };

export type Sender = (target: ChannelTarget, message: OutgoingMessage, signal?: AbortSignal) => Promise<SendResult>;

export type Senders = Record<AlertChannelKind, Sender>;
