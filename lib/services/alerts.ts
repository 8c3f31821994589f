import "server-only";
import { clock as processClock } from "@/lib/clock";
import crypto from "node:crypto";
import { env } from "@/lib/env.mjs";
import { AppError } from "@/lib/http/errors";
import { configuredOrigin } from "@/lib/auth/origin";
import { logger } from "@/lib/log";
import { processSingleton, processSlot } from "@/lib/process-singleton";
import { decryptToken, encryptToken } from "@/lib/ring/crypto";
import { findMetric } from "@/lib/metrics/catalog";
import { findRingAccountByUserId } from "@/lib/db/queries/accounts";
import { getMetricDayValues } from "@/lib/services/metrics";
import { listDayNotes } from "@/lib/db/queries/notes";
import { listSyncStates } from "@/lib/db/queries/sync-state";
import { getPreferences } from "@/lib/services/people";
import { getBatterySamples, getNewestBedtimeRow } from "@/lib/services/records";
import { getSignals } from "@/lib/services/signals";
import { getCycle } from "@/lib/services/cycle";
import { addDays } from "@/lib/days";
import { nightFactOf } from "@/lib/alerts/kinds/early-warning";
import * as ep from "@/lib/db/queries/alert-episodes";
import * as q from "@/lib/db/queries/alerts";
import { ALERT_LIMITS, isAlertChannelKind, type AlertChannelKind } from "@/lib/alerts/catalog";
import { alertRuleInputSchema, CYCLE_RULE_KINDS, describeRule, parseRule, RULE_KIND_FORMS, type AlertRuleInput } from "@/lib/alerts/kinds";
import { getCycleSettings } from "@/lib/services/cycle-entries";
import type { RuleKindForm } from "@/lib/alerts/kinds/define";
import { createSenders, type SendResult } from "@/lib/alerts/channels";
import { newWebhookSecret } from "@/lib/alerts/channels/webhook";
import { addressPolicy, isRefusedAtOnce } from "@/lib/alerts/channels/address";
import { BLOCKED_MESSAGE } from "@/lib/alerts/channels/http";
import { TokenBuckets } from "@/lib/limits/token-buckets";
import { channelTarget, outgoingMessage } from "@/lib/alerts/delivery";
import { confirmationMessage, ruleTestMessage, testMessage, type AlertMessage, type MessageContext } from "@/lib/alerts/messages";
import { alertChannelInputSchema, alertSettingsInputSchema, firstIssue, type AlertChannelInput, type AlertSettingsInput } from "@/lib/alerts/schemas";
import type { AlertFacts } from "@/lib/alerts/facts";
import type { AlertStore } from "@/lib/alerts/store";
import type { QuietHours } from "@/lib/db/queries/alert-rows";
import { AlertWorker } from "@/lib/alerts/worker";

// The alerts feature as the rest of Ringside sees it: the worker wired to the real database,
// senders and clock (started once, at startup, beside the sync scheduler), and what Settings →
// Alerts does (app/(app)/settings/actions-alerts.ts calls these with the signed-in person's id).

const toMs = (v: string | Date | null | undefined): number | null => {
  if (!v) return null;
  const t = typeof v === "string" ? Date.parse(v) : v.getTime();
  return Number.isNaN(t) ? null : t;
};

/** The store on the real database (lib/db/queries/alerts.ts, alert-episodes.ts). */
export const dbAlertStore: AlertStore = {
  listUsersWithEnabledRules: q.listUsersWithEnabledRules,
  getSettings: q.getAlertSettings,
  listRules: q.listAlertRules,
  listChannels: q.listAlertChannels,
  getChannel: q.getAlertChannel,
  listOpenEpisodes: ep.listOpenEpisodes,
  episodeExists: ep.episodeExists,
  openEpisode: ep.openEpisode,
  touchEpisode: ep.touchEpisode,
  endEpisode: ep.endEpisode,
  claimDueDeliveries: ep.claimDueDeliveries,
  finishDelivery: ep.finishDelivery,
  recordDelivery: ep.recordDelivery,
  pruneHistory: ep.pruneAlertHistory,
};

/** The days before today the cycle rules read (more than a long cycle). */
const CYCLE_FACT_DAYS = 120;

/** What rules read about a person, from the sync and metrics tables. */
export const dbAlertFacts: AlertFacts = {
  async metricRows(userId, metricId, from, to) {
    const metric = findMetric(metricId);
    if (!metric) return [];
    return (await getMetricDayValues({ userId, metric, from, to })).map((r) => ({ day: r.day, value: typeof r.value === "number" ? r.value : null }));
  },
  newestNight: q.getNewestNightDay,
  async connection(userId) {
    const account = await findRingAccountByUserId(userId);
    return {
      status: account?.status ?? null,
      since: toMs(account?.tokenUpdatedAt),
      collections: (await listSyncStates(userId)).map((s) => ({
        collection: s.collection,
        status: s.status,
        lastSuccessAt: toMs(s.lastSuccessAt),
        lastAttemptAt: toMs(s.lastAttemptAt),
        lastError: s.lastError,
      })),
    };
  },
  async tags(userId, from, to) {
    return (await listDayNotes({ userId, from, to })).flatMap((n) => n.tags.map((t) => ({ day: n.day, name: t.name })));
  },
  async units(userId) {
    return (await getPreferences(userId)).units;
  },
  batterySamples: getBatterySamples,
  newestBedtime: getNewestBedtimeRow,
  async isSyncing(userId, now) {
    return (await q.countActiveSyncJobs(userId, new Date(now))) > 0;
  },
  async earlyWarning(userId, from, to) {
    const { days } = await getSignals({ userId, from, to, kinds: ["early_warning"] });
    return days.flatMap((d) => d.signals.flatMap((s) => (s.kind === "early_warning" ? [nightFactOf(d.day, s)] : [])));
  },
  async cycle(userId, today) {
    // the prediction as of today, and the newest start among the last cycle's worth of entries
    const c = await getCycle({ userId, from: addDays(today, -CYCLE_FACT_DAYS), to: today });
    if (c.status === "off" || c.status === "not_applicable") return null;
    const starts = [...c.cycles.map((x) => x.start), ...c.entries.filter((e) => e.kind === "period_start").map((e) => e.day)].sort();
    return { prediction: c.prediction ? { from: c.prediction.from, to: c.prediction.to } : null, lastStart: starts.at(-1) ?? null };
  },
};

/** A worker on the real database; tests pass their own clock, senders or facts. */
export function createAlertWorker(overrides: Partial<ConstructorParameters<typeof AlertWorker>[0]> = {}): AlertWorker {
  const clock = overrides.clock ?? processClock;
  return new AlertWorker({
    store: dbAlertStore,
    facts: dbAlertFacts,
    senders: createSenders({ smtp: env.SMTP, now: () => clock.now(), allowedPrivateHosts: env.ALERT_ALLOWED_PRIVATE_HOSTS }),
    clock,
    decrypt: decryptToken,
    linkBase: configuredOrigin(),
    ...overrides,
  });
}

const running = processSlot<AlertWorker>("alertWorker");

/**
 * Starts the process's alerts worker once (idempotent) and returns it. Called at startup next
 * to the sync scheduler (lib/server/background.ts starts both), which tells it when a
 * person's sync ends.
 */
export function startAlertWorker(): AlertWorker {
  let worker = running.get();
  if (!worker) {
    worker = createAlertWorker();
    running.set(worker);
    worker.start();
    logger.info({ email: Boolean(env.SMTP) }, "alerts worker started");
  }
  return worker;
}

/**
 * Takes one on-request send (a test, a confirmation code) from the person's allowance
 * (ALERT_LIMITS.sendsBurst, one more every sendsRefillMinutes), or refuses with 429. In this
 * process, like the API's limits.
 */
function takeSend(userId: string): void {
  const sends = processSingleton(
    "alertSends",
    () => new TokenBuckets(ALERT_LIMITS.sendsBurst, () => processClock.now(), 10_000, ALERT_LIMITS.sendsBurst * ALERT_LIMITS.sendsRefillMinutes * 60_000),
  );
  const take = sends.take(userId);
  if (!take.ok) throw new AppError("rate_limited", `You have sent several messages just now: try again in ${Math.ceil(take.retryAfterS / 60)} min.`);
}

/** Asks the running worker (if any) to look again soon: rules or channels changed. */
function wakeAlertWorker(): void {
  running.get()?.wake();
}

// ---------------------------------------------------------------------------------------
// Settings → Alerts
// ---------------------------------------------------------------------------------------

/** A rule as Settings shows it; `nextAt`: the next time a moment at a fixed time (a digest) is sent. */
export type AlertRuleView = { id: string; kind: string; enabled: boolean; description: string; active: boolean; nextAt: string | null };
export type AlertChannelView = {
  id: string;
  kind: AlertChannelKind;
  label: string;
  target: string;
  hasToken: boolean;
  enabled: boolean;
  confirmed: boolean;
};
export type AlertHistoryView = {
  id: number;
  at: string;
  purpose: "alert" | "digest" | "test";
  title: string;
  body: string;
  channel: string;
  channelKind: string;
  status: "pending" | "sent" | "failed" | "cancelled";
  attempts: number;
  lastError: string | null;
  nextAttemptAt: string | null;
  sentAt: string | null;
  episodeEndedAt: string | null;
};
export type AlertsOverview = {
  settings: { includeValues: boolean; timeZone: string; quietHours: QuietHours | null; saved: boolean };
  rules: AlertRuleView[];
  channels: AlertChannelView[];
  history: AlertHistoryView[];
  emailAvailable: boolean;
  limits: { maxRules: number; maxChannels: number };
  /** the rule kinds the "Add a rule" form offers, with their fields */
  ruleKinds: readonly RuleKindForm[];
};

export async function getAlertsOverview(userId: string, now = processClock.now()): Promise<AlertsOverview> {
  const [settings, saved, rules, channels, history, open, cycle] = await Promise.all([
    q.getAlertSettings(userId),
    q.hasAlertSettings(userId),
    q.listAlertRules(userId),
    q.listAlertChannels(userId),
    ep.listAlertHistory(userId, ALERT_LIMITS.historyShown),
    ep.listOpenEpisodes(userId),
    getCycleSettings(userId),
  ]);
  const openRules = new Set(open.map((e) => e.ruleId));
  return {
    settings: { includeValues: settings.includeValues, timeZone: settings.timeZone, quietHours: settings.quietHours, saved },
    rules: rules.map((r) => {
      const parsed = parseRule(r);
      const next = parsed?.kind.next && r.enabled ? new Date(parsed.kind.next(parsed.params, now, settings.timeZone)).toISOString() : null;
      return {
        id: r.id,
        kind: r.kind,
        enabled: r.enabled,
        description: describeRule(r.kind, r.params) ?? "Unreadable rule: remove it",
        active: openRules.has(r.id),
        nextAt: next,
      };
    }),
    channels: channels
      .flatMap((c) => (isAlertChannelKind(c.kind) ? [{ ...c, kind: c.kind }] : []))
      .map((c) => ({
        id: c.id,
        kind: c.kind,
        label: c.label,
        target: c.kind === "email" ? (c.recipient ?? "") : (c.url ?? ""),
        hasToken: c.kind === "ntfy" && !!c.secret,
        enabled: c.enabled,
        confirmed: c.confirmed,
      })),
    history: history.map((h) => ({
      id: h.id,
      at: h.createdAt.toISOString(),
      purpose: h.purpose,
      title: h.title,
      body: h.body,
      channel: h.channelLabel,
      channelKind: h.channelKind,
      status: h.status,
      attempts: h.attempts,
      lastError: h.lastError,
      nextAttemptAt: h.status === "pending" && h.nextAttemptAt ? h.nextAttemptAt.toISOString() : null,
      sentAt: h.sentAt?.toISOString() ?? null,
      episodeEndedAt: h.episode?.endedAt?.toISOString() ?? null,
    })),
    emailAvailable: !!env.SMTP,
    limits: { maxRules: ALERT_LIMITS.maxRules, maxChannels: ALERT_LIMITS.maxChannels },
    // the cycle's kinds only while the person tracks their cycle
    ruleKinds: cycle.tracking ? RULE_KIND_FORMS : RULE_KIND_FORMS.filter((k) => !(CYCLE_RULE_KINDS as readonly string[]).includes(k.kind)),
  };
}

function parseOr422<T>(schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: import("zod").ZodError } }, value: unknown): T {
  const r = schema.safeParse(value);
  if (!r.success) throw new AppError("unprocessable_entity", firstIssue(r.error));
  return r.data;
}

export async function saveAlertSettings(userId: string, input: unknown, linkBase: string | null): Promise<AlertSettingsInput> {
  const s = parseOr422(alertSettingsInputSchema, input);
  await q.saveAlertSettings(userId, { ...s, linkBase });
  wakeAlertWorker();
  return s;
}

export async function addAlertRule(userId: string, input: unknown): Promise<AlertRuleInput> {
  const rule = parseOr422(alertRuleInputSchema, input);
  if ((await q.countAlertRules(userId)) >= ALERT_LIMITS.maxRules) {
    throw new AppError("unprocessable_entity", `You can have at most ${ALERT_LIMITS.maxRules} rules; remove one first.`);
  }
  const row = await q.createAlertRule(userId, rule);
  logger.info({ userId, ruleId: row.id, kind: rule.kind }, "alert rule added");
  wakeAlertWorker();
  return rule;
}

export async function setAlertRuleEnabled(userId: string, ruleId: string, enabled: boolean): Promise<void> {
  if (!(await q.setAlertRuleEnabled(userId, ruleId, enabled, processClock.date()))) throw new AppError("not_found", "No such rule.");
  wakeAlertWorker();
}

export async function removeAlertRule(userId: string, ruleId: string): Promise<void> {
  if (!(await q.deleteAlertRule(userId, ruleId, processClock.date()))) throw new AppError("not_found", "No such rule.");
  logger.info({ userId, ruleId }, "alert rule removed");
}

/**
 * Adds a channel; for a webhook the new signing secret comes back once (it is stored encrypted).
 * An e-mail address gets its confirmation code at once (`confirmation`: how that send went)
 * and nothing else until the code is entered (confirmAlertChannel).
 */
export async function addAlertChannel(
  userId: string,
  input: unknown,
  linkBase: string | null = null,
): Promise<{ id: string; secret: string | null; confirmation?: SendResult }> {
  const c: AlertChannelInput = parseOr422(alertChannelInputSchema, input);
  if ((await q.countAlertChannels(userId)) >= ALERT_LIMITS.maxChannels) {
    throw new AppError("unprocessable_entity", `You can have at most ${ALERT_LIMITS.maxChannels} channels; remove one first.`);
  }
  if (c.kind !== "email" && isRefusedAtOnce(new URL(c.url), addressPolicy(env.ALERT_ALLOWED_PRIVATE_HOSTS))) {
    throw new AppError("unprocessable_entity", `Not added: ${BLOCKED_MESSAGE}.`);
  }
  if (c.kind === "email" && !env.SMTP) {
    throw new AppError("unprocessable_entity", "E-mail is not set up on this Ringside: the owner sets SMTP_HOST and SMTP_FROM (README, Alerts).");
  }
  if (c.kind === "email") takeSend(userId);
  const secret = c.kind === "webhook" ? newWebhookSecret() : null;
  const row = await q.createAlertChannel(userId, {
    kind: c.kind,
    label: c.label ?? (c.kind === "email" ? c.recipient : new URL(c.url).host),
    url: c.kind === "email" ? null : c.url,
    recipient: c.kind === "email" ? c.recipient : null,
    secret: c.kind === "webhook" ? encryptToken(secret as string) : c.kind === "ntfy" && c.token ? encryptToken(c.token) : null,
  });
  logger.info({ userId, channelId: row.id, kind: c.kind }, "alert channel added");
  if (c.kind === "email") return { id: row.id, secret, confirmation: await issueConfirmation(userId, row.id, c.recipient, linkBase) };
  return { id: row.id, secret };
}

/** How long a confirmation code holds, and the wrong tries it allows. */
export const CONFIRM_CODE_TTL_MS = 24 * 3_600_000;
export const CONFIRM_CODE_MAX_TRIES = 5;

const confirmCodeHash = (channelId: string, code: string) => crypto.createHash("sha256").update(`${channelId}:${code}`).digest("hex");

/** A fresh 6-digit code for the address: stored as its hash, sent to the address only. */
async function issueConfirmation(userId: string, channelId: string, recipient: string, linkBase: string | null): Promise<SendResult> {
  const code = String(crypto.randomInt(0, 1_000_000)).padStart(6, "0");
  await q.setChannelConfirmCode(userId, channelId, confirmCodeHash(channelId, code), new Date(processClock.now() + CONFIRM_CODE_TTL_MS));
  const message = confirmationMessage(code, configuredOrigin() ?? linkBase);
  const outgoing = { ...message, purpose: "test" as const, id: `confirm-${channelId}`, rule: null, key: null, startedAt: processClock.date().toISOString() };
  const result = await createSenders({ smtp: env.SMTP }).email({ kind: "email", recipient }, outgoing);
  logger.info({ userId, channelId, ok: result.ok }, "alert address confirmation sent");
  return result;
}

/** Sends a new confirmation code to one of the person's unconfirmed e-mail channels (throttled). */
export async function resendAlertConfirmation(userId: string, channelId: string, linkBase: string | null): Promise<SendResult> {
  const channel = await q.findAlertChannel(userId, channelId);
  if (!channel) throw new AppError("not_found", "No such channel.");
  if (channel.kind !== "email" || !channel.recipient) throw new AppError("unprocessable_entity", "Only an e-mail address is confirmed with a code.");
  if (channel.confirmed) throw new AppError("conflict", "This address is already confirmed.");
  takeSend(userId);
  return issueConfirmation(userId, channelId, channel.recipient, linkBase);
}

/** Confirms an e-mail channel with the code sent to it (at most CONFIRM_CODE_MAX_TRIES wrong tries per code). */
export async function confirmAlertChannel(userId: string, channelId: string, code: unknown): Promise<void> {
  const typed = typeof code === "string" ? code.replace(/\s+/g, "") : "";
  if (!/^\d{6}$/.test(typed)) throw new AppError("unprocessable_entity", "Enter the 6-digit code from the e-mail.");
  const c = await q.getChannelConfirmation(userId, channelId);
  if (!c) throw new AppError("not_found", "No such channel.");
  if (c.kind !== "email") throw new AppError("unprocessable_entity", "Only an e-mail address is confirmed with a code.");
  if (c.confirmedAt) return;
  if (!c.codeHash || !c.expiresAt || c.expiresAt.getTime() <= processClock.now())
    throw new AppError("unprocessable_entity", "The code has expired: send a new one.");
  // every try is taken before it is judged (atomically: parallel guesses get no more than the limit)
  if (!(await q.takeConfirmTry(userId, channelId, CONFIRM_CODE_MAX_TRIES))) throw new AppError("unprocessable_entity", "Too many wrong codes: send a new one.");
  const hash = confirmCodeHash(channelId, typed);
  if (!crypto.timingSafeEqual(Buffer.from(hash), Buffer.from(c.codeHash)) || !(await q.markChannelConfirmed(userId, channelId, hash, processClock.date()))) {
    throw new AppError("unprocessable_entity", "That is not the code sent to this address.");
  }
  logger.info({ userId, channelId }, "alert address confirmed");
  wakeAlertWorker();
}

export async function setAlertChannelEnabled(userId: string, channelId: string, enabled: boolean): Promise<void> {
  if (!(await q.setAlertChannelEnabled(userId, channelId, enabled))) throw new AppError("not_found", "No such channel.");
}

export async function removeAlertChannel(userId: string, channelId: string): Promise<void> {
  if (!(await q.deleteAlertChannel(userId, channelId))) throw new AppError("not_found", "No such channel.");
  logger.info({ userId, channelId }, "alert channel removed");
}

/**
 * "Send a test": one message to the channel now (not retried: the person is watching), kept in
 * the history with its outcome.
 */
export async function sendAlertTest(
  userId: string,
  channelId: string,
  linkBase: string | null,
  compose: (ctx: MessageContext) => AlertMessage = testMessage,
): Promise<SendResult> {
  const channel = await q.findAlertChannel(userId, channelId);
  if (!channel) throw new AppError("not_found", "No such channel.");
  if (!channel.confirmed) throw new AppError("unprocessable_entity", "Confirm this address first: enter the code sent to it.");
  takeSend(userId);
  const settings = await q.getAlertSettings(userId);
  const units = (await getPreferences(userId)).units;
  const message = compose({ includeValues: settings.includeValues, units, timeZone: settings.timeZone, linkBase: configuredOrigin() ?? linkBase });
  const delivery = {
    channelId: channel.id,
    channelKind: channel.kind,
    channelLabel: channel.label,
    purpose: "test" as const,
    title: message.title,
    body: message.body,
    link: message.link,
    data: JSON.stringify(message.data),
  };
  // recorded first (its id is the message's), never claimed by the worker (no next attempt)
  const row = await ep.recordDelivery(userId, delivery, { status: "pending", lastError: null, sentAt: null, at: processClock.date() });
  let result: SendResult;
  try {
    const target = channelTarget(channel, decryptToken);
    result = target
      ? await createSenders({ smtp: env.SMTP, allowedPrivateHosts: env.ALERT_ALLOWED_PRIVATE_HOSTS })[target.kind](
          target,
          outgoingMessage({ ...row, episode: null }),
        )
      : { ok: false, retry: false, error: "The channel is incomplete: remove it and add it again." };
  } catch {
    result = { ok: false, retry: false, error: "The channel's secret cannot be read (the encryption key changed?): remove the channel and add it again." };
  }
  await ep.finishDelivery(row.id, {
    status: result.ok ? "sent" : "failed",
    lastError: result.ok ? null : result.error,
    sentAt: result.ok ? processClock.date() : null,
    nextAttemptAt: null,
  });
  logger.info({ userId, channelId, kind: channel.kind, ok: result.ok }, "alert test sent");
  return result;
}

/**
 * "Send a test" of a rule: what its alerts look like and where they go, to each of the person's
 * switched-on channels now (each as a channel's test: not retried, kept in the history).
 */
export async function sendAlertRuleTest(userId: string, ruleId: string, linkBase: string | null): Promise<{ sent: number; failed: string[] }> {
  const rule = (await q.listAlertRules(userId)).find((r) => r.id === ruleId);
  if (!rule) throw new AppError("not_found", "No such rule.");
  const parsed = parseRule(rule);
  if (!parsed) throw new AppError("unprocessable_entity", "This rule cannot be read: remove it and add it again.");
  const channels = (await q.listAlertChannels(userId)).filter((c) => c.enabled);
  if (channels.length === 0) throw new AppError("unprocessable_entity", "No channel is switched on: add one under Channels first.");
  const description = parsed.kind.describe(parsed.params);
  const failed: string[] = [];
  for (const c of channels) {
    const r = await sendAlertTest(userId, c.id, linkBase, (ctx) => ruleTestMessage(parsed.kind, description, ctx));
    if (!r.ok) failed.push(`${c.label}: ${r.error}`);
  }
  return { sent: channels.length - failed.length, failed };
}
