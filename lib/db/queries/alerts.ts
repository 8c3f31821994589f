import "server-only";
import { clock } from "@/lib/clock";
import { toDbTime } from "@/lib/db/dialect";
import { all, get, query, run, transaction, type Work } from "@/lib/db/sql";
import { atOrNull, nowText, toChannel, toRule, when, type ChannelRecord, type RuleRecord, type Time } from "@/lib/db/queries/alert-records";
import type { AlertChannelRow, AlertRuleRow, AlertSettingsRow } from "@/lib/db/queries/alert-rows";

// The alerts tables (prisma/schema.prisma "Alerts and digests"): rows in, rows out. Decisions
// (what to open, when to retry, what a message says) live in lib/alerts; these only read and
// write. The episodes and deliveries are in alert-episodes.ts, the records' conversions in alert-records.ts.

export const DEFAULT_ALERT_SETTINGS = { includeValues: false, timeZone: "UTC", linkBase: null, quietHours: null } as const;

// ---------------------------------------------------------------------------------------
// Settings
// ---------------------------------------------------------------------------------------

type SettingsRecord = { includeValues: number | boolean; timeZone: string; linkBase: string | null; quietFrom: number | null; quietTo: number | null };

export async function getAlertSettings(userId: string): Promise<AlertSettingsRow> {
  const s = await query(get<SettingsRecord>(`SELECT includeValues, timeZone, linkBase, quietFrom, quietTo FROM alert_settings WHERE userId = ?`, userId));
  if (!s) return { userId, ...DEFAULT_ALERT_SETTINGS };
  const quietHours = s.quietFrom !== null && s.quietTo !== null ? { from: Number(s.quietFrom), to: Number(s.quietTo) } : null;
  return { userId, includeValues: Boolean(s.includeValues), timeZone: s.timeZone, linkBase: s.linkBase, quietHours };
}

/** Whether the person ever saved their alert settings. */
export async function hasAlertSettings(userId: string): Promise<boolean> {
  return (await query(get(`SELECT 1 AS one FROM alert_settings WHERE userId = ?`, userId))) !== undefined;
}

export async function saveAlertSettings(userId: string, s: Omit<AlertSettingsRow, "userId">): Promise<AlertSettingsRow> {
  await query(
    run(
      `INSERT INTO alert_settings (userId, includeValues, timeZone, linkBase, quietFrom, quietTo, updatedAt) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(userId) DO UPDATE SET includeValues = excluded.includeValues, timeZone = excluded.timeZone, linkBase = excluded.linkBase,
         quietFrom = excluded.quietFrom, quietTo = excluded.quietTo, updatedAt = excluded.updatedAt`,
      userId,
      s.includeValues,
      s.timeZone,
      s.linkBase,
      s.quietHours?.from ?? null,
      s.quietHours?.to ?? null,
      nowText(),
    ),
  );
  return { userId, includeValues: s.includeValues, timeZone: s.timeZone, linkBase: s.linkBase, quietHours: s.quietHours };
}

// ---------------------------------------------------------------------------------------
// Rules
// ---------------------------------------------------------------------------------------

export async function listUsersWithEnabledRules(): Promise<string[]> {
  const rows = await query(all<{ userId: string }>(`SELECT DISTINCT userId FROM alert_rule WHERE enabled = ? ORDER BY userId`, true));
  return rows.map((r) => r.userId);
}

export async function listAlertRules(userId: string): Promise<AlertRuleRow[]> {
  return (
    await query(all<RuleRecord>(`SELECT id, userId, kind, enabled, params, createdAt FROM alert_rule WHERE userId = ? ORDER BY createdAt, id`, userId))
  ).map(toRule);
}

export async function countAlertRules(userId: string): Promise<number> {
  return Number((await query(get<{ n: number }>(`SELECT COUNT(*) AS n FROM alert_rule WHERE userId = ?`, userId)))?.n ?? 0);
}

export async function createAlertRule(userId: string, rule: { kind: string; params: unknown }): Promise<AlertRuleRow> {
  const id = crypto.randomUUID();
  const now = nowText();
  const params = JSON.stringify(rule.params);
  await query(
    run(
      `INSERT INTO alert_rule (id, userId, kind, enabled, params, createdAt, updatedAt) VALUES (?, ?, ?, ?, ?, ?, ?)`,
      id,
      userId,
      rule.kind,
      true,
      params,
      now,
      now,
    ),
  );
  return toRule({ id, userId, kind: rule.kind, enabled: true, params, createdAt: now });
}

/** Ends the rule's open episode and cancels its queued messages (the rule was switched off or removed). */
function* quietRule(ruleId: string, endedAt: Date): Work<void> {
  yield* run(`UPDATE alert_episode SET endedAt = ?, dedupeKey = NULL WHERE ruleId = ? AND endedAt IS NULL`, toDbTime(endedAt), ruleId);
  yield* run(
    `UPDATE alert_delivery SET status = 'cancelled', lastError = 'The rule was switched off or removed.', nextAttemptAt = NULL, updatedAt = ?
      WHERE status = 'pending' AND episodeId IN (SELECT id FROM alert_episode WHERE ruleId = ?)`,
    nowText(),
    ruleId,
  );
}

/** Switches one of the person's rules on or off; false when they have no such rule. */
export function setAlertRuleEnabled(userId: string, ruleId: string, enabled: boolean, at: Date): Promise<boolean> {
  return transaction(function* () {
    if ((yield* run(`UPDATE alert_rule SET enabled = ?, updatedAt = ? WHERE id = ? AND userId = ?`, enabled, nowText(), ruleId, userId)) === 0) return false;
    if (!enabled) yield* quietRule(ruleId, at);
    return true;
  });
}

/** Removes one of the person's rules (its history stays); false when they have no such rule. */
export function deleteAlertRule(userId: string, ruleId: string, at: Date): Promise<boolean> {
  return transaction(function* () {
    if (!(yield* get(`SELECT id FROM alert_rule WHERE id = ? AND userId = ?`, ruleId, userId))) return false;
    yield* quietRule(ruleId, at);
    yield* run(`DELETE FROM alert_rule WHERE id = ?`, ruleId);
    return true;
  });
}

// ---------------------------------------------------------------------------------------
// Channels
// ---------------------------------------------------------------------------------------

const CHANNEL = `SELECT id, userId, kind, label, url, recipient, secret, enabled, confirmedAt, createdAt FROM alert_channel`;

export async function listAlertChannels(userId: string): Promise<AlertChannelRow[]> {
  return (await query(all<ChannelRecord>(`${CHANNEL} WHERE userId = ? ORDER BY createdAt, id`, userId))).map(toChannel);
}

export async function countAlertChannels(userId: string): Promise<number> {
  return Number((await query(get<{ n: number }>(`SELECT COUNT(*) AS n FROM alert_channel WHERE userId = ?`, userId)))?.n ?? 0);
}

export async function getAlertChannel(channelId: string): Promise<AlertChannelRow | null> {
  const c = await query(get<ChannelRecord>(`${CHANNEL} WHERE id = ?`, channelId));
  return c ? toChannel(c) : null;
}

export async function findAlertChannel(userId: string, channelId: string): Promise<AlertChannelRow | null> {
  const c = await query(get<ChannelRecord>(`${CHANNEL} WHERE id = ? AND userId = ?`, channelId, userId));
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
  const id = crypto.randomUUID();
  const now = clock.date();
  await query(
    run(
      `INSERT INTO alert_channel (id, userId, kind, label, url, recipient, secret, enabled, confirmCodeHash, confirmExpiresAt, createdAt, updatedAt)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      id,
      userId,
      c.kind,
      c.label,
      c.url,
      c.recipient,
      c.secret,
      true,
      c.confirmCodeHash ?? null,
      when(c.confirmExpiresAt ?? null),
      toDbTime(now),
      toDbTime(now),
    ),
  );
  return toChannel({
    id,
    userId,
    kind: c.kind,
    label: c.label,
    url: c.url,
    recipient: c.recipient,
    secret: c.secret,
    enabled: true,
    confirmedAt: null,
    createdAt: toDbTime(now),
  });
}

/** An e-mail channel's pending confirmation (null: no such channel of the person's). */
export async function getChannelConfirmation(
  userId: string,
  channelId: string,
): Promise<{ kind: string; confirmedAt: Date | null; codeHash: string | null; expiresAt: Date | null; attempts: number } | null> {
  const c = await query(
    get<{ kind: string; confirmedAt: Time; codeHash: string | null; expiresAt: Time; attempts: number }>(
      `SELECT kind, confirmedAt, confirmCodeHash AS codeHash, confirmExpiresAt AS expiresAt, confirmAttempts AS attempts
       FROM alert_channel WHERE id = ? AND userId = ?`,
      channelId,
      userId,
    ),
  );
  return c
    ? { kind: c.kind, confirmedAt: atOrNull(c.confirmedAt), codeHash: c.codeHash, expiresAt: atOrNull(c.expiresAt), attempts: Number(c.attempts) }
    : null;
}

/** A new confirmation code for an unconfirmed channel (its wrong tries start again). */
export async function setChannelConfirmCode(userId: string, channelId: string, codeHash: string, expiresAt: Date): Promise<boolean> {
  const changed = await query(
    run(
      `UPDATE alert_channel SET confirmCodeHash = ?, confirmExpiresAt = ?, confirmAttempts = 0, updatedAt = ?
       WHERE id = ? AND userId = ? AND confirmedAt IS NULL`,
      codeHash,
      toDbTime(expiresAt),
      nowText(),
      channelId,
      userId,
    ),
  );
  return changed > 0;
}

/**
 * Takes one try at the code, atomically: false once the code's tries are used up (counted and
 * checked in one statement, so guesses sent in parallel cannot take more than `maxTries`).
 */
export async function takeConfirmTry(userId: string, channelId: string, maxTries: number): Promise<boolean> {
  const changed = await query(
    run(
      `UPDATE alert_channel SET confirmAttempts = confirmAttempts + 1, updatedAt = ?
        WHERE id = ? AND userId = ? AND confirmedAt IS NULL AND confirmAttempts < ?`,
      nowText(),
      channelId,
      userId,
      maxTries,
    ),
  );
  return changed > 0;
}

/** Confirms the address if the code it was sent is still the pending one; the code is spent. */
export async function markChannelConfirmed(userId: string, channelId: string, codeHash: string, at: Date): Promise<boolean> {
  const changed = await query(
    run(
      `UPDATE alert_channel SET confirmedAt = ?, confirmCodeHash = NULL, confirmExpiresAt = NULL, confirmAttempts = 0, updatedAt = ?
        WHERE id = ? AND userId = ? AND confirmedAt IS NULL AND confirmCodeHash = ?`,
      toDbTime(at),
      nowText(),
      channelId,
      userId,
      codeHash,
    ),
  );
  return changed > 0;
}

export async function setAlertChannelEnabled(userId: string, channelId: string, enabled: boolean): Promise<boolean> {
  return (await query(run(`UPDATE alert_channel SET enabled = ?, updatedAt = ? WHERE id = ? AND userId = ?`, enabled, nowText(), channelId, userId))) > 0;
}

/** Removes one of the person's channels; its queued messages are cancelled, its history stays. */
export function deleteAlertChannel(userId: string, channelId: string): Promise<boolean> {
  return transaction(function* () {
    if (!(yield* get(`SELECT id FROM alert_channel WHERE id = ? AND userId = ?`, channelId, userId))) return false;
    yield* run(
      `UPDATE alert_delivery SET status = 'cancelled', lastError = 'The channel was removed.', nextAttemptAt = NULL, updatedAt = ?
       WHERE channelId = ? AND status = 'pending'`,
      nowText(),
      channelId,
    );
    yield* run(`DELETE FROM alert_channel WHERE id = ?`, channelId);
    return true;
  });
}

// ---------------------------------------------------------------------------------------
// Facts the rules read from other tables
// ---------------------------------------------------------------------------------------

/** The newest day with a night of sleep: a daily sleep document, or a sleep period that counts. */
export async function getNewestNightDay(userId: string): Promise<string | null> {
  const row = await query(
    get<{ day: string | null }>(
      `SELECT MAX(day) AS day FROM (
         SELECT MAX(day) AS day FROM daily_sleep WHERE userId = ?
         UNION ALL SELECT MAX(day) FROM sleep_period WHERE userId = ? AND (type IS NULL OR type NOT IN ('deleted', 'rest'))) AS nights`,
      userId,
      userId,
    ),
  );
  return row?.day ?? null;
}

/** Sync jobs of the person running now or due within `graceMs` (their sync is not through yet). */
export async function countActiveSyncJobs(userId: string, now: Date, graceMs = 5_000): Promise<number> {
  const row = await query(
    get<{ n: number }>(
      `SELECT COUNT(*) AS n FROM job
       WHERE userId = ? AND kind IN ('backfill', 'incremental', 'personal_info') AND (status = 'running' OR (status = 'queued' AND runAt <= ?))`,
      userId,
      toDbTime(now.getTime() + graceMs),
    ),
  );
  return Number(row?.n ?? 0);
}
