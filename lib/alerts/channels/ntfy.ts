import "server-only";
import { ntfyTopicOf } from "@/lib/alerts/schemas";
import { postToReceiver } from "@/lib/alerts/channels/http";
import { addressPolicy, type AddressPolicy } from "@/lib/alerts/channels/address";
import type { Sender } from "@/lib/alerts/channels/types";

// ntfy (https://docs.ntfy.sh/publish/): the person gives their topic's URL on any server,
// e.g. https://ntfy.sh/my-ringside-topic, and an optional access token. Ringside publishes as
// JSON to the server's root (the URL without its last part) with the topic in the body, so a
// title and text in any language travel as UTF-8 (header values cannot). The token goes in
// `Authorization: Bearer`.

/** Where the JSON publish goes, and the topic, for a topic URL. */
export function ntfyPublishTarget(topicUrl: string): { endpoint: string; topic: string } | null {
  const topic = ntfyTopicOf(topicUrl);
  if (!topic) return null;
  const u = new URL(topicUrl);
  const parts = u.pathname.split("/").filter(Boolean);
  parts.pop();
  u.pathname = `/${parts.map((p) => `${p}/`).join("")}`;
  return { endpoint: u.toString(), topic };
}

const TAGS: Record<string, string[]> = {
  alert: ["warning"],
  digest: ["calendar"],
  test: ["white_check_mark"],
};

/** The ntfy sender; `policy`: the private addresses the owner allows (ALERT_ALLOWED_PRIVATE_HOSTS). */
export const createNtfySender =
  (policy: AddressPolicy = addressPolicy()): Sender =>
  async (target, message, signal) => {
    if (target.kind !== "ntfy") throw new Error("not an ntfy channel");
    const t = ntfyPublishTarget(target.url);
    if (!t) return { ok: false, retry: false, error: "the address does not end with a topic name" };
    const body = JSON.stringify({
      topic: t.topic,
      title: message.title,
      message: message.body,
      tags: TAGS[message.purpose] ?? [],
      priority: message.purpose === "alert" ? 4 : 3,
      ...(message.link ? { click: message.link } : {}),
    });
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (target.token) headers.authorization = `Bearer ${target.token}`;
    return postToReceiver(t.endpoint, { headers, body, signal }, policy);
  };
