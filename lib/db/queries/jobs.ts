import "server-only";
import { clock } from "@/lib/clock";
import type Database from "better-sqlite3";
import { rawDb } from "@/lib/db";
import { postgresJobStore } from "@/lib/db/queries/jobs-postgres";
import { dialect, postgresPool } from "@/lib/db/sql";
import { fromDbTime, toDbTime } from "@/lib/db/dialect";
import { processSingleton } from "@/lib/process-singleton";

// The durable job table behind the scheduler (lib/sync/scheduler.ts). Raw SQL on purpose:
// claiming must be atomic and cheap enough to run every second. One contract (`JobStore`),
// one implementation per database: SQLite's below (a claim is one IMMEDIATE transaction, so
// one writer at a time), PostgreSQL's in jobs-postgres.ts (a claim locks rows with
// FOR UPDATE SKIP LOCKED, so several processes claim side by side and a job runs once).
// lib/db/queries/jobs.test.ts holds both to the same tests. Times are stored the way Prisma
// writes DateTime (lib/db/dialect.ts toDbTime) and come back in that text form from both.

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

export type ClaimOptions = { now: number; leaseMs: number; limit: number; excludeIds?: number[] };

/** The job table's operations; every database implements all of them the same way. */
export interface JobStore {
  /**
   * Queues a job, or folds it into the active one with the same key: a queued job keeps the
   * earlier run time; a running job is marked to run once more when it finishes.
   */
  enqueue(opts: EnqueueJobOptions): Promise<void>;
  /**
   * Takes up to `limit` due jobs: queued ones whose time has come, and running ones whose
   * lease expired (their process died). Each taken job gets a lease and one more attempt.
   * Oldest due first.
   */
  claimDue(opts: ClaimOptions): Promise<JobRow[]>;
  /** The earliest time a queued job is due (or a running lease runs out), if any. */
  nextDueAt(): Promise<Date | null>;
  renewLease(id: number, until: number): Promise<void>;
  /** Finished: done, unless it was asked to run again while running. */
  complete(id: number): Promise<void>;
  /**
   * A failed attempt: queued again at `retryAt` while attempts remain, else failed for good
   * (the key is released, so the next poll may queue a fresh job).
   */
  fail(id: number, error: string, retryAt: number | null): Promise<JobStatus>;
  /** Put back without counting the attempt (a rate-limit pause or a paused account). */
  postpone(id: number, runAt: number, note?: string): Promise<void>;
  /** Jobs not yet finished (of a person, or of everyone), oldest run time first. */
  listActive(userId?: string): Promise<JobRow[]>;
  /** A person's most recently failed jobs, newest first. */
  listRecentFailed(userId: string, limit?: number): Promise<JobRow[]>;
  /** Cancels queued jobs (of a person, or of every person). Running ones finish. */
  cancelQueued(userId: string | null): Promise<number>;
  /** Deletes finished jobs last changed before `before`. */
  pruneFinished(before: number): Promise<number>;
  /**
   * At scheduler start: queues again, to run at once, the jobs a previous life of this process
   * left running. SQLite has one scheduler per file, so that is every running job; PostgreSQL
   * is shared by several processes, so only those whose lease ran out before `now` (a running
   * job's lease is renewed while its process lives).
   */
  recoverInterrupted(now: number): Promise<number>;
}

export function jobActiveKey(kind: string, userId?: string | null, collection?: string | null): string {
  return `${kind}:${userId ?? "-"}:${collection ?? "-"}`;
}

/** The parameters of an enqueue, resolved the same way for every database. */
export function enqueueValues(opts: EnqueueJobOptions) {
  const now = toDbTime(clock.date());
  return {
    kind: opts.kind,
    userId: opts.userId ?? null,
    collection: opts.collection ?? null,
    payload: JSON.stringify(opts.payload ?? {}),
    runAt: toDbTime(opts.runAt ?? clock.date()),
    maxAttempts: opts.maxAttempts ?? 8,
    activeKey: opts.activeKey ?? jobActiveKey(opts.kind, opts.userId, opts.collection),
    now,
  };
}

/** SQLite: prepared statements on the hot paths' connection (`rawDb()`). */
export function sqliteJobStore(open: () => Database.Database = rawDb): JobStore {
  const insert = `INSERT INTO job (kind, userId, collection, payload, status, runAt, attempts, maxAttempts, activeKey, createdAt, updatedAt)
       VALUES (@kind, @userId, @collection, @payload, 'queued', @runAt, 0, @maxAttempts, @activeKey, @now, @now)`;
  const enqueueSql = (ifAbsent: boolean) =>
    ifAbsent
      ? `${insert} ON CONFLICT(activeKey) DO NOTHING`
      : `${insert}
       ON CONFLICT(activeKey) DO UPDATE SET
         runAt = CASE WHEN job.status = 'queued' AND excluded.runAt < job.runAt THEN excluded.runAt ELSE job.runAt END,
         payload = CASE WHEN job.status = 'running' THEN json_set(job.payload, '$.again', json('true')) ELSE job.payload END,
         updatedAt = excluded.updatedAt`;

  function claimDue(opts: ClaimOptions): JobRow[] {
    const db = open();
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

  return {
    async enqueue(opts) {
      open().prepare(enqueueSql(Boolean(opts.ifAbsent))).run(enqueueValues(opts));
    },

    async claimDue(opts) {
      return claimDue(opts);
    },

    async nextDueAt() {
      const row = open()
        .prepare(
          `SELECT MIN(t) AS t FROM (
         SELECT MIN(runAt) AS t FROM job WHERE status = 'queued'
         UNION ALL SELECT MIN(leaseUntil) FROM job WHERE status = 'running')`,
        )
        .get() as { t: string | null };
      return fromDbTime(row.t);
    },

    async renewLease(id, until) {
      open().prepare(`UPDATE job SET leaseUntil = ?, updatedAt = ? WHERE id = ? AND status = 'running'`).run(toDbTime(until), toDbTime(clock.date()), id);
    },

    async complete(id) {
      const now = toDbTime(clock.date());
      open()
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
    },

    async fail(id, error, retryAt) {
      const now = toDbTime(clock.date());
      const row = open()
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
    },

    async postpone(id, runAt, note) {
      open()
        .prepare(
          `UPDATE job SET status = 'queued', runAt = ?, leaseUntil = NULL, attempts = MAX(0, attempts - 1), lastError = COALESCE(?, lastError), updatedAt = ? WHERE id = ?`,
        )
        .run(toDbTime(runAt), note ?? null, toDbTime(clock.date()), id);
    },

    async listActive(userId) {
      const db = open();
      return (
        userId === undefined
          ? db.prepare(`SELECT * FROM job WHERE status IN ('queued','running') ORDER BY runAt, id`).all()
          : db.prepare(`SELECT * FROM job WHERE status IN ('queued','running') AND userId = ? ORDER BY runAt, id`).all(userId)
      ) as JobRow[];
    },

    async listRecentFailed(userId, limit = 20) {
      return open().prepare(`SELECT * FROM job WHERE status = 'failed' AND userId = ? ORDER BY updatedAt DESC, id DESC LIMIT ?`).all(userId, limit) as JobRow[];
    },

    async cancelQueued(userId) {
      const db = open();
      const now = toDbTime(clock.date());
      const info =
        userId === null
          ? db.prepare(`UPDATE job SET status = 'failed', activeKey = NULL, lastError = 'cancelled', updatedAt = ? WHERE status = 'queued' AND userId IS NOT NULL`).run(now)
          : db.prepare(`UPDATE job SET status = 'failed', activeKey = NULL, lastError = 'cancelled', updatedAt = ? WHERE status = 'queued' AND userId = ?`).run(now, userId);
      return info.changes;
    },

    async pruneFinished(before) {
      return open().prepare(`DELETE FROM job WHERE status IN ('done','failed') AND updatedAt < ?`).run(toDbTime(before)).changes;
    },

    async recoverInterrupted() {
      // One scheduler per SQLite file: every job still marked running was this process's.
      return open()
        .prepare(`UPDATE job SET status = 'queued', leaseUntil = NULL, updatedAt = ? WHERE status = 'running'`)
        .run(toDbTime(clock.date())).changes;
    },
  };
}

// ---------------------------------------------------------------------------
// The process's job table (on the database the process runs on: SQLite here, PostgreSQL in jobs-postgres.ts)
// ---------------------------------------------------------------------------

const store = (): JobStore => processSingleton("jobStore", () => (dialect() === "postgres" ? postgresJobStore(postgresPool()) : sqliteJobStore()));

export const enqueueJob = (opts: EnqueueJobOptions) => store().enqueue(opts);
export const claimDueJobs = (opts: ClaimOptions) => store().claimDue(opts);
export const nextJobDueAt = () => store().nextDueAt();
export const renewJobLease = (id: number, until: number) => store().renewLease(id, until);
export const completeJob = (id: number) => store().complete(id);
export const failJob = (id: number, error: string, retryAt: number | null) => store().fail(id, error, retryAt);
export const postponeJob = (id: number, runAt: number, note?: string) => store().postpone(id, runAt, note);
export const listActiveJobs = (userId?: string) => store().listActive(userId);

export const cancelQueuedJobs = (userId: string | null) => store().cancelQueued(userId);
export const pruneFinishedJobs = (before: number) => store().pruneFinished(before);
export const recoverInterruptedJobs = (now = clock.now()) => store().recoverInterrupted(now);
