import "server-only";
import { clock } from "@/lib/clock";
import type pg from "pg";
import { fromDbTime, toDbTime } from "@/lib/db/dialect";
import { enqueueValues, type JobRow, type JobStatus, type JobStore } from "@/lib/db/queries/jobs";

// The job table on PostgreSQL (the contract and SQLite's form are in jobs.ts). Several
// processes share it: a claim is one statement that locks the rows it takes with
// FOR UPDATE SKIP LOCKED, so two processes claiming at the same moment take different jobs
// and neither waits for the other. Columns are camelCase, so they are quoted.

const again = `COALESCE((payload::jsonb ->> 'again')::boolean, false)`;
const byDue = (a: JobRow, b: JobRow) => (a.runAt < b.runAt ? -1 : a.runAt > b.runAt ? 1 : a.id - b.id);

export function postgresJobStore(pool: pg.Pool): JobStore {
  const rows = async <T extends pg.QueryResultRow>(sql: string, params: unknown[] = []) => (await pool.query<T>(sql, params)).rows;
  const count = async (sql: string, params: unknown[] = []) => (await pool.query(sql, params)).rowCount ?? 0;
  const nowText = () => toDbTime(clock.date());

  return {
    async enqueue(opts) {
      const v = enqueueValues(opts);
      const insert = `INSERT INTO job (kind, "userId", collection, payload, status, "runAt", attempts, "maxAttempts", "activeKey", "createdAt", "updatedAt")
        VALUES ($1, $2, $3, $4, 'queued', $5, 0, $6, $7, $8, $8)`;
      await pool.query(
        opts.ifAbsent
          ? `${insert} ON CONFLICT ("activeKey") DO NOTHING`
          : `${insert}
        ON CONFLICT ("activeKey") DO UPDATE SET
          "runAt" = CASE WHEN job.status = 'queued' AND excluded."runAt" < job."runAt" THEN excluded."runAt" ELSE job."runAt" END,
          payload = CASE WHEN job.status = 'running' THEN (job.payload::jsonb || '{"again": true}'::jsonb)::text ELSE job.payload END,
          "updatedAt" = excluded."updatedAt"`,
        [v.kind, v.userId, v.collection, v.payload, v.runAt, v.maxAttempts, v.activeKey, v.now],
      );
    },

    async claimDue(opts) {
      const now = toDbTime(opts.now);
      const claimed = await rows<JobRow>(
        `UPDATE job SET status = 'running', "leaseUntil" = $2, attempts = attempts + 1, "updatedAt" = $1
          WHERE id IN (
            SELECT id FROM job
             WHERE ((status = 'queued' AND "runAt" <= $1) OR (status = 'running' AND "leaseUntil" < $1))
               AND NOT (id = ANY($3::int[]))
             ORDER BY "runAt", id LIMIT $4
               FOR UPDATE SKIP LOCKED)
          RETURNING *`,
        [now, toDbTime(opts.now + opts.leaseMs), opts.excludeIds ?? [], opts.limit],
      );
      return claimed.sort(byDue);
    },

    async nextDueAt() {
      const [row] = await rows<{ t: string | null }>(
        `SELECT MIN(t) AS t FROM (
           SELECT MIN("runAt") AS t FROM job WHERE status = 'queued'
           UNION ALL SELECT MIN("leaseUntil") FROM job WHERE status = 'running') AS due`,
      );
      return fromDbTime(row?.t ?? null);
    },

    async renewLease(id, until) {
      await pool.query(`UPDATE job SET "leaseUntil" = $2, "updatedAt" = $3 WHERE id = $1 AND status = 'running'`, [id, toDbTime(until), nowText()]);
    },

    async complete(id) {
      await pool.query(
        `UPDATE job SET
           status = CASE WHEN ${again} THEN 'queued' ELSE 'done' END,
           "activeKey" = CASE WHEN ${again} THEN "activeKey" ELSE NULL END,
           attempts = CASE WHEN ${again} THEN 0 ELSE attempts END,
           "runAt" = CASE WHEN ${again} THEN $2 ELSE "runAt" END,
           payload = (payload::jsonb - 'again')::text,
           "leaseUntil" = NULL, "lastError" = NULL, "updatedAt" = $2
         WHERE id = $1`,
        [id, nowText()],
      );
    },

    async fail(id, error, retryAt) {
      const [row] = await rows<{ status: JobStatus }>(
        `UPDATE job SET
           status = CASE WHEN $2::timestamp(3) IS NOT NULL AND attempts < "maxAttempts" THEN 'queued' ELSE 'failed' END,
           "activeKey" = CASE WHEN $2::timestamp(3) IS NOT NULL AND attempts < "maxAttempts" THEN "activeKey" ELSE NULL END,
           "runAt" = COALESCE($2::timestamp(3), "runAt"),
           "leaseUntil" = NULL, "lastError" = $3, "updatedAt" = $4
         WHERE id = $1 RETURNING status`,
        [id, retryAt === null ? null : toDbTime(retryAt), error.slice(0, 500), nowText()],
      );
      return row?.status ?? "failed";
    },

    async postpone(id, runAt, note) {
      await pool.query(
        `UPDATE job SET status = 'queued', "runAt" = $2, "leaseUntil" = NULL, attempts = GREATEST(0, attempts - 1),
           "lastError" = COALESCE($3, "lastError"), "updatedAt" = $4 WHERE id = $1`,
        [id, toDbTime(runAt), note ?? null, nowText()],
      );
    },

    async listActive(userId) {
      return userId === undefined
        ? rows<JobRow>(`SELECT * FROM job WHERE status IN ('queued','running') ORDER BY "runAt", id`)
        : rows<JobRow>(`SELECT * FROM job WHERE status IN ('queued','running') AND "userId" = $1 ORDER BY "runAt", id`, [userId]);
    },

    async listRecentFailed(userId, limit = 20) {
      return rows<JobRow>(`SELECT * FROM job WHERE status = 'failed' AND "userId" = $1 ORDER BY "updatedAt" DESC, id DESC LIMIT $2`, [userId, limit]);
    },

    async cancelQueued(userId) {
      const set = `UPDATE job SET status = 'failed', "activeKey" = NULL, "lastError" = 'cancelled', "updatedAt" = $1 WHERE status = 'queued'`;
      return userId === null ? count(`${set} AND "userId" IS NOT NULL`, [nowText()]) : count(`${set} AND "userId" = $2`, [nowText(), userId]);
    },

    async pruneFinished(before) {
      return count(`DELETE FROM job WHERE status IN ('done','failed') AND "updatedAt" < $1`, [toDbTime(before)]);
    },

    async recoverInterrupted(now) {
      // Other processes' jobs are running too: only those whose lease ran out are this one's.
      return count(`UPDATE job SET status = 'queued', "leaseUntil" = NULL, "updatedAt" = $2 WHERE status = 'running' AND "leaseUntil" < $1`, [
        toDbTime(now),
        nowText(),
      ]);
    },
  };
}
