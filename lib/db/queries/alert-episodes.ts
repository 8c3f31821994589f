import "server-only";
import { toDbTime } from "@/lib/db/dialect";
import { all, get, query, run, transaction } from "@/lib/db/sql";
import {
  at,
  atOrNull,
  DELIVERY,
  deliveryValues,
  nowText,
  toDelivery,
  toEpisode,
  when,
  type DeliveryRecord,
  type EpisodeRecord,
  type Time,
} from "@/lib/db/queries/alert-records";
import {
  episodeFields,
  type AlertDeliveryRow,
  type AlertEpisodeRow,
  type DeliveryStatus,
  type DueDelivery,
  type NewDelivery,
  type NewEpisode,
} from "@/lib/db/queries/alert-rows";

// The alert episodes and their deliveries (prisma/schema.prisma "Alerts and digests"): each change to an
// episode and its deliveries in one transaction, the deliveries claimed by one worker at a time. The
// settings, rules and channels are in alerts.ts.

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
