import "server-only";
import { clock } from "@/lib/clock";
import { prisma, type Db } from "@/lib/db/prisma";
import { CHANNEL, RULE, toChannel, toRule } from "@/lib/db/queries/alert-records";
import type { AlertChannelRow, AlertRuleRow, AlertSettingsRow } from "@/lib/db/queries/alert-rows";

// The alerts tables (prisma/schema.prisma "Alerts and digests"): rows in, rows out. Decisions
// (what to open, when to retry, what a message says) live in lib/alerts; these only read and
// write. The episodes and deliveries are in alert-episodes.ts, the records' conversions in alert-records.ts.

export const DEFAULT_ALERT_SETTINGS = { includeValues: false, timeZone: "UTC", linkBase: null, quietHours: null } as const;

// ---------------------------------------------------------------------------------------
// Settings
// ---------------------------------------------------------------------------------------

export async function getAlertSettings(userId: string): Promise<AlertSettingsRow> {
  const s = await prisma().alertSettings.findUnique({
    where: { userId },
    select: { includeValues: true, timeZone: true, linkBase: true, quietFrom: true, quietTo: true },
  });
  if (!s) return { userId, ...DEFAULT_ALERT_SETTINGS };
  const quietHours = s.quietFrom !== null && s.quietTo !== null ? { from: s.quietFrom, to: s.quietTo } : null;
  return { userId, includeValues: s.includeValues, timeZone: s.timeZone, linkBase: s.linkBase, quietHours };
}

/** Whether the person ever saved their alert settings. */
export async function hasAlertSettings(userId: string): Promise<boolean> {
  return (await prisma().alertSettings.findUnique({ where: { userId }, select: { userId: true } })) !== null;
}

export async function saveAlertSettings(userId: string, s: Omit<AlertSettingsRow, "userId">): Promise<AlertSettingsRow> {
  const row = {
    includeValues: s.includeValues,
    timeZone: s.timeZone,
    linkBase: s.linkBase,
    quietFrom: s.quietHours?.from ?? null,
    quietTo: s.quietHours?.to ?? null,
    updatedAt: clock.date(),
  };
  await prisma().alertSettings.upsert({ where: { userId }, create: { userId, ...row }, update: row });
  return { userId, includeValues: s.includeValues, timeZone: s.timeZone, linkBase: s.linkBase, quietHours: s.quietHours };
}

// ---------------------------------------------------------------------------------------
// Rules
// ---------------------------------------------------------------------------------------

export async function listUsersWithEnabledRules(): Promise<string[]> {
  const rows = await prisma().alertRule.groupBy({ by: ["userId"], where: { enabled: true }, orderBy: { userId: "asc" } });
  return rows.map((r) => r.userId);
}

export async function listAlertRules(userId: string): Promise<AlertRuleRow[]> {
  return (await prisma().alertRule.findMany({ where: { userId }, select: RULE, orderBy: [{ createdAt: "asc" }, { id: "asc" }] })).map(toRule);
}

export function countAlertRules(userId: string): Promise<number> {
  return prisma().alertRule.count({ where: { userId } });
}

export async function createAlertRule(userId: string, rule: { kind: string; params: unknown }): Promise<AlertRuleRow> {
  const now = clock.date();
  const row = await prisma().alertRule.create({
    data: { id: crypto.randomUUID(), userId, kind: rule.kind, enabled: true, params: JSON.stringify(rule.params), createdAt: now, updatedAt: now },
    select: RULE,
  });
  return toRule(row);
}

/** Ends the rule's open episode and cancels its queued messages (the rule was switched off or removed): a step of the caller's transaction. */
async function quietRule(tx: Db, ruleId: string, endedAt: Date): Promise<void> {
  await tx.alertEpisode.updateMany({ where: { ruleId, endedAt: null }, data: { endedAt, dedupeKey: null } });
  await tx.alertDelivery.updateMany({
    where: { status: "pending", episode: { ruleId } },
    data: { status: "cancelled", lastError: "The rule was switched off or removed.", nextAttemptAt: null, updatedAt: clock.date() },
  });
}

/** Switches one of the person's rules on or off; false when they have no such rule. */
export function setAlertRuleEnabled(userId: string, ruleId: string, enabled: boolean, at: Date): Promise<boolean> {
  return prisma().$transaction(async (tx) => {
    const { count } = await tx.alertRule.updateMany({ where: { id: ruleId, userId }, data: { enabled, updatedAt: clock.date() } });
    if (count === 0) return false;
    if (!enabled) await quietRule(tx, ruleId, at);
    return true;
  });
}

/** Removes one of the person's rules (its history stays); false when they have no such rule. */
export function deleteAlertRule(userId: string, ruleId: string, at: Date): Promise<boolean> {
  return prisma().$transaction(async (tx) => {
    if (!(await tx.alertRule.findFirst({ where: { id: ruleId, userId }, select: { id: true } }))) return false;
    await quietRule(tx, ruleId, at);
    await tx.alertRule.delete({ where: { id: ruleId } });
    return true;
  });
}

// ---------------------------------------------------------------------------------------
// Channels
// ---------------------------------------------------------------------------------------

export async function listAlertChannels(userId: string): Promise<AlertChannelRow[]> {
  return (await prisma().alertChannel.findMany({ where: { userId }, select: CHANNEL, orderBy: [{ createdAt: "asc" }, { id: "asc" }] })).map(toChannel);
}

export function countAlertChannels(userId: string): Promise<number> {
  return prisma().alertChannel.count({ where: { userId } });
}

export async function getAlertChannel(channelId: string): Promise<AlertChannelRow | null> {
  const c = await prisma().alertChannel.findUnique({ where: { id: channelId }, select: CHANNEL });
  return c ? toChannel(c) : null;
}

export async function findAlertChannel(userId: string, channelId: string): Promise<AlertChannelRow | null> {
  const c = await prisma().alertChannel.findFirst({ where: { id: channelId, userId }, select: CHANNEL });
  return c ? toChannel(c) : null;
}

export async function createAlertChannel(
  userId: string,
  c: {
    kind: string;
    label: string;
    url: string | null;
    recipient: string | null;
    secret: string | null;
    confirmCodeHash?: string;
    confirmExpiresAt?: Date;
  },
): Promise<AlertChannelRow> {
  const now = clock.date();
  const row = await prisma().alertChannel.create({
    data: {
      id: crypto.randomUUID(),
      userId,
      kind: c.kind,
      label: c.label,
      url: c.url,
      recipient: c.recipient,
      secret: c.secret,
      enabled: true,
      confirmCodeHash: c.confirmCodeHash ?? null,
      confirmExpiresAt: c.confirmExpiresAt ?? null,
      createdAt: now,
      updatedAt: now,
    },
    select: CHANNEL,
  });
  return toChannel(row);
}

/** An e-mail channel's pending confirmation (null: no such channel of the person's). */
export async function getChannelConfirmation(
  userId: string,
  channelId: string,
): Promise<{ kind: string; confirmedAt: Date | null; codeHash: string | null; expiresAt: Date | null; attempts: number } | null> {
  const c = await prisma().alertChannel.findFirst({
    where: { id: channelId, userId },
    select: { kind: true, confirmedAt: true, confirmCodeHash: true, confirmExpiresAt: true, confirmAttempts: true },
  });
  return c ? { kind: c.kind, confirmedAt: c.confirmedAt, codeHash: c.confirmCodeHash, expiresAt: c.confirmExpiresAt, attempts: c.confirmAttempts } : null;
}

/** A new confirmation code for an unconfirmed channel (its wrong tries start again). */
export async function setChannelConfirmCode(userId: string, channelId: string, codeHash: string, expiresAt: Date): Promise<boolean> {
  const { count } = await prisma().alertChannel.updateMany({
    where: { id: channelId, userId, confirmedAt: null },
    data: { confirmCodeHash: codeHash, confirmExpiresAt: expiresAt, confirmAttempts: 0, updatedAt: clock.date() },
  });
  return count > 0;
}

/**
 * Takes one try at the code, atomically: false once the code's tries are used up (counted and
 * checked in one statement, so guesses sent in parallel cannot take more than `maxTries`).
 */
export async function takeConfirmTry(userId: string, channelId: string, maxTries: number): Promise<boolean> {
  const { count } = await prisma().alertChannel.updateMany({
    where: { id: channelId, userId, confirmedAt: null, confirmAttempts: { lt: maxTries } },
    data: { confirmAttempts: { increment: 1 }, updatedAt: clock.date() },
  });
  return count > 0;
}

/** Confirms the address if the code it was sent is still the pending one; the code is spent. */
export async function markChannelConfirmed(userId: string, channelId: string, codeHash: string, at: Date): Promise<boolean> {
  const { count } = await prisma().alertChannel.updateMany({
    where: { id: channelId, userId, confirmedAt: null, confirmCodeHash: codeHash },
    data: { confirmedAt: at, confirmCodeHash: null, confirmExpiresAt: null, confirmAttempts: 0, updatedAt: clock.date() },
  });
  return count > 0;
}

export async function setAlertChannelEnabled(userId: string, channelId: string, enabled: boolean): Promise<boolean> {
  return (await prisma().alertChannel.updateMany({ where: { id: channelId, userId }, data: { enabled, updatedAt: clock.date() } })).count > 0;
}

/** Removes one of the person's channels; its queued messages are cancelled, its history stays. */
export function deleteAlertChannel(userId: string, channelId: string): Promise<boolean> {
  return prisma().$transaction(async (tx) => {
    if (!(await tx.alertChannel.findFirst({ where: { id: channelId, userId }, select: { id: true } }))) return false;
    await tx.alertDelivery.updateMany({
      where: { channelId, status: "pending" },
      data: { status: "cancelled", lastError: "The channel was removed.", nextAttemptAt: null, updatedAt: clock.date() },
    });
    await tx.alertChannel.delete({ where: { id: channelId } });
    return true;
  });
}

// ---------------------------------------------------------------------------------------
// Facts the rules read from other tables
// ---------------------------------------------------------------------------------------

/** The newest day with a night of sleep: a daily sleep document, or a sleep period that counts. */
export async function getNewestNightDay(userId: string): Promise<string | null> {
  const db = prisma();
  const [sleep, periods] = await Promise.all([
    db.dailySleep.aggregate({ where: { userId }, _max: { day: true } }),
    db.sleepPeriod.aggregate({ where: { userId, OR: [{ type: null }, { type: { notIn: ["deleted", "rest"] } }] }, _max: { day: true } }),
  ]);
  const days = [sleep._max.day, periods._max.day].filter((d) => d !== null);
  return days.length === 0 ? null : days.reduce((a, b) => (a > b ? a : b));
}

/** Sync jobs of the person running now or due within `graceMs` (their sync is not through yet). */
export function countActiveSyncJobs(userId: string, now: Date, graceMs = 5_000): Promise<number> {
  return prisma().job.count({
    where: {
      userId,
      kind: { in: ["backfill", "incremental", "personal_info"] },
      OR: [{ status: "running" }, { status: "queued", runAt: { lte: new Date(now.getTime() + graceMs) } }],
    },
  });
}
