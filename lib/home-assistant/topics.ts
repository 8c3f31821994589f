import { createHash } from "node:crypto";

// Where Ringside's messages go at the broker (docs/home-automation.md#home-assistant-over-mqtt).
// One device per person, named by a node id derived from the person's immutable id, so that
// every unique_id holds across restarts, renames and a new e-mail, and the broker never learns
// the database's ids:
//   <prefix>/<component>/<node>/<object>/config   discovery config (retained)
//   <base>/<node>/state                          the person's state, one JSON document (retained)
//   <base>/<node>/sync/press                     the "Sync now" button's command
//   <base>/status                                availability: "online", the last will "offline" (retained)
//   <prefix>/status                              Home Assistant's own: "online" when it (re)starts

export type Topics = { baseTopic: string; discoveryPrefix: string };

/** The person's device: `rs_` and 16 hex digits of a hash of their id (topic-safe, unique in practice). */
export function nodeIdOf(userId: string): string {
  return `rs_${createHash("sha256").update(`ringside-home-assistant:${userId}`).digest("hex").slice(0, 16)}`;
}

const NODE_RE = /^rs_[0-9a-f]{16}$/;

export const availabilityTopic = (t: Topics) => `${t.baseTopic}/status`;
export const homeAssistantStatusTopic = (t: Topics) => `${t.discoveryPrefix}/status`;
export const stateTopic = (t: Topics, node: string) => `${t.baseTopic}/${node}/state`;
export const syncCommandTopic = (t: Topics, node: string) => `${t.baseTopic}/${node}/sync/press`;
/** What the publisher subscribes to for every device's button. */
export const syncCommandFilter = (t: Topics) => `${t.baseTopic}/+/sync/press`;
export const configTopic = (t: Topics, component: string, node: string, object: string) => `${t.discoveryPrefix}/${component}/${node}/${object}/config`;

/** The node of a "Sync now" command's topic, or null for any other topic. */
export function nodeOfSyncCommand(t: Topics, topic: string): string | null {
  const prefix = `${t.baseTopic}/`;
  const suffix = "/sync/press";
  if (!topic.startsWith(prefix) || !topic.endsWith(suffix)) return null;
  const node = topic.slice(prefix.length, topic.length - suffix.length);
  return NODE_RE.test(node) ? node : null;
}
