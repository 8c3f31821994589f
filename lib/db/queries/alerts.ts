import "server-only";
import { clock } from "@/lib/clock";
import { fromDbTime, toDbTime } from "@/lib/db/dialect";
import { all, get, query, run, transaction, type Work } from "@/lib/db/sql";
import { episodeFields } from "@/lib/db/queries/alert-rows";
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
} from "@/lib/db/queries/alert-rows";

// The alerts tables (prisma/schema.prisma "Alerts and digests"): rows in, rows out. Decisions
// (what to open, when to retry, what a message says) live in lib/alerts; these only read and
// write, each change to an episode and its deliveries in one transaction.

export const DEFAULT_ALERT_SETTINGS = { includeValues: false, timeZone: "UTC", linkBase: null, quietHours: null } as const;

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

type Time = string | number | null;
const at = (v: Time): Date => fromDbTime(v) ?? new Date(0);
const atOrNull = (v: Time): Date | null => fromDbTime(v);
const when = (d: Date | null): string | null => (d ? toDbTime(d) : null);

type RuleRecord = { id: string; userId: string; kind: string; enabled: number | boolean; params: string; createdAt: Time };
type ChannelRecord = Omit<AlertChannelRow, "kind" | "enabled" | "confirmed" | "createdAt"> & {
  kind: string;
  enabled: number | boolean;
  confirmedAt: Time;
  createdAt: Time;
};
type EpisodeRecord = Omit<AlertEpisodeRow, "kind" | "startedAt" | "lastSeenAt" | "endedAt"> & {
  kind: string;
  startedAt: Time;
  lastSeenAt: Time;
  endedAt: Time;
};
type DeliveryRecord = Omit<AlertDeliveryRow, "channelKind" | "purpose" | "status" | "nextAttemptAt" | "sentAt" | "createdAt"> & {
  channelKind: string;
  purpose: string;
  status: string;
  nextAttemptAt: Time;
  sentAt: Time;
  createdAt: Time;
};

const toRule = (r: RuleRecord): AlertRuleRow => ({
  id: r.id,
  userId: r.userId,
  kind: r.kind,
  enabled: Boolean(r.enabled),
  params: parseJson(r.params),
  createdAt: at(r.createdAt),
});
const toChannel = (c: ChannelRecord): AlertChannelRow => ({
  id: c.id,
  userId: c.userId,
  kind: c.kind,
  label: c.label,
  url: c.url,
  recipient: c.recipient,
  secret: c.secret,
  enabled: Boolean(c.enabled),
  confirmed: c.kind !== "email" || c.confirmedAt !== null,
  createdAt: at(c.createdAt),
});
const toEpisode = (e: EpisodeRecord): AlertEpisodeRow => ({
  ...e,
  kind: e.kind,
  startedAt: at(e.startedAt),
  lastSeenAt: at(e.lastSeenAt),
  endedAt: atOrNull(e.endedAt),
});
const toDelivery = (d: DeliveryRecord): AlertDeliveryRow => ({
  id: d.id,
  userId: d.userId,
  episodeId: d.episodeId,
  channelId: d.channelId,
  channelKind: d.channelKind,
  channelLabel: d.channelLabel,
  purpose: d.purpose as DeliveryPurpose,
  title: d.title,
  body: d.body,
  link: d.link,
  data: d.data,
  status: d.status as DeliveryStatus,
  attempts: Number(d.attempts),
  nextAttemptAt: atOrNull(d.nextAttemptAt),
  lastError: d.lastError,
  sentAt: atOrNull(d.sentAt),
  createdAt: at(d.createdAt),
});

/** A new delivery's message columns, in the order channelId, channelKind, channelLabel, purpose, title, body, link, data. */
const deliveryValues = (d: NewDelivery) => [d.channelId, d.channelKind, d.channelLabel, d.purpose, d.title, d.body, d.link, d.data] as const;

const DELIVERY = `d.id, d.userId, d.episodeId, d.channelId, d.channelKind, d.channelLabel, d.purpose, d.title, d.body, d.link, d.data,
  d.status, d.attempts, d.nextAttemptAt, d.lastError, d.sentAt, d.createdAt`;
const nowText = () => toDbTime(clock.date());

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
// Episodes
// ---------------------------------------------------------------------------------------

const EPISODE = `SELECT id, userId, ruleId, kind, key, dedupeKey, title, startedAt, lastSeenAt, endedAt FROM alert_episode`;

export async function listOpenEpisodes(userId: string): Promise<AlertEpisodeRow[]> {
  return (await query(all<EpisodeRecord>(`${EPISODE} WHERE userId = ? AND endedAt IS NULL ORDER BY id`, userId))).map(toEpisode);
}

export async function episodeExists(dedupeKey: string): Promise<boolean> {
  return (await query(get(`SELECT id FROM alert_episode WHERE dedupeKey = ?`, dedupeKey))) !== undefined;
}

/** The episode and its deliveries in one transaction; null when the dedupeKey is taken. */
export function openEpisode(e: NewEpisode, deliveries: NewDelivery[], firstAttemptAt: Date): Promise<AlertEpisodeRow | null> {
  const f = episodeFields(e);
  const now = nowText();
  return transaction(function* () {
    // a taken dedupeKey (unique) inserts nothing and returns no row
    const episode = yield* get<EpisodeRecord>(
      `INSERT OR IGNORE INTO alert_episode (userId, ruleId, kind, key, dedupeKey, title, startedAt, lastSeenAt, endedAt) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       RETURNING id, userId, ruleId, kind, key, dedupeKey, title, startedAt, lastSeenAt, endedAt`,
      f.userId,
      f.ruleId,
      f.kind,
      f.key,
      f.dedupeKey,
      f.title,
      toDbTime(f.startedAt),
      toDbTime(f.lastSeenAt),
      when(f.endedAt),
    );
    if (!episode) return null;
    for (const d of deliveries) {
      yield* run(
        `INSERT INTO alert_delivery (userId, episodeId, channelId, channelKind, channelLabel, purpose, title, body, link, data,
           status, attempts, nextAttemptAt, createdAt, updatedAt)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?)`,
        e.userId,
        episode.id,
        ...deliveryValues(d),
        toDbTime(firstAttemptAt),
        now,
        now,
      );
    }
    return toEpisode(episode);
  });
}

export async function touchEpisode(id: number, at: Date): Promise<void> {
  await query(run(`UPDATE alert_episode SET lastSeenAt = ? WHERE id = ? AND endedAt IS NULL`, toDbTime(at), id));
}

export async function endEpisode(id: number, at: Date): Promise<void> {
  await query(run(`UPDATE alert_episode SET endedAt = ?, lastSeenAt = ?, dedupeKey = NULL WHERE id = ? AND endedAt IS NULL`, toDbTime(at), toDbTime(at), id));
}

// ---------------------------------------------------------------------------------------
// Deliveries
// ---------------------------------------------------------------------------------------

type DeliveryWithEpisode = DeliveryRecord & { episodeKind: string | null; episodeKey: string | null; episodeStartedAt: Time; episodeEndedAt: Time };

const WITH_EPISODE = `SELECT ${DELIVERY}, e.kind AS episodeKind, e.key AS episodeKey, e.startedAt AS episodeStartedAt, e.endedAt AS episodeEndedAt
  FROM alert_delivery d LEFT JOIN alert_episode e ON e.id = d.episodeId`;

const episodeOf = (r: DeliveryWithEpisode) =>
  r.episodeKind === null ? null : { kind: r.episodeKind, key: r.episodeKey ?? "", startedAt: at(r.episodeStartedAt), endedAt: atOrNull(r.episodeEndedAt) };

/**
 * Takes up to `limit` due deliveries (each gets one more attempt and a lease until
 * `leaseUntil`). Several processes may claim at once (PostgreSQL): each delivery is taken by one,
 * since a row is only taken while it is still due — a row another claim changed meanwhile is
 * looked at again after that claim commits, and left alone.
 */
export function claimDueDeliveries(now: Date, leaseUntil: Date, limit: number): Promise<DueDelivery[]> {
  const due = toDbTime(now);
  return transaction(function* () {
    const candidates = yield* all<{ id: number }>(
      `SELECT id FROM alert_delivery WHERE status = 'pending' AND nextAttemptAt <= ? ORDER BY nextAttemptAt, id LIMIT ?`,
      due,
      limit,
    );
    const claimed: DueDelivery[] = [];
    for (const { id } of candidates) {
      const taken = yield* run(
        `UPDATE alert_delivery SET attempts = attempts + 1, nextAttemptAt = ?, updatedAt = ? WHERE id = ? AND status = 'pending' AND nextAttemptAt <= ?`,
        toDbTime(leaseUntil),
        nowText(),
        id,
        due,
      );
      if (taken !== 1) continue;
      const r = yield* get<DeliveryWithEpisode>(`${WITH_EPISODE} WHERE d.id = ?`, id);
      if (!r) continue;
      const episode = episodeOf(r);
      claimed.push({ ...toDelivery(r), episode: episode && { kind: episode.kind, key: episode.key, startedAt: episode.startedAt } });
    }
    return claimed;
  });
}

export async function finishDelivery(
  id: number,
  outcome: { status: DeliveryStatus; nextAttemptAt: Date | null; lastError: string | null; sentAt: Date | null },
): Promise<void> {
  await query(
    run(
      `UPDATE alert_delivery SET status = ?, nextAttemptAt = ?, lastError = ?, sentAt = ?, updatedAt = ? WHERE id = ?`,
      outcome.status,
      when(outcome.nextAttemptAt),
      outcome.lastError,
      when(outcome.sentAt),
      nowText(),
      id,
    ),
  );
}

export async function recordDelivery(
  userId: string,
  d: NewDelivery,
  outcome: { status: DeliveryStatus; lastError: string | null; sentAt: Date | null; at: Date },
): Promise<AlertDeliveryRow> {
  const row = await query(
    get<DeliveryRecord>(
      `INSERT INTO alert_delivery (userId, episodeId, channelId, channelKind, channelLabel, purpose, title, body, link, data,
         status, attempts, lastError, sentAt, createdAt, updatedAt)
       VALUES (?, NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?)
       RETURNING id, userId, episodeId, channelId, channelKind, channelLabel, purpose, title, body, link, data,
         status, attempts, nextAttemptAt, lastError, sentAt, createdAt`,
      userId,
      ...deliveryValues(d),
      outcome.status,
      outcome.lastError,
      when(outcome.sentAt),
      toDbTime(outcome.at),
      nowText(),
    ),
  );
  return toDelivery(row!);
}

export type AlertHistoryRow = AlertDeliveryRow & { episode: { kind: string; key: string; startedAt: Date; endedAt: Date | null } | null };

/** The person's newest deliveries, newest first. */
export async function listAlertHistory(userId: string, limit: number): Promise<AlertHistoryRow[]> {
  const rows = await query(all<DeliveryWithEpisode>(`${WITH_EPISODE} WHERE d.userId = ? ORDER BY d.createdAt DESC, d.id DESC LIMIT ?`, userId, limit));
  return rows.map((r) => ({ ...toDelivery(r), episode: episodeOf(r) }));
}

/**
 * Keeps each person's newest `keep` deliveries younger than `before` (pending ones always
 * stay), then removes ended episodes left without deliveries. Returns the deliveries removed.
 */
export function pruneAlertHistory(opts: { before: Date; keep: number }): Promise<number> {
  const before = toDbTime(opts.before);
  return transaction(function* () {
    let removed = yield* run(`DELETE FROM alert_delivery WHERE createdAt < ? AND status <> 'pending'`, before);
    const people = yield* all<{ userId: string; n: number }>(`SELECT userId, COUNT(*) AS n FROM alert_delivery GROUP BY userId`);
    for (const p of people) {
      if (Number(p.n) <= opts.keep) continue;
      const newestFirst = yield* all<{ id: number; status: string }>(
        `SELECT id, status FROM alert_delivery WHERE userId = ? ORDER BY createdAt DESC, id DESC`,
        p.userId,
      );
      for (const d of newestFirst.slice(opts.keep)) if (d.status !== "pending") removed += yield* run(`DELETE FROM alert_delivery WHERE id = ?`, d.id);
    }
    yield* run(
      `DELETE FROM alert_episode
       WHERE endedAt IS NOT NULL AND startedAt < ? AND NOT EXISTS (SELECT 1 FROM alert_delivery d WHERE d.episodeId = alert_episode.id)`,
      before,
    );
    return removed;
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
