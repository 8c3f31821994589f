import "server-only";
import { clock } from "@/lib/clock";
import { all, get, processDatabase, run, type Database, type Dialect, type Work } from "@/lib/db/sql";
import { fromDbTime, toDbTime } from "@/lib/db/dialect";
import { processSingleton } from "@/lib/process-singleton";
import { syncGenerationHolds } from "@/lib/db/queries/sync-fence";

// The durable job table behind the scheduler (lib/sync/scheduler.ts). Claiming must be atomic
// and cheap enough to run every second: on SQLite a claim is one IMMEDIATE transaction (one
// writer at a time), on PostgreSQL one statement that locks rows with FOR UPDATE SKIP LOCKED
// (several processes claim side by side and a job runs once). One contract (`JobStore`), one
// implementation on lib/db/sql.ts, held to the same tests on both databases
// (lib/db/queries/jobs.test.ts). Times are stored as lib/db/dialect.ts toDbTime writes them and
// come back in that text form from both.

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
  /**
   * queue only while the person's sync generation is still this one (read before deciding to
   * queue): a job a delete has overtaken is not queued (lib/db/queries/sync-fence.ts)
   */
  generation?: number;
};

export type ClaimOptions = { now: number; leaseMs: number; limit: number; excludeIds?: number[] };

/** The job table's operations; every database implements all of them the same way. */
export interface JobStore {
  /**
   * Queues a job, or folds it into the active one with the same key: a queued job keeps the
   * earlier run time; a running job is marked to run once more when it finishes. False when
   * `generation` no longer holds (nothing queued).
   */
  enqueue(opts: EnqueueJobOptions): Promise<boolean>;
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

const again = (d: Dialect) => (d === "postgres" ? `COALESCE((payload::jsonb ->> 'again')::boolean, false)` : `json_extract(payload, '$.again')`);
const byDue = (a: JobRow, b: JobRow) => (a.runAt < b.runAt ? -1 : a.runAt > b.runAt ? 1 : a.id - b.id);

const INSERT = `INSERT INTO job (kind, userId, collection, payload, status, runAt, attempts, maxAttempts, activeKey, createdAt, updatedAt)
  VALUES (?, ?, ?, ?, 'queued', ?, 0, ?, ?, ?, ?)`;

/** An enqueue's statement: insert, or fold into the active job with the same key. */
function enqueueSql(d: Dialect, ifAbsent: boolean): string {
  if (ifAbsent) return `${INSERT} ON CONFLICT(activeKey) DO NOTHING`;
  const runAgain = d === "postgres" ? `(job.payload::jsonb || '{"again": true}'::jsonb)::text` : `json_set(job.payload, '$.again', json('true'))`;
  return `${INSERT}
    ON CONFLICT(activeKey) DO UPDATE SET
      runAt = CASE WHEN job.status = 'queued' AND excluded.runAt < job.runAt THEN excluded.runAt ELSE job.runAt END,
      payload = CASE WHEN job.status = 'running' THEN ${runAgain} ELSE job.payload END,
      updatedAt = excluded.updatedAt`;
}

const DUE = `(status = 'queued' AND runAt <= ?) OR (status = 'running' AND leaseUntil < ?)`;

/**
 * Takes up to `limit` due jobs. SQLite: a cheap read first (most looks find nothing due, and no
 * write lock is taken then), then the ids and their claims in one IMMEDIATE transaction (one
 * writer at a time). PostgreSQL: one statement that locks the rows it takes with
 * FOR UPDATE SKIP LOCKED, so processes claiming at the same moment take different jobs and
 * neither waits for the other.
 */
async function claimDue(db: Database, opts: ClaimOptions): Promise<JobRow[]> {
  const now = toDbTime(opts.now);
  const lease = toDbTime(opts.now + opts.leaseMs);
  const exclude = opts.excludeIds ?? [];
  if (db.dialect === "postgres") {
    const claimed = await db.query(
      all<JobRow>(
        `UPDATE job SET status = 'running', leaseUntil = ?, attempts = attempts + 1, updatedAt = ?
          WHERE id IN (
            SELECT id FROM job WHERE (${DUE}) AND NOT (id = ANY(CAST(? AS int[])))
             ORDER BY runAt, id LIMIT ? FOR UPDATE SKIP LOCKED)
          RETURNING *`,
        lease,
        now,
        now,
        now,
        exclude,
        opts.limit,
      ),
    );
    return claimed.sort(byDue);
  }
  if (!(await db.query(get(`SELECT 1 FROM job WHERE ${DUE} LIMIT 1`, now, now)))) return [];
  return db.transaction(function* () {
    const ids = yield* all<{ id: number }>(
      `SELECT id FROM job WHERE (${DUE}) AND id NOT IN (SELECT value FROM json_each(?)) ORDER BY runAt, id LIMIT ?`,
      now,
      now,
      JSON.stringify(exclude),
      opts.limit,
    );
    const claimed: JobRow[] = [];
    for (const { id } of ids) {
      const row = yield* get<JobRow>(
        `UPDATE job SET status = 'running', leaseUntil = ?, attempts = attempts + 1, updatedAt = ? WHERE id = ? RETURNING *`,
        lease,
        now,
        id,
      );
      if (row) claimed.push(row);
    }
    return claimed;
  });
}

/**
 * The job table on a database (by default the process's). Statements are written once; where
 * the two databases differ (JSON, locking, which running jobs a restart takes up) the choice
 * is made here by the database's dialect.
 */
export function jobStore(db: Database = processDatabase()): JobStore {
  const q = <T>(work: Work<T>) => db.query(work);
  const nowText = () => toDbTime(clock.date());
  return {
    async enqueue(opts) {
      const v = enqueueValues(opts);
      const insert = () =>
        run(enqueueSql(db.dialect, Boolean(opts.ifAbsent)), v.kind, v.userId, v.collection, v.payload, v.runAt, v.maxAttempts, v.activeKey, v.now, v.now);
      const { userId, generation } = opts;
      if (generation === undefined || !userId) {
        await q(insert());
        return true;
      }
      return db.transaction(function* () {
        if (!(yield* syncGenerationHolds(userId, generation))) return false;
        yield* insert();
        return true;
      });
    },

    claimDue: (opts) => claimDue(db, opts),

    async nextDueAt() {
      const row = await q(
        get<{ t: string | null }>(
          `SELECT MIN(t) AS t FROM (
             SELECT MIN(runAt) AS t FROM job WHERE status = 'queued'
             UNION ALL SELECT MIN(leaseUntil) FROM job WHERE status = 'running') AS due`,
        ),
      );
      return fromDbTime(row?.t ?? null);
    },

    async renewLease(id, until) {
      await q(run(`UPDATE job SET leaseUntil = ?, updatedAt = ? WHERE id = ? AND status = 'running'`, toDbTime(until), nowText(), id));
    },

    async complete(id) {
      const now = nowText();
      const a = again(db.dialect);
      const dropAgain = db.dialect === "postgres" ? `(payload::jsonb - 'again')::text` : `json_remove(payload, '$.again')`;
      await q(
        run(
          `UPDATE job SET
             status = CASE WHEN ${a} THEN 'queued' ELSE 'done' END,
             activeKey = CASE WHEN ${a} THEN activeKey ELSE NULL END,
             attempts = CASE WHEN ${a} THEN 0 ELSE attempts END,
             runAt = CASE WHEN ${a} THEN ? ELSE runAt END,
             payload = ${dropAgain},
             leaseUntil = NULL, lastError = NULL, updatedAt = ?
           WHERE id = ?`,
          now,
          now,
          id,
        ),
      );
    },

    async fail(id, error, retryAt) {
      const at = db.dialect === "postgres" ? "CAST(? AS timestamp(3))" : "?";
      const retry = retryAt === null ? null : toDbTime(retryAt);
      const row = await q(
        get<{ status: JobStatus }>(
          `UPDATE job SET
             status = CASE WHEN ${at} IS NOT NULL AND attempts < maxAttempts THEN 'queued' ELSE 'failed' END,
             activeKey = CASE WHEN ${at} IS NOT NULL AND attempts < maxAttempts THEN activeKey ELSE NULL END,
             runAt = COALESCE(${at}, runAt),
             leaseUntil = NULL, lastError = ?, updatedAt = ?
           WHERE id = ? RETURNING status`,
          retry,
          retry,
          retry,
          error.slice(0, 500),
          nowText(),
          id,
        ),
      );
      return row?.status ?? "failed";
    },

    async postpone(id, runAt, note) {
      const atLeastZero = db.dialect === "postgres" ? "GREATEST(0, attempts - 1)" : "MAX(0, attempts - 1)";
      await q(
        run(
          `UPDATE job SET status = 'queued', runAt = ?, leaseUntil = NULL, attempts = ${atLeastZero}, lastError = COALESCE(?, lastError), updatedAt = ?
           WHERE id = ?`,
          toDbTime(runAt),
          note ?? null,
          nowText(),
          id,
        ),
      );
    },

    listActive(userId) {
      return userId === undefined
        ? q(all<JobRow>(`SELECT * FROM job WHERE status IN ('queued','running') ORDER BY runAt, id`))
        : q(all<JobRow>(`SELECT * FROM job WHERE status IN ('queued','running') AND userId = ? ORDER BY runAt, id`, userId));
    },

    listRecentFailed(userId, limit = 20) {
      return q(all<JobRow>(`SELECT * FROM job WHERE status = 'failed' AND userId = ? ORDER BY updatedAt DESC, id DESC LIMIT ?`, userId, limit));
    },

    cancelQueued(userId) {
      const set = `UPDATE job SET status = 'failed', activeKey = NULL, lastError = 'cancelled', updatedAt = ? WHERE status = 'queued'`;
      return userId === null ? q(run(`${set} AND userId IS NOT NULL`, nowText())) : q(run(`${set} AND userId = ?`, nowText(), userId));
    },

    pruneFinished(before) {
      return q(run(`DELETE FROM job WHERE status IN ('done','failed') AND updatedAt < ?`, toDbTime(before)));
    },

    recoverInterrupted(now) {
      // SQLite: one scheduler per file, so every job still marked running was this process's.
      // PostgreSQL: other processes' jobs are running too; only those whose lease ran out are this one's.
      return db.dialect === "postgres"
        ? q(run(`UPDATE job SET status = 'queued', leaseUntil = NULL, updatedAt = ? WHERE status = 'running' AND leaseUntil < ?`, nowText(), toDbTime(now)))
        : q(run(`UPDATE job SET status = 'queued', leaseUntil = NULL, updatedAt = ? WHERE status = 'running'`, nowText()));
    },
  };
}

// ---------------------------------------------------------------------------
// The process's job table
// ---------------------------------------------------------------------------

const store = (): JobStore => processSingleton("jobStore", () => jobStore());

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
