import "server-only";
import { clock } from "@/lib/clock";
import { dbProvider, prisma, type Db, type ProcessDb } from "@/lib/db/prisma";
import type { Prisma } from "@/lib/generated/prisma/client";
import { processSingleton } from "@/lib/process-singleton";
import { readSyncGeneration, syncGenerationHolds } from "@/lib/db/queries/sync-fence";

// The durable job table behind the scheduler (lib/sync/scheduler.ts). Claiming must be atomic
// and cheap enough to run every second: on SQLite a claim is one IMMEDIATE transaction (one
// writer at a time), on PostgreSQL one transaction that locks the rows it takes with
// FOR UPDATE SKIP LOCKED (several processes claim side by side and a job runs once). Every
// read-decide-write of one job (enqueue, complete, fail, postpone) is a transaction that locks
// the job's row first on PostgreSQL, so that, say, a job asked for again while it finishes is
// neither lost nor run twice. One contract (`JobStore`), one implementation on Prisma Client,
// held to the same tests on both databases (lib/db/queries/jobs.test.ts).

export type JobKind = "backfill" | "incremental" | "personal_info" | "subscriptions";
export type JobStatus = "queued" | "running" | "done" | "failed";

/** A stored job (its kind a JobKind, its status a JobStatus, as written below). */
export type JobRow = Prisma.JobModel;

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

/** What a job's payload says (JSON text): `again` marks a job asked for again while it ran. */
function readPayload(payload: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(payload);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? { ...value } : {};
  } catch {
    return {};
  }
}

const due = (now: Date): Prisma.JobWhereInput => ({
  OR: [
    { status: "queued", runAt: { lte: now } },
    { status: "running", leaseUntil: { lt: now } },
  ],
});

/** Locks a job's row for the caller's transaction on PostgreSQL (SQLite: the IMMEDIATE transaction is the lock). */
async function lockJob(tx: Db, id: number): Promise<void> {
  if (dbProvider(tx) === "postgresql") await tx.$queryRaw<Array<Pick<JobRow, "id">>>`SELECT id FROM job WHERE id = ${id} FOR UPDATE`;
}

/**
 * Orders the enqueues of one key on PostgreSQL, the key's job row or none yet: an advisory lock
 * on the key, then the row's lock (what complete and fail take).
 */
async function lockActiveKey(tx: Db, activeKey: string): Promise<void> {
  if (dbProvider(tx) !== "postgresql") return;
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${activeKey}))`;
  await tx.$queryRaw<Array<Pick<JobRow, "id">>>`SELECT id FROM job WHERE "activeKey" = ${activeKey} FOR UPDATE`;
}

/** The ids of up to `limit` due jobs, oldest first, locked for the caller's transaction (PostgreSQL: others' locked rows skipped). */
async function dueIds(tx: Db, opts: ClaimOptions, now: Date): Promise<number[]> {
  const exclude = opts.excludeIds ?? [];
  if (dbProvider(tx) === "postgresql") {
    const rows = await tx.$queryRaw<Array<Pick<JobRow, "id">>>`
      SELECT id FROM job
       WHERE ((status = 'queued' AND "runAt" <= ${now}) OR (status = 'running' AND "leaseUntil" < ${now})) AND NOT (id = ANY(${exclude}::int[]))
       ORDER BY "runAt", id LIMIT ${opts.limit} FOR UPDATE SKIP LOCKED`;
    return rows.map((r) => r.id);
  }
  const rows = await tx.job.findMany({
    where: { ...due(now), id: { notIn: exclude } },
    select: { id: true },
    orderBy: [{ runAt: "asc" }, { id: "asc" }],
    take: opts.limit,
  });
  return rows.map((r) => r.id);
}

/** The job table on a database (by default the process's). */
export function jobStore(db: ProcessDb = prisma()): JobStore {
  return {
    async enqueue(opts) {
      const now = clock.date();
      const runAt = new Date(opts.runAt ?? now);
      const activeKey = opts.activeKey ?? jobActiveKey(opts.kind, opts.userId, opts.collection);
      const { userId, generation } = opts;
      // if absent: a read first, and with an active job of the key nothing to write (the scheduler
      // asks for its jobs every housekeeping pass, for every person). The answer is the
      // transaction's (whether the generation still holds: a plain read of it); the transaction
      // below reads the key again under its locks, for a job that finished or was queued meanwhile.
      if (opts.ifAbsent && (await db.job.findUnique({ where: { activeKey }, select: { id: true } })))
        return generation === undefined || !userId || (await readSyncGeneration(userId, db))?.generation === generation;
      return db.$transaction(async (tx) => {
        // the fence first (the person's row, then the job's: a delete takes them in that order)
        if (generation !== undefined && userId && !(await syncGenerationHolds(tx, userId, generation))) return false;
        await lockActiveKey(tx, activeKey);
        const active = await tx.job.findUnique({ where: { activeKey }, select: { id: true, status: true, runAt: true, payload: true } });
        if (!active) {
          await tx.job.create({
            data: {
              kind: opts.kind,
              userId: opts.userId ?? null,
              collection: opts.collection ?? null,
              payload: JSON.stringify(opts.payload ?? {}),
              status: "queued",
              runAt,
              attempts: 0,
              maxAttempts: opts.maxAttempts ?? 8,
              activeKey,
              createdAt: now,
              updatedAt: now,
            },
            select: { id: true },
          });
          return true;
        }
        if (opts.ifAbsent) return true;
        // queued: the earlier run time wins; running: run once more when it finishes
        await tx.job.update({
          where: { id: active.id },
          data: {
            runAt: active.status === "queued" && runAt < active.runAt ? runAt : undefined,
            payload: active.status === "running" ? JSON.stringify({ ...readPayload(active.payload), again: true }) : undefined,
            updatedAt: now,
          },
          select: { id: true },
        });
        return true;
      });
    },

    async claimDue(opts) {
      const now = new Date(opts.now);
      // SQLite: most looks find nothing due, and then no write lock is taken
      if (dbProvider(db) === "sqlite" && !(await db.job.findFirst({ where: due(now), select: { id: true } }))) return [];
      return db.$transaction(async (tx) => {
        const ids = await dueIds(tx, opts, now);
        if (ids.length === 0) return [];
        await tx.job.updateMany({
          where: { id: { in: ids } },
          data: { status: "running", leaseUntil: new Date(opts.now + opts.leaseMs), attempts: { increment: 1 }, updatedAt: now },
        });
        return tx.job.findMany({ where: { id: { in: ids } }, orderBy: [{ runAt: "asc" }, { id: "asc" }] });
      });
    },

    async nextDueAt() {
      const [queued, running] = await Promise.all([
        db.job.aggregate({ where: { status: "queued" }, _min: { runAt: true } }),
        db.job.aggregate({ where: { status: "running" }, _min: { leaseUntil: true } }),
      ]);
      const times = [queued._min.runAt, running._min.leaseUntil].filter((t) => t !== null);
      return times.length === 0 ? null : new Date(Math.min(...times.map((t) => t.getTime())));
    },

    async renewLease(id, until) {
      await db.job.updateMany({ where: { id, status: "running" }, data: { leaseUntil: new Date(until), updatedAt: clock.date() } });
    },

    async complete(id) {
      const now = clock.date();
      await db.$transaction(async (tx) => {
        await lockJob(tx, id);
        const job = await tx.job.findUnique({ where: { id }, select: { payload: true } });
        if (!job) return;
        const { again, ...payload } = readPayload(job.payload);
        const finished = { payload: JSON.stringify(payload), leaseUntil: null, lastError: null, updatedAt: now };
        await tx.job.update({
          where: { id },
          data: again === true ? { ...finished, status: "queued", attempts: 0, runAt: now } : { ...finished, status: "done", activeKey: null },
          select: { id: true },
        });
      });
    },

    async fail(id, error, retryAt) {
      return db.$transaction(async (tx): Promise<JobStatus> => {
        await lockJob(tx, id);
        const job = await tx.job.findUnique({ where: { id }, select: { attempts: true, maxAttempts: true } });
        if (!job) return "failed";
        const retry = retryAt !== null && job.attempts < job.maxAttempts;
        const common = { leaseUntil: null, lastError: error.slice(0, 500), updatedAt: clock.date() };
        await tx.job.update({
          where: { id },
          data: retry
            ? { ...common, status: "queued", runAt: new Date(retryAt) }
            : { ...common, status: "failed", activeKey: null, runAt: retryAt === null ? undefined : new Date(retryAt) },
          select: { id: true },
        });
        return retry ? "queued" : "failed";
      });
    },

    async postpone(id, runAt, note) {
      await db.$transaction(async (tx) => {
        await lockJob(tx, id);
        const job = await tx.job.findUnique({ where: { id }, select: { attempts: true } });
        if (!job) return;
        await tx.job.update({
          where: { id },
          data: {
            status: "queued",
            runAt: new Date(runAt),
            leaseUntil: null,
            attempts: Math.max(0, job.attempts - 1),
            lastError: note ?? undefined,
            updatedAt: clock.date(),
          },
          select: { id: true },
        });
      });
    },

    listActive(userId) {
      return db.job.findMany({ where: { status: { in: ["queued", "running"] }, userId }, orderBy: [{ runAt: "asc" }, { id: "asc" }] });
    },

    listRecentFailed(userId, limit = 20) {
      return db.job.findMany({ where: { status: "failed", userId }, orderBy: [{ updatedAt: "desc" }, { id: "desc" }], take: limit });
    },

    async cancelQueued(userId) {
      const { count } = await db.job.updateMany({
        where: { status: "queued", userId: userId ?? { not: null } },
        data: { status: "failed", activeKey: null, lastError: "cancelled", updatedAt: clock.date() },
      });
      return count;
    },

    async pruneFinished(before) {
      return (await db.job.deleteMany({ where: { status: { in: ["done", "failed"] }, updatedAt: { lt: new Date(before) } } })).count;
    },

    async recoverInterrupted(now) {
      // SQLite: one scheduler per file, so every job still marked running was this process's.
      // PostgreSQL: other processes' jobs are running too; only those whose lease ran out are this one's.
      const expired = dbProvider(db) === "postgresql" ? { leaseUntil: { lt: new Date(now) } } : {};
      const { count } = await db.job.updateMany({
        where: { status: "running", ...expired },
        data: { status: "queued", leaseUntil: null, updatedAt: clock.date() },
      });
      return count;
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

/**
 * The due times of the queued backfill jobs (anyone's, due by `now`) whose collection's recent days
 * are not stored yet (newest first: its sync state, not done, has no history range yet), for
 * lib/sync/plan.ts historyRunAt. Those collections are read first, and are few once a backfill's
 * recent days are stored, so the jobs read are few too.
 */
export async function dueRecentPasses(now: number): Promise<number[]> {
  const pending = await prisma().syncState.findMany({
    where: { backfillDoneAt: null, OR: [{ backfillFrom: null }, { backfillTo: null }] },
    select: { userId: true, collection: true },
  });
  if (pending.length === 0) return [];
  const key = (userId: string, collection: string) => `${userId}\u0000${collection}`;
  const waiting = new Set(pending.map((s) => key(s.userId, s.collection)));
  const queued = await prisma().job.findMany({
    where: {
      status: "queued",
      kind: "backfill",
      runAt: { lte: new Date(now) },
      userId: { in: [...new Set(pending.map((s) => s.userId))] },
      collection: { in: [...new Set(pending.map((s) => s.collection))] },
    },
    select: { userId: true, collection: true, runAt: true },
  });
  return queued.flatMap((j) => (j.userId !== null && j.collection !== null && waiting.has(key(j.userId, j.collection)) ? [j.runAt.getTime()] : []));
}

export const cancelQueuedJobs = (userId: string | null) => store().cancelQueued(userId);
export const pruneFinishedJobs = (before: number) => store().pruneFinished(before);
export const recoverInterruptedJobs = (now = clock.now()) => store().recoverInterrupted(now);
