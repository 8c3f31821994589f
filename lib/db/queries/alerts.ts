import "server-only";
import { db } from "@/lib/db";
import type { AlertChannelKind, AlertRuleKind } from "@/lib/alerts/catalog";
import { episodeFields } from "@/lib/alerts/store";
import type {
  AlertChannelRow,
  AlertDeliveryRow,
  AlertEpisodeRow,
  AlertRuleRow,
  AlertSettingsRow,
  DeliveryPurpose,
  DeliveryStatus,
  DueDelivery,
  NewDelivery,
  NewEpisode,
} from "@/lib/alerts/store";

// The alerts tables (prisma/schema.prisma "Alerts and digests"): rows in, rows out. Decisions
// (what to open, when to retry, what a message says) live in lib/alerts; these only read and
// write, each change to an episode and its deliveries in one transaction.

export const DEFAULT_ALERT_SETTINGS = { includeValues: false, timeZone: "UTC", linkBase: null, quietHours: null } as const;

type SettingsRecord = { userId: string; includeValues: boolean; timeZone: string; linkBase: string | null; quietFrom: number | null; quietTo: number | null };
const SETTINGS_SELECT = { userId: true, includeValues: true, timeZone: true, linkBase: true, quietFrom: true, quietTo: true } as const;

const toSettings = ({ quietFrom, quietTo, ...s }: SettingsRecord): AlertSettingsRow => ({
  ...s,
  quietHours: quietFrom !== null && quietTo !== null ? { from: quietFrom, to: quietTo } : null,
});

type RuleRecord = { id: string; userId: string; kind: string; enabled: boolean; params: string; createdAt: Date };
type ChannelRecord = Omit<AlertChannelRow, "kind" | "confirmed"> & { kind: string; confirmedAt: Date | null };
type EpisodeRecord = Omit<AlertEpisodeRow, "kind"> & { kind: string };
type DeliveryRecord = Omit<AlertDeliveryRow, "channelKind" | "purpose" | "status"> & { channelKind: string; purpose: string; status: string };

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

const toRule = (r: RuleRecord): AlertRuleRow => ({ ...r, kind: r.kind as AlertRuleKind, params: parseJson(r.params) });
const toChannel = (c: ChannelRecord): AlertChannelRow => ({
  id: c.id,
  userId: c.userId,
  kind: c.kind as AlertChannelKind,
  label: c.label,
  url: c.url,
  recipient: c.recipient,
  secret: c.secret,
  enabled: c.enabled,
  confirmed: c.kind !== "email" || c.confirmedAt !== null,
  createdAt: c.createdAt,
});
const toEpisode = (e: EpisodeRecord): AlertEpisodeRow => ({ ...e, kind: e.kind as AlertRuleKind });
const toDelivery = (d: DeliveryRecord): AlertDeliveryRow => ({
  ...d,
  channelKind: d.channelKind as AlertChannelKind,
  purpose: d.purpose as DeliveryPurpose,
  status: d.status as DeliveryStatus,
});

function isUniqueViolation(err: unknown): boolean {
  return typeof err === "object" && err !== null && (err as { code?: unknown }).code === "P2002";
}

// ---------------------------------------------------------------------------------------
// Settings
// ---------------------------------------------------------------------------------------

export async function getAlertSettings(userId: string): Promise<AlertSettingsRow> {
  const s = await db.alertSettings.findUnique({ where: { userId }, select: SETTINGS_SELECT });
  return s ? toSettings(s) : { userId, ...DEFAULT_ALERT_SETTINGS };
}

/** Whether the person ever saved their alert settings. */
export async function hasAlertSettings(userId: string): Promise<boolean> {
  return (await db.alertSettings.count({ where: { userId } })) > 0;
}

export async function saveAlertSettings(userId: string, s: Omit<AlertSettingsRow, "userId">): Promise<AlertSettingsRow> {
  const { quietHours, ...rest } = s;
  const data = { ...rest, quietFrom: quietHours?.from ?? null, quietTo: quietHours?.to ?? null };
  return toSettings(await db.alertSettings.upsert({ where: { userId }, create: { userId, ...data }, update: data, select: SETTINGS_SELECT }));
}

// ---------------------------------------------------------------------------------------
// Rules
// ---------------------------------------------------------------------------------------

export async function listUsersWithEnabledRules(): Promise<string[]> {
  const rows = await db.alertRule.findMany({ where: { enabled: true }, select: { userId: true }, distinct: ["userId"], orderBy: { userId: "asc" } });
  return rows.map((r) => r.userId);
}

export async function listAlertRules(userId: string): Promise<AlertRuleRow[]> {
  const rows = await db.alertRule.findMany({ where: { userId }, orderBy: { createdAt: "asc" } });
  return rows.map(toRule);
}

export async function countAlertRules(userId: string): Promise<number> {
  return db.alertRule.count({ where: { userId } });
}

export async function createAlertRule(userId: string, rule: { kind: AlertRuleKind; params: unknown }): Promise<AlertRuleRow> {
  return toRule(await db.alertRule.create({ data: { userId, kind: rule.kind, params: JSON.stringify(rule.params), enabled: true } }));
}

/** Ends the rule's open episode and cancels its queued messages (the rule was switched off or removed). */
async function quietRule(tx: Parameters<Parameters<typeof db.$transaction>[0]>[0], ruleId: string, at: Date): Promise<void> {
  const episodes = await tx.alertEpisode.findMany({ where: { ruleId }, select: { id: true } });
  await tx.alertEpisode.updateMany({ where: { ruleId, endedAt: null }, data: { endedAt: at, dedupeKey: null } });
  await tx.alertDelivery.updateMany({
    where: { episodeId: { in: episodes.map((e) => e.id) }, status: "pending" },
    data: { status: "cancelled", lastError: "The rule was switched off or removed.", nextAttemptAt: null },
  });
}

/** Switches one of the person's rules on or off; false when they have no such rule. */
export async function setAlertRuleEnabled(userId: string, ruleId: string, enabled: boolean, at: Date): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const { count } = await tx.alertRule.updateMany({ where: { id: ruleId, userId }, data: { enabled } });
    if (count === 0) return false;
    if (!enabled) await quietRule(tx, ruleId, at);
    return true;
  });
}

/** Removes one of the person's rules (its history stays); false when they have no such rule. */
export async function deleteAlertRule(userId: string, ruleId: string, at: Date): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const rule = await tx.alertRule.findFirst({ where: { id: ruleId, userId }, select: { id: true } });
    if (!rule) return false;
    await quietRule(tx, ruleId, at);
    await tx.alertRule.delete({ where: { id: ruleId } });
    return true;
  });
}

// ---------------------------------------------------------------------------------------
// Channels
// ---------------------------------------------------------------------------------------

export async function listAlertChannels(userId: string): Promise<AlertChannelRow[]> {
  const rows = await db.alertChannel.findMany({ where: { userId }, orderBy: { createdAt: "asc" } });
  return rows.map(toChannel);
}

export async function countAlertChannels(userId: string): Promise<number> {
  return db.alertChannel.count({ where: { userId } });
}

export async function getAlertChannel(channelId: string): Promise<AlertChannelRow | null> {
  const c = await db.alertChannel.findUnique({ where: { id: channelId } });
  return c ? toChannel(c) : null;
}

export async function findAlertChannel(userId: string, channelId: string): Promise<AlertChannelRow | null> {
  const c = await db.alertChannel.findFirst({ where: { id: channelId, userId } });
  return c ? toChannel(c) : null;
}

export async function createAlertChannel(
  userId: string,
  c: { kind: AlertChannelKind; label: string; url: string | null; recipient: string | null; secret: string | null; confirmCodeHash?: string; confirmExpiresAt?: Date },
): Promise<AlertChannelRow> {
  return toChannel(await db.alertChannel.create({ data: { userId, ...c, enabled: true } }));
}

/** An e-mail channel's pending confirmation (null: no such channel of the person's). */
export async function getChannelConfirmation(
  userId: string,
  channelId: string,
): Promise<{ kind: string; confirmedAt: Date | null; codeHash: string | null; expiresAt: Date | null; attempts: number } | null> {
  const c = await db.alertChannel.findFirst({
    where: { id: channelId, userId },
    select: { kind: true, confirmedAt: true, confirmCodeHash: true, confirmExpiresAt: true, confirmAttempts: true },
  });
  return c ? { kind: c.kind, confirmedAt: c.confirmedAt, codeHash: c.confirmCodeHash, expiresAt: c.confirmExpiresAt, attempts: c.confirmAttempts } : null;
}

/** A new confirmation code for an unconfirmed channel (its wrong tries start again). */
export async function setChannelConfirmCode(userId: string, channelId: string, codeHash: string, expiresAt: Date): Promise<boolean> {
  const { count } = await db.alertChannel.updateMany({
    where: { id: channelId, userId, confirmedAt: null },
    data: { confirmCodeHash: codeHash, confirmExpiresAt: expiresAt, confirmAttempts: 0 },
  });
  return count > 0;
}

/** One wrong try at the code (counted under the row's own lock). */
export async function countWrongConfirmCode(userId: string, channelId: string): Promise<void> {
  await db.alertChannel.updateMany({ where: { id: channelId, userId, confirmedAt: null }, data: { confirmAttempts: { increment: 1 } } });
}

/** Confirms the address if the code it was sent is still the pending one; the code is spent. */
export async function markChannelConfirmed(userId: string, channelId: string, codeHash: string, at: Date): Promise<boolean> {
  const { count } = await db.alertChannel.updateMany({
    where: { id: channelId, userId, confirmedAt: null, confirmCodeHash: codeHash },
    data: { confirmedAt: at, confirmCodeHash: null, confirmExpiresAt: null, confirmAttempts: 0 },
  });
  return count > 0;
}

export async function setAlertChannelEnabled(userId: string, channelId: string, enabled: boolean): Promise<boolean> {
  const { count } = await db.alertChannel.updateMany({ where: { id: channelId, userId }, data: { enabled } });
  return count > 0;
}

/** Removes one of the person's channels; its queued messages are cancelled, its history stays. */
export async function deleteAlertChannel(userId: string, channelId: string): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const c = await tx.alertChannel.findFirst({ where: { id: channelId, userId }, select: { id: true } });
    if (!c) return false;
    await tx.alertDelivery.updateMany({
      where: { channelId, status: "pending" },
      data: { status: "cancelled", lastError: "The channel was removed.", nextAttemptAt: null },
    });
    await tx.alertChannel.delete({ where: { id: channelId } });
    return true;
  });
}

// ---------------------------------------------------------------------------------------
// Episodes
// ---------------------------------------------------------------------------------------

export async function listOpenEpisodes(userId: string): Promise<AlertEpisodeRow[]> {
  const rows = await db.alertEpisode.findMany({ where: { userId, endedAt: null }, orderBy: { id: "asc" } });
  return rows.map(toEpisode);
}

export async function episodeExists(dedupeKey: string): Promise<boolean> {
  return (await db.alertEpisode.count({ where: { dedupeKey } })) > 0;
}

/** The episode and its deliveries in one transaction; null when the dedupeKey is taken. */
export async function openEpisode(e: NewEpisode, deliveries: NewDelivery[], firstAttemptAt: Date): Promise<AlertEpisodeRow | null> {
  try {
    return await db.$transaction(async (tx) => {
      const episode = await tx.alertEpisode.create({ data: episodeFields(e) });
      if (deliveries.length) {
        await tx.alertDelivery.createMany({
          data: deliveries.map((d) => ({ ...d, userId: e.userId, episodeId: episode.id, status: "pending", attempts: 0, nextAttemptAt: firstAttemptAt })),
        });
      }
      return toEpisode(episode);
    });
  } catch (err) {
    if (isUniqueViolation(err)) return null;
    throw err;
  }
}

export async function touchEpisode(id: number, at: Date): Promise<void> {
  await db.alertEpisode.updateMany({ where: { id, endedAt: null }, data: { lastSeenAt: at } });
}

export async function endEpisode(id: number, at: Date): Promise<void> {
  await db.alertEpisode.updateMany({ where: { id, endedAt: null }, data: { endedAt: at, lastSeenAt: at, dedupeKey: null } });
}

// ---------------------------------------------------------------------------------------
// Deliveries
// ---------------------------------------------------------------------------------------

/**
 * Takes up to `limit` due deliveries (each gets one more attempt and a lease until
 * `leaseUntil`). Several processes may claim at once (PostgreSQL): each delivery is taken by one,
 * since a row is only taken while it is still due — a row another claim changed meanwhile is
 * looked at again after that claim commits, and left alone.
 */
export async function claimDueDeliveries(now: Date, leaseUntil: Date, limit: number): Promise<DueDelivery[]> {
  return db.$transaction(async (tx) => {
    const due = await tx.alertDelivery.findMany({
      where: { status: "pending", nextAttemptAt: { lte: now } },
      orderBy: [{ nextAttemptAt: "asc" }, { id: "asc" }],
      take: limit,
      select: { id: true },
    });
    const ids: number[] = [];
    for (const { id } of due) {
      const { count } = await tx.alertDelivery.updateMany({
        where: { id, status: "pending", nextAttemptAt: { lte: now } },
        data: { attempts: { increment: 1 }, nextAttemptAt: leaseUntil },
      });
      if (count === 1) ids.push(id);
    }
    if (ids.length === 0) return [];
    const rows = await tx.alertDelivery.findMany({
      where: { id: { in: ids } },
      orderBy: { id: "asc" },
      include: { episode: { select: { kind: true, key: true, startedAt: true } } },
    });
    return rows.map(({ episode, ...d }) => ({
      ...toDelivery(d),
      episode: episode ? { kind: episode.kind as AlertRuleKind, key: episode.key, startedAt: episode.startedAt } : null,
    }));
  });
}

export async function finishDelivery(
  id: number,
  outcome: { status: DeliveryStatus; nextAttemptAt: Date | null; lastError: string | null; sentAt: Date | null },
): Promise<void> {
  await db.alertDelivery.update({ where: { id }, data: outcome });
}

export async function recordDelivery(
  userId: string,
  d: NewDelivery,
  outcome: { status: DeliveryStatus; lastError: string | null; sentAt: Date | null; at: Date },
): Promise<AlertDeliveryRow> {
  const row = await db.alertDelivery.create({
    data: { ...d, userId, episodeId: null, status: outcome.status, attempts: 1, lastError: outcome.lastError, sentAt: outcome.sentAt, createdAt: outcome.at },
  });
  return toDelivery(row);
}

export type AlertHistoryRow = AlertDeliveryRow & { episode: { kind: AlertRuleKind; key: string; startedAt: Date; endedAt: Date | null } | null };

/** The person's newest deliveries, newest first. */
export async function listAlertHistory(userId: string, limit: number): Promise<AlertHistoryRow[]> {
  const rows = await db.alertDelivery.findMany({
    where: { userId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit,
    include: { episode: { select: { kind: true, key: true, startedAt: true, endedAt: true } } },
  });
  return rows.map(({ episode, ...d }) => ({
    ...toDelivery(d),
    episode: episode ? { kind: episode.kind as AlertRuleKind, key: episode.key, startedAt: episode.startedAt, endedAt: episode.endedAt } : null,
  }));
}

/**
 * Keeps each person's newest `keep` deliveries younger than `before` (pending ones always
 * stay), then removes ended episodes left without deliveries. Returns the deliveries removed.
 */
export async function pruneAlertHistory(opts: { before: Date; keep: number }): Promise<number> {
  return db.$transaction(async (tx) => {
    const old = await tx.alertDelivery.deleteMany({ where: { createdAt: { lt: opts.before }, status: { not: "pending" } } });
    let removed = old.count;
    const people = await tx.alertDelivery.groupBy({ by: ["userId"], _count: { _all: true } });
    for (const p of people) {
      if (p._count._all <= opts.keep) continue;
      const cut = await tx.alertDelivery.findMany({
        where: { userId: p.userId },
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        skip: opts.keep,
        select: { id: true, status: true },
      });
      const ids = cut.filter((d) => d.status !== "pending").map((d) => d.id);
      if (ids.length) removed += (await tx.alertDelivery.deleteMany({ where: { id: { in: ids } } })).count;
    }
    await tx.alertEpisode.deleteMany({ where: { endedAt: { not: null }, deliveries: { none: {} }, startedAt: { lt: opts.before } } });
    return removed;
  });
}

// ---------------------------------------------------------------------------------------
// Facts the rules read from other tables
// ---------------------------------------------------------------------------------------

/** The newest day with a night of sleep: a daily sleep document, or a sleep period that counts. */
export async function getNewestNightDay(userId: string): Promise<string | null> {
  const [daily, period] = await Promise.all([
    db.dailySleep.findFirst({ where: { userId }, orderBy: { day: "desc" }, select: { day: true } }),
    db.sleepPeriod.findFirst({
      where: { userId, OR: [{ type: null }, { type: { notIn: ["deleted", "rest"] } }] },
      orderBy: { day: "desc" },
      select: { day: true },
    }),
  ]);
  const days = [daily?.day, period?.day].filter((d): d is string => !!d).sort();
  return days.at(-1) ?? null;
}

/** Sync jobs of the person running now or due within `graceMs` (their sync is not through yet). */
export async function countActiveSyncJobs(userId: string, now: Date, graceMs = 5_000): Promise<number> {
  return db.job.count({
    where: {
      userId,
      kind: { in: ["backfill", "incremental", "personal_info"] },
      OR: [{ status: "running" }, { status: "queued", runAt: { lte: new Date(now.getTime() + graceMs) } }],
    },
  });
}
