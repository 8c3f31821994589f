// What the alerts core needs from storage, as an interface: the worker (lib/alerts/worker.ts)
// is written against it, so it runs on the real database (lib/services/alerts.ts wires
// lib/db/queries/alerts.ts, alert-episodes.ts) and on an in-memory store in unit tests, each with an injected
// clock. The rows are the db layer's (lib/db/queries/alert-rows.ts); what rules read about a
// person is lib/alerts/facts.ts.
import type { Clock as ProcessClock } from "@/lib/clock";
import type {
  AlertChannelRow,
  AlertDeliveryRow,
  AlertEpisodeRow,
  AlertRuleRow,
  AlertSettingsRow,
  DeliveryStatus,
  DueDelivery,
  NewDelivery,
  NewEpisode,
} from "@/lib/db/queries/alert-rows";

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

/** The alert code reads only the time: the one clock (lib/clock.ts), or a test's. */
export type Clock = Pick<ProcessClock, "now">;
