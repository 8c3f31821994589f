// Test support, never imported by the app: an in-memory AlertStore (the same contract as
// lib/db/queries/alerts.ts and alert-episodes.ts, including one open episode per rule and one digest per slot), a
// manual clock, and senders that record what they were given.
import type { ChannelTarget, OutgoingMessage, SendResult, Senders } from "@/lib/alerts/channels/types";
import type { AlertFacts } from "@/lib/alerts/facts";
import type { RuleEnv } from "@/lib/alerts/kinds/define";
import type { MessageContext } from "@/lib/alerts/messages";
import type { AlertStore, Clock } from "@/lib/alerts/store";
import { episodeFields } from "@/lib/db/queries/alert-rows";
import type { AlertChannelRow, AlertDeliveryRow, AlertEpisodeRow, AlertRuleRow, AlertSettingsRow, DueDelivery } from "@/lib/db/queries/alert-rows";

// the one manual clock (lib/clock.ts): advance() without timers moves it at once, set() takes an ISO instant
export { ManualClock } from "@/lib/clock";

/** Facts of a person with nothing to tell (no rows, no night, an active connection, metric units), but for `overrides`. */
export function quietFacts(overrides: Partial<AlertFacts> = {}): AlertFacts {
  return {
    metricRows: async () => [],
    newestNight: async () => null,
    connection: async () => ({ status: "active", since: null, collections: [] }),
    tags: async () => [],
    units: async () => "metric",
    isSyncing: async () => false,
    batterySamples: async () => [],
    newestBedtime: async () => null,
    ...overrides,
  };
}

export class MemoryAlertStore implements AlertStore {
  settings = new Map<string, AlertSettingsRow>();
  rules: AlertRuleRow[] = [];
  channels: AlertChannelRow[] = [];
  episodes: AlertEpisodeRow[] = [];
  deliveries: AlertDeliveryRow[] = [];
  private nextId = 1;

  addRule(userId: string, kind: AlertRuleRow["kind"], params: unknown, createdAt = new Date(0)): AlertRuleRow {
    const r: AlertRuleRow = { id: `rule-${this.nextId++}`, userId, kind, enabled: true, params, createdAt };
    this.rules.push(r);
    return r;
  }

  addChannel(userId: string, kind: AlertChannelRow["kind"], extra: Partial<AlertChannelRow> = {}): AlertChannelRow {
    const c: AlertChannelRow = {
      id: `ch-${this.nextId++}`,
      userId,
      kind,
      label: kind,
      url: null,
      recipient: null,
      secret: null,
      enabled: true,
      confirmed: true,
      createdAt: new Date(0),
      ...extra,
    };
    this.channels.push(c);
    return c;
  }

  async listUsersWithEnabledRules() {
    return [...new Set(this.rules.filter((r) => r.enabled).map((r) => r.userId))].sort();
  }
  async getSettings(userId: string) {
    return this.settings.get(userId) ?? { userId, includeValues: false, timeZone: "UTC", linkBase: null, quietHours: null };
  }
  async listRules(userId: string) {
    return this.rules.filter((r) => r.userId === userId);
  }
  async listChannels(userId: string) {
    return this.channels.filter((c) => c.userId === userId);
  }
  async getChannel(id: string) {
    return this.channels.find((c) => c.id === id) ?? null;
  }
  async listOpenEpisodes(userId: string) {
    return this.episodes.filter((e) => e.userId === userId && !e.endedAt);
  }
  async episodeExists(dedupeKey: string) {
    return this.episodes.some((e) => e.dedupeKey === dedupeKey);
  }
  async openEpisode(...[e, deliveries, first]: Parameters<AlertStore["openEpisode"]>) {
    if (this.episodes.some((x) => x.dedupeKey === e.dedupeKey)) return null;
    const episode: AlertEpisodeRow = { id: this.nextId++, ...episodeFields(e) };
    this.episodes.push(episode);
    for (const d of deliveries) {
      this.deliveries.push({
        ...d,
        id: this.nextId++,
        userId: e.userId,
        episodeId: episode.id,
        status: "pending",
        attempts: 0,
        nextAttemptAt: first,
        lastError: null,
        sentAt: null,
        createdAt: e.at,
      });
    }
    return episode;
  }
  async touchEpisode(id: number, at: Date) {
    const e = this.episodes.find((x) => x.id === id && !x.endedAt);
    if (e) e.lastSeenAt = at;
  }
  async endEpisode(id: number, at: Date) {
    const e = this.episodes.find((x) => x.id === id && !x.endedAt);
    if (e) Object.assign(e, { endedAt: at, lastSeenAt: at, dedupeKey: null });
  }
  async claimDueDeliveries(now: Date, leaseUntil: Date, limit: number): Promise<DueDelivery[]> {
    const due = this.deliveries
      .filter((d) => d.status === "pending" && d.nextAttemptAt && d.nextAttemptAt <= now)
      .sort((a, b) => a.nextAttemptAt!.getTime() - b.nextAttemptAt!.getTime() || a.id - b.id)
      .slice(0, limit);
    return due.map((d) => {
      d.attempts++;
      d.nextAttemptAt = leaseUntil;
      const e = this.episodes.find((x) => x.id === d.episodeId);
      return { ...d, episode: e ? { kind: e.kind, key: e.key, startedAt: e.startedAt } : null };
    });
  }
  async finishDelivery(id: number, outcome: Parameters<AlertStore["finishDelivery"]>[1]) {
    Object.assign(
      this.deliveries.find((d) => d.id === id)!,
      outcome,
    );
  }
  async recordDelivery(...[userId, d, o]: Parameters<AlertStore["recordDelivery"]>) {
    const row: AlertDeliveryRow = {
      ...d,
      id: this.nextId++,
      userId,
      episodeId: null,
      status: o.status,
      attempts: 1,
      nextAttemptAt: null,
      lastError: o.lastError,
      sentAt: o.sentAt,
      createdAt: o.at,
    };
    this.deliveries.push(row);
    return row;
  }
  async pruneHistory() {
    return 0;
  }
}

export type SentRecord = { target: ChannelTarget; message: OutgoingMessage };

/** Senders that record every call and answer what `answer` says (ok by default). */
export function recordingSenders(answer: (target: ChannelTarget, message: OutgoingMessage, n: number) => SendResult = () => ({ ok: true })) {
  const sent: SentRecord[] = [];
  const make = () => async (target: ChannelTarget, message: OutgoingMessage) => {
    sent.push({ target, message });
    return answer(target, message, sent.length);
  };
  const senders: Senders = { ntfy: make(), email: make(), webhook: make() };
  return { senders, sent };
}

/**
 * The alerts side of the app for the integration tests, on `clock`: the service, a sync engine
 * that never waits (one quick retry) and the worker, both on that clock, and the raw database.
 * Import only after startSyncTestEnv (the modules read the environment it sets).
 */
export async function importAlertApp(clock: Clock) {
  const { SyncEngine } = await import("@/lib/sync/engine");
  const service = await import("@/lib/services/alerts");
  return {
    service,
    engine: new SyncEngine({
      clock: { now: () => clock.now(), sleep: async () => undefined },
      clientOptions: { backoff: { baseMs: 1, maxMs: 1, maxRetries: 1 } },
    }),
    worker: service.createAlertWorker({ clock }),
    raw: await import("@/lib/db/client"),
  };
}
export type AlertApp = Awaited<ReturnType<typeof importAlertApp>>;

/** What a rule kind reads when it is looked at (lib/alerts/kinds/define.ts): quiet facts but for `facts`, at `now` in UTC. */
export function ruleEnv(now: string, facts: Partial<AlertFacts> = {}, overrides: Partial<RuleEnv> = {}): RuleEnv {
  return {
    userId: "u",
    facts: quietFacts(facts),
    today: now.slice(0, 10),
    now: Date.parse(now),
    timeZone: "UTC",
    quietHours: null,
    digestSections: async () => [],
    ...overrides,
  };
}

/** A message's context for kinds' tests: metric units, UTC, a link base; values as asked. */
export const messageContext = (includeValues: boolean): MessageContext => ({
  includeValues,
  units: "metric",
  timeZone: "UTC",
  linkBase: "https://ring.example",
});
