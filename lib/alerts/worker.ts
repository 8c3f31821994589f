// The alerts worker: evaluates people's rules after their syncs and every few minutes (each rule
// kind of the registry, lib/alerts/kinds/, says what it watches), sends each moment (a weekly
// digest, a bedtime window) when it is due, and delivers queued messages with retries. Everything it
// touches comes in through its options (store, facts, senders, clock), so tests drive it with
// `tick()` on a manual clock and in-memory or real storage. `start()` only adds a timer that
// calls `tick()`; it is called once, at startup, next to the sync scheduler.
import { logger as defaultLogger } from "@/lib/log";
import { nextEpisodeStep } from "@/lib/alerts/condition";
import { ALERT_KINDS, parseRule, type AlertKind } from "@/lib/alerts/kinds";
import type { DigestSection, RuleEnv } from "@/lib/alerts/kinds/define";
import type { AlertMessage, MessageContext } from "@/lib/alerts/messages";
import { channelTarget, DELIVERY_LEASE_MS, deliveryRetryDelay, MAX_DELIVERY_ATTEMPTS, outgoingMessage } from "@/lib/alerts/delivery";
import { isQuietAt, localTime, quietHoursEnd } from "@/lib/alerts/time";
import { ALERT_LIMITS } from "@/lib/alerts/catalog";
import type { Senders } from "@/lib/alerts/channels/types";
import type { AlertFacts } from "@/lib/alerts/facts";
import type { AlertStore, Clock } from "@/lib/alerts/store";
import type { AlertChannelRow, AlertRuleRow, AlertSettingsRow, DueDelivery, NewDelivery } from "@/lib/db/queries/alert-rows";

type Log = Pick<typeof defaultLogger, "info" | "warn" | "error">;

export type AlertWorkerOptions = {
  store: AlertStore;
  facts: AlertFacts;
  senders: Senders;
  clock: Clock;
  /** decrypts a channel's stored secret */
  decrypt: (stored: string) => string;
  /** the configured public origin (AUTH_URL / PUBLIC_URL); else each person's saved one */
  linkBase: string | null;
  /** every rule of every person is evaluated this often (time alone can change a condition) */
  evaluateEveryMs?: number;
  /** the timer's longest sleep between ticks (start() only) */
  tickMs?: number;
  /** a sync's end wakes the worker after this short pause (several collections end together) */
  wakeDelayMs?: number;
  /** messages sent at once */
  sendConcurrency?: number;
  log?: Log;
};

export type TickReport = { evaluated: number; opened: number; ended: number; digests: number; nudges: number; sent: number; retried: number; failed: number };

const DAY_MS = 86_400_000;

/** A rule checked against its kind: the kind and its parameters. */
type ParsedRule = AlertRuleRow & { def: AlertKind; params: unknown };

/** Sent at a moment (checked every tick), not while a condition holds. */
const isMoment = (kind: string) => ALERT_KINDS.some((k) => k.kind === kind && k.watch.type === "moment");

export class AlertWorker {
  private readonly store: AlertStore;
  private readonly facts: AlertFacts;
  private readonly senders: Senders;
  private readonly clock: Clock;
  private readonly decrypt: (stored: string) => string;
  private readonly linkBase: string | null;
  private readonly evaluateEveryMs: number;
  private readonly tickMs: number;
  private readonly wakeDelayMs: number;
  private readonly sendConcurrency: number;
  private readonly log: Log;
  /** people whose data changed since their last evaluation */
  private readonly dirty = new Set<string>();
  private lastFullEvaluation = Number.NEGATIVE_INFINITY;
  private lastPrune = Number.NEGATIVE_INFINITY;
  private running: Promise<TickReport> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private timerDue = 0;
  private stopped = true;

  constructor(opts: AlertWorkerOptions) {
    this.store = opts.store;
    this.facts = opts.facts;
    this.senders = opts.senders;
    this.clock = opts.clock;
    this.decrypt = opts.decrypt;
    this.linkBase = opts.linkBase;
    this.evaluateEveryMs = opts.evaluateEveryMs ?? 5 * 60_000;
    this.tickMs = opts.tickMs ?? 30_000;
    this.wakeDelayMs = opts.wakeDelayMs ?? 1_500;
    this.sendConcurrency = Math.max(1, opts.sendConcurrency ?? 4);
    this.log = opts.log ?? defaultLogger;
  }

  // -------------------------------------------------------------------------------------
  // Timer (production): tick() every tickMs, or soon after wake()
  // -------------------------------------------------------------------------------------

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
  }

  /** A sync of the person's data finished (or failed): evaluate their rules soon. */
  markSynced(userId: string): void {
    this.dirty.add(userId);
    this.wake();
  }

  /** Something changed (settings, a sync): look again soon. */
  wake(): void {
    if (this.stopped) return;
    const due = this.clock.now() + this.wakeDelayMs;
    if (this.timer && this.timerDue <= due) return;
    this.schedule(this.wakeDelayMs);
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerDue = this.clock.now() + ms;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.tick()
        .catch((err) => this.log.error({ err: err instanceof Error ? err.message : String(err) }, "alerts tick failed"))
        .finally(() => {
          // a wake() during the pass has set the next timer already
          if (!this.timer) this.schedule(this.tickMs);
        });
    }, ms);
    this.timer.unref?.();
  }

  // -------------------------------------------------------------------------------------
  // One pass
  // -------------------------------------------------------------------------------------

  /**
   * One pass: evaluate the people due for it (data changed, or the periodic look), send due
   * digests, deliver due messages, prune old history once a day. Overlapping calls share one
   * pass (and one more runs after it when asked meanwhile).
   */
  async tick(): Promise<TickReport> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.pass().finally(() => {
      this.running = null;
    });
    const report = await this.running;
    if (this.again) {
      this.again = false;
      return this.tick();
    }
    return report;
  }

  private async pass(): Promise<TickReport> {
    const report: TickReport = { evaluated: 0, opened: 0, ended: 0, digests: 0, nudges: 0, sent: 0, retried: 0, failed: 0 };
    const now = this.clock.now();
    const users = await this.store.listUsersWithEnabledRules();
    const full = now - this.lastFullEvaluation >= this.evaluateEveryMs;
    if (full) this.lastFullEvaluation = now;
    for (const userId of users) {
      try {
        if (full || this.dirty.has(userId)) {
          if (await this.facts.isSyncing(userId, now)) {
            this.dirty.add(userId); // evaluated when the sync is through
          } else {
            this.dirty.delete(userId);
            await this.evaluatePerson(userId, now, report);
            report.evaluated++;
          }
        }
        await this.sendDueMoments(userId, now, report);
      } catch (err) {
        this.log.error({ userId, err: err instanceof Error ? err.message : String(err) }, "alert evaluation failed");
      }
    }
    for (const id of this.dirty) if (!users.includes(id)) this.dirty.delete(id);
    await this.deliverDue(now, report);
    if (now - this.lastPrune >= DAY_MS) {
      this.lastPrune = now;
      const removed = await this.store.pruneHistory({ before: new Date(now - ALERT_LIMITS.historyDays * DAY_MS), keep: ALERT_LIMITS.historyKeep });
      if (removed > 0) this.log.info({ removed }, "old alert history pruned");
    }
    return report;
  }

  private async context(userId: string): Promise<{ ctx: MessageContext; today: string; settings: AlertSettingsRow }> {
    const settings = await this.store.getSettings(userId);
    const units = await this.facts.units(userId);
    return {
      ctx: { includeValues: settings.includeValues, units, timeZone: settings.timeZone, linkBase: this.linkBase ?? settings.linkBase },
      today: localTime(this.clock.now(), settings.timeZone).day,
      settings,
    };
  }

  private parse(rule: AlertRuleRow): ParsedRule | null {
    const r = parseRule(rule);
    if (!r) {
      this.log.warn({ ruleId: rule.id, kind: rule.kind }, "alert rule with unreadable parameters skipped");
      return null;
    }
    return { ...rule, def: r.kind, params: r.params };
  }

  /** Evaluates the person's alert rules (digests aside) and moves their episodes. */
  async evaluatePerson(userId: string, now: number, report?: TickReport): Promise<void> {
    const rules = (await this.store.listRules(userId)).filter((r) => r.enabled && !isMoment(r.kind)).map((r) => this.parse(r));
    const open = await this.store.listOpenEpisodes(userId);
    const byRule = new Map(open.map((e) => [e.ruleId, e]));
    // Episodes whose rule is gone or off end (a rule switched on again starts afresh).
    const live = new Set(rules.filter((r): r is ParsedRule => r !== null).map((r) => r.id));
    for (const e of open) {
      if (!isMoment(e.kind) && (!e.ruleId || !live.has(e.ruleId))) {
        await this.store.endEpisode(e.id, new Date(now));
        if (report) report.ended++;
      }
    }
    if (live.size === 0) return;
    const { ctx, today, settings } = await this.context(userId);
    const channels = (await this.store.listChannels(userId)).filter((c) => c.enabled && c.confirmed);
    // an alert that starts in the person's quiet hours is kept (history) and sent when they end
    const sendAt = new Date(quietHoursEnd(now, settings.timeZone, settings.quietHours));
    const env = this.env(userId, today, now, settings);
    for (const rule of rules) {
      if (!rule || rule.def.watch.type !== "condition") continue;
      const condition = await rule.def.watch.evaluate(rule.params, env);
      const compose = () => (condition.state === "active" ? rule.def.message(condition.facts, ctx, rule.params) : null);
      const current = byRule.get(rule.id) ?? null;
      const step = nextEpisodeStep(current, condition);
      if (step.action === "keep" && current) await this.store.touchEpisode(current.id, new Date(now));
      if ((step.action === "end" || step.action === "end_and_open") && current) {
        await this.store.endEpisode(current.id, new Date(now));
        if (report) report.ended++;
      }
      if (step.action === "open" || step.action === "end_and_open") {
        const message = compose();
        if (!message) continue;
        const opened = await this.store.openEpisode(
          { userId, ruleId: rule.id, kind: rule.kind, key: step.key, dedupeKey: `open:${rule.id}`, title: message.title, at: new Date(now), endedAt: null },
          deliveriesFor(channels, "alert", message),
          sendAt,
        );
        if (opened && report) report.opened++;
        if (opened) this.log.info({ userId, ruleId: rule.id, kind: rule.kind, episodeId: opened.id, channels: channels.length }, "alert episode opened");
      }
    }
  }

  /** What a kind reads about the person (lib/alerts/kinds/define.ts). */
  private env(userId: string, today: string, now: number, settings: AlertSettingsRow): RuleEnv {
    const env: RuleEnv = {
      userId,
      facts: this.facts,
      today,
      now,
      timeZone: settings.timeZone,
      quietHours: settings.quietHours,
      // each kind's line in a weekly digest, in the registry's order
      digestSections: async (week) => {
        const sections: DigestSection[] = [];
        for (const k of ALERT_KINDS) {
          const section = k.digest ? await k.digest(env, week) : null;
          if (section) sections.push(section);
        }
        return sections;
      },
    };
    return env;
  }

  /**
   * Sends each of the person's moments that is due (a digest's weekly slot, a bedtime window's
   * start): once per rule and moment, kind by kind in the registry's order. A kind held back by
   * quiet hours is looked at again on the next tick (then when they end, if it is still due).
   */
  private async sendDueMoments(userId: string, now: number, report: TickReport): Promise<void> {
    const listed = (await this.store.listRules(userId)).filter((r) => r.enabled && isMoment(r.kind));
    if (listed.length === 0) return;
    const rules = listed.map((r) => this.parse(r)).filter((r): r is ParsedRule => r !== null);
    const settings = await this.store.getSettings(userId);
    const env = this.env(userId, localTime(now, settings.timeZone).day, now, settings);
    for (const def of ALERT_KINDS) {
      for (const rule of rules.filter((r) => r.def === def)) {
        const watch = rule.def.watch;
        if (watch.type !== "moment") continue;
        const due = await watch.due(rule.params, env);
        if (!due) continue;
        if (watch.quiet && isQuietAt(now, settings.timeZone, settings.quietHours)) continue;
        const dedupeKey = `${watch.prefix}:${rule.id}:${due.key}`;
        if (await this.store.episodeExists(dedupeKey)) continue;
        const { ctx } = await this.context(userId);
        const message = rule.def.message(await due.facts(), ctx, rule.params);
        const channels = (await this.store.listChannels(userId)).filter((c) => c.enabled && c.confirmed);
        const opened = await this.store.openEpisode(
          { userId, ruleId: rule.id, kind: rule.kind, key: due.key, dedupeKey, title: message.title, at: new Date(now), endedAt: new Date(now) },
          deliveriesFor(channels, watch.purpose, message),
          new Date(now),
        );
        if (opened) {
          if (watch.purpose === "digest") report.digests++;
          else report.nudges++;
          this.log.info({ userId, ruleId: rule.id, kind: rule.kind, episodeId: opened.id, channels: channels.length }, "alert moment queued");
        }
      }
    }
  }

  // -------------------------------------------------------------------------------------
  // Delivery
  // -------------------------------------------------------------------------------------

  private async deliverDue(now: number, report: TickReport): Promise<void> {
    for (;;) {
      const due = await this.store.claimDueDeliveries(new Date(now), new Date(now + DELIVERY_LEASE_MS), 50);
      if (due.length === 0) return;
      const queue = [...due];
      const worker = async () => {
        for (let d = queue.shift(); d; d = queue.shift()) await this.deliver(d, report);
      };
      await Promise.all(Array.from({ length: Math.min(this.sendConcurrency, queue.length) }, worker));
      if (due.length < 50) return;
    }
  }

  private async deliver(d: DueDelivery, report: TickReport): Promise<void> {
    const channel = d.channelId ? await this.store.getChannel(d.channelId) : null;
    const finish = async (status: "sent" | "failed" | "cancelled" | "pending", lastError: string | null, nextAttemptAt: Date | null = null) => {
      await this.store.finishDelivery(d.id, { status, lastError, nextAttemptAt, sentAt: status === "sent" ? new Date(this.clock.now()) : null });
      this.log.info({ deliveryId: d.id, userId: d.userId, channel: d.channelKind, purpose: d.purpose, attempts: d.attempts, status }, "alert delivery");
    };
    if (!channel) return finish("cancelled", "The channel was removed.");
    if (!channel.enabled) return finish("cancelled", "The channel is switched off.");
    if (!channel.confirmed) return finish("cancelled", "The address is not confirmed yet.");
    let target;
    try {
      target = channelTarget(channel, this.decrypt);
    } catch {
      return finish("failed", "The channel's secret cannot be read (the encryption key changed?): remove the channel and add it again.");
    }
    if (!target) return finish("failed", "The channel is incomplete: remove it and add it again.");
    let result;
    try {
      result = await this.senders[target.kind](target, outgoingMessage(d));
    } catch (err) {
      this.log.error({ deliveryId: d.id, channel: channel.kind, err: err instanceof Error ? err.name : "error" }, "alert sender crashed");
      result = { ok: false as const, retry: true, error: "internal error while sending" };
    }
    if (result.ok) {
      report.sent++;
      return finish("sent", null);
    }
    if (result.retry && d.attempts < MAX_DELIVERY_ATTEMPTS) {
      report.retried++;
      return finish("pending", result.error, new Date(this.clock.now() + deliveryRetryDelay(d.attempts)));
    }
    report.failed++;
    return finish("failed", result.error);
  }
}

function deliveriesFor(channels: readonly AlertChannelRow[], purpose: "alert" | "digest", message: AlertMessage): NewDelivery[] {
  return channels.map((c) => ({
    channelId: c.id,
    channelKind: c.kind,
    channelLabel: c.label,
    purpose,
    title: message.title,
    body: message.body,
    link: message.link,
    data: JSON.stringify(message.data),
  }));
}
