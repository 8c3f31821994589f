import "server-only";
import { clock } from "@/lib/clock";
import crypto from "node:crypto";
import { postToReceiver } from "@/lib/alerts/channels/http";
import { addressPolicy, type AddressPolicy } from "@/lib/alerts/channels/address";
import type { OutgoingMessage, Sender } from "@/lib/alerts/channels/types";

// Webhooks: a JSON POST signed with the channel's own secret (shown once when the channel is
// made, stored encrypted). A receiver checks, in this order (README "Alerts"):
//   1. X-Ringside-Timestamp is within 5 minutes of its clock (no replays);
//   2. X-Ringside-Signature equals "sha256=" + hex(HMAC-SHA256(secret, timestamp + "." + raw body)),
//      compared in constant time;
//   3. X-Ringside-Event (the same on every retry) was not seen before.
// The body is identical on every retry; the timestamp and signature are made per attempt.

export const WEBHOOK_SIGNATURE_HEADER = "x-ringside-signature";
export const WEBHOOK_TIMESTAMP_HEADER = "x-ringside-timestamp";
export const WEBHOOK_EVENT_HEADER = "x-ringside-event";

/** A new signing secret: 32 random bytes, base64url (43 characters). */
export function newWebhookSecret(): string {
  return crypto.randomBytes(32).toString("base64url");
}

export function signWebhookPayload(secret: string, timestamp: string, body: string): string {
  return `sha256=${crypto.createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
}

/** The JSON a webhook receives (documented in the README). */
export function webhookBody(message: OutgoingMessage): string {
  return JSON.stringify({
    type: message.purpose,
    id: message.id,
    rule: message.rule,
    key: message.key,
    title: message.title,
    message: message.body,
    link: message.link,
    started_at: message.startedAt,
    data: message.data,
  });
}

export function createWebhookSender(now: () => number = () => clock.now(), policy: AddressPolicy = addressPolicy()): Sender {
  return async (target, message, signal) => {
    if (target.kind !== "webhook") throw new Error("not a webhook channel");
    const body = webhookBody(message);
    const timestamp = String(Math.floor(now() / 1000));
    return postToReceiver(
      target.url,
      {
        headers: {
          "content-type": "application/json",
          "user-agent": "Ringside-Alerts/1",
          [WEBHOOK_TIMESTAMP_HEADER]: timestamp,
          [WEBHOOK_SIGNATURE_HEADER]: signWebhookPayload(target.secret, timestamp, body),
          [WEBHOOK_EVENT_HEADER]: message.id,
        },
        body,
        signal,
      },
      policy,
    );
  };
}
