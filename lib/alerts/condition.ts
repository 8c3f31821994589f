// Conditions and episodes, pure. A rule kind that watches a condition (lib/alerts/kinds/) says
// what it is now; an episode is the stretch during which it holds: it opens (and is sent) once,
// stays open while the condition holds, and ends when it clears, so a person hears about each
// stretch once, never each poll.

/**
 * What a rule says now. "unknown" (data too old or missing to tell) changes nothing: an open
 * episode stays open, none is opened.
 */
export type Condition<F = unknown> = { state: "inactive" } | { state: "unknown" } | { state: "active"; key: string; facts: F };

/** Day data older than this many days before today tells nothing about now. */
export const METRIC_STALE_DAYS = 2;

/** What to do with a rule's episode, given the open one (if any) and the condition now. */
export type EpisodeStep =
  { action: "none" } | { action: "keep" } | { action: "open"; key: string } | { action: "end" } | { action: "end_and_open"; key: string };

export function nextEpisodeStep(open: { key: string } | null, condition: Condition): EpisodeStep {
  if (condition.state === "unknown") return open ? { action: "keep" } : { action: "none" };
  if (condition.state === "inactive") return open ? { action: "end" } : { action: "none" };
  if (!open) return { action: "open", key: condition.key };
  return open.key === condition.key ? { action: "keep" } : { action: "end_and_open", key: condition.key };
}
