import "server-only";
import { rawDb } from "@/lib/db";
import { fromDbTime, toDbTime } from "@/lib/db/dialect";

// The durable job table behind the in-process scheduler (lib/sync/scheduler.ts). Raw SQL on
// purpose: claiming must be atomic (one transaction) and cheap enough to run every second.
// Times are stored the way Prisma's SQLite adapter writes DateTime (lib/db/dialect.ts
// toDbTime), so Prisma reads them back and text comparison orders them correctly.

export type JobKind = "backfill" | "incremental" | "personal_info" | "subscriptions";
export type JobStatus = "queued" | "running" | "done" | "failed";

export type JobRow = {
  id: number;
  kind: JobKind;
  userId: string | null;
  collection: string | null;
  payload: string;
  status: JobStatus;
  runAt: string;
  leaseUntil: string | null;
  attempts: number;
  maxAttempts: number;
  lastError: string | null;
  activeKey: string | null;
};

export type EnqueueJobOptions = {
  kind: JobKind;
  userId?: string | null;
  collection?: string | null;
  payload?: Record<string, unknown>;
  runAt?: Date | number;
  maxAttempts?: number;
  /** at most one queued/running job per key; defaults to kind:userId:collection */
  activeKey?: string;
  /** leave an active job with the same key as it is (no earlier run, no re-run) */
  ifAbsent?: boolean;
};

export function jobActiveKey(kind: string, userId?: string | null, collection?: string | null): string {
  return `${kind}:${userId ?? "-"}:${collection ?? "-"}`;
}

/**
 * Queues a job, or folds it into the active one with the same key: a queued job keeps the
 * earlier run time; a running job is marked to run once more when it finishes.
 */
export function enqueueJob(opts: EnqueueJobOptions): void {
  const now = toDbTime(new Date());
  const runAt = toDbTime(opts.runAt ?? new Date());
  const insert = `INSERT INTO job (kind, userId, collection, payload, status, runAt, attempts, maxAttempts, activeKey, createdAt, updatedAt)
       VALUES (@kind, @userId, @collection, @payload, 'queued', @runAt, 0, @maxAttempts, @activeKey, @now, @now)`;
  rawDb()
    .prepare(
      opts.ifAbsent
        ? `${insert} ON CONFLICT(activeKey) DO NOTHING`
        : `${insert}
       ON CONFLICT(activeKey) DO UPDATE SET
         runAt = CASE WHEN job.status = 'queued' AND excluded.runAt < job.runAt THEN excluded.runAt ELSE job.runAt END,
         payload = CASE WHEN job.status = 'running' THEN json_set(job.payload, '$.again', json('true')) ELSE job.payload END,
         updatedAt = excluded.updatedAt`,
    )
    .run({
      kind: opts.kind,
      userId: opts.userId ?? null,
      collection: opts.collection ?? null,
      payload: JSON.stringify(opts.payload ?? {}),
      runAt,
      maxAttempts: opts.maxAttempts ?? 8,
      activeKey: opts.activeKey ?? jobActiveKey(opts.kind, opts.userId, opts.collection),
      now,
    });
}

/**
 * Takes up to `limit` due jobs: queued ones whose time has come, and running ones whose
 * lease expired (their process died). Each taken job gets a lease and one more attempt.
 */
export function claimDueJobs(opts: { now: number; leaseMs: number; limit: number; excludeIds?: number[] }): JobRow[] {
  const db = rawDb();
  const now = toDbTime(opts.now);
  const lease = toDbTime(opts.now + opts.leaseMs);
  const exclude = opts.excludeIds ?? [];
  // A cheap read first: most looks at the table find nothing due (no write lock taken then).
  const anyDue = db
    .prepare(`SELECT 1 FROM job WHERE (status = 'queued' AND runAt <= ?) OR (status = 'running' AND leaseUntil < ?) LIMIT 1`)
    .get(now, now);
  if (!anyDue) return [];
  const tx = db.transaction(() => {
    const ids = db
      .prepare(
        `SELECT id FROM job
         WHERE ((status = 'queued' AND runAt <= @now) OR (status = 'running' AND leaseUntil < @now))
           AND id NOT IN (SELECT value FROM json_each(@exclude))
         ORDER BY runAt, id LIMIT @limit`,
      )
      .all({ now, limit: opts.limit, exclude: JSON.stringify(exclude) }) as Array<{ id: number }>;
    const claim = db.prepare(
      `UPDATE job SET status = 'running', leaseUntil = ?, attempts = attempts + 1, updatedAt = ? WHERE id = ? RETURNING *`,
    );
    return ids.map(({ id }) => claim.get(lease, now, id) as JobRow);
  });
  return tx.immediate();
}

/** The earliest time a queued job is due (or a running lease runs out), if any. */
export function nextJobDueAt(): Date | null {
  const row = rawDb()
    .prepare(
      `SELECT MIN(t) AS t FROM (
         SELECT MIN(runAt) AS t FROM job WHERE status = 'queued'
         UNION ALL SELECT MIN(leaseUntil) FROM job WHERE status = 'running')`,
    )
    .get() as { t: string | null };
  return fromDbTime(row.t);
}

export function renewJobLease(id: number, until: number): void {
  rawDb().prepare(`UPDATE job SET leaseUntil = ?, updatedAt = ? WHERE id = ? AND status = 'running'`).run(toDbTime(until), toDbTime(new Date()), id);
}

/** Finished: done, unless it was asked to run again while running. */
export function completeJob(id: number): void {
  const now = toDbTime(new Date());
  rawDb()
    .prepare(
      `UPDATE job SET
         status = CASE WHEN json_extract(payload, '$.again') THEN 'queued' ELSE 'done' END,
         activeKey = CASE WHEN json_extract(payload, '$.again') THEN activeKey ELSE NULL END,
         attempts = CASE WHEN json_extract(payload, '$.again') THEN 0 ELSE attempts END,
         runAt = CASE WHEN json_extract(payload, '$.again') THEN @now ELSE runAt END,
         payload = json_remove(payload, '$.again'),
         leaseUntil = NULL, lastError = NULL, updatedAt = @now
       WHERE id = @id`,
    )
    .run({ id, now });
}

/**
 * A failed attempt: queued again at `retryAt` while attempts remain, else failed for good
 * (the key is released, so the next poll may queue a fresh job).
 */
export function failJob(id: number, error: string, retryAt: number | null): JobStatus {
  const now = toDbTime(new Date());
  const row = rawDb()
    .prepare(
      `UPDATE job SET
         status = CASE WHEN @retryAt IS NOT NULL AND attempts < maxAttempts THEN 'queued' ELSE 'failed' END,
         activeKey = CASE WHEN @retryAt IS NOT NULL AND attempts < maxAttempts THEN activeKey ELSE NULL END,
         runAt = COALESCE(@retryAt, runAt),
         leaseUntil = NULL, lastError = @error, updatedAt = @now
       WHERE id = @id RETURNING status`,
    )
    .get({ id, error: error.slice(0, 500), retryAt: retryAt === null ? null : toDbTime(retryAt), now }) as { status: JobStatus } | undefined;
  return row?.status ?? "failed";
}

/** Put back without counting the attempt (a rate-limit pause or a paused account). */
export function postponeJob(id: number, runAt: number, note?: string): void {
  rawDb()
    .prepare(
      `UPDATE job SET status = 'queued', runAt = ?, leaseUntil = NULL, attempts = MAX(0, attempts - 1), lastError = COALESCE(?, lastError), updatedAt = ? WHERE id = ?`,
    )
    .run(toDbTime(runAt), note ?? null, toDbTime(new Date()), id);
}

/** Jobs not yet finished for a person (queued or running). */
export function listActiveJobs(userId?: string): JobRow[] {
  const db = rawDb();
  return (
    userId === undefined
      ? db.prepare(`SELECT * FROM job WHERE status IN ('queued','running') ORDER BY runAt`).all()
      : db.prepare(`SELECT * FROM job WHERE status IN ('queued','running') AND userId = ? ORDER BY runAt`).all(userId)
  ) as JobRow[];
}

/** The most recent failed job of a person per collection and kind (shown on the sync page). */
export function listRecentFailedJobs(userId: string, limit = 20): JobRow[] {
  return rawDb()
    .prepare(`SELECT * FROM job WHERE status = 'failed' AND userId = ? ORDER BY updatedAt DESC LIMIT ?`)
    .all(userId, limit) as JobRow[];
}

/** Cancels a person's queued jobs (disconnect, data family switch). Running ones finish. */
export function cancelQueuedJobs(userId: string | null): number {
  const db = rawDb();
  const now = toDbTime(new Date());
  const info =
    userId === null
      ? db.prepare(`UPDATE job SET status = 'failed', activeKey = NULL, lastError = 'cancelled', updatedAt = ? WHERE status = 'queued' AND userId IS NOT NULL`).run(now)
      : db.prepare(`UPDATE job SET status = 'failed', activeKey = NULL, lastError = 'cancelled', updatedAt = ? WHERE status = 'queued' AND userId = ?`).run(now, userId);
  return info.changes;
}

/** Deletes finished jobs older than `before` (the table would grow forever otherwise). */
export function pruneFinishedJobs(before: number): number {
  return rawDb().prepare(`DELETE FROM job WHERE status IN ('done','failed') AND updatedAt < ?`).run(toDbTime(before)).changes;
}

/**
 * At scheduler start nothing of this process is running yet: jobs still marked running were
 * interrupted by a restart and are taken again at once (not only when their lease ends).
 */
export function recoverInterruptedJobs(): number {
  return rawDb()
    .prepare(`UPDATE job SET status = 'queued', leaseUntil = NULL, updatedAt = ? WHERE status = 'running'`)
    .run(toDbTime(new Date())).changes;
}
