// How a job's outcome moves its row: done, retried with backoff (attempts recorded) until the
// last attempt, postponed by a rate-limit pause without counting, stopped on 403/400.
import { clock } from "@/lib/clock";
import { beforeEach, describe, expect, it } from "vitest";
import { RingApiError, RingRateLimitedError } from "@/lib/ring/errors";
import { claimDueJobs, enqueueJob, listActiveJobs, type JobRow } from "@/lib/db/queries/jobs";
import { db } from "@/lib/test/prisma";
import { enqueueBackfill, runJob } from "@/lib/sync/jobs";
import { TODAY_COLLECTIONS } from "@/lib/metrics/today-layout";
import { SYNC_COLLECTIONS } from "@/lib/resources";
import type { SyncEngine } from "@/lib/sync/engine";

const row = (id: number): Promise<JobRow> => db.job.findUniqueOrThrow({ where: { id } });

function engineThrowing(err: unknown): SyncEngine {
  return {
    backfillCollection: async () => {
      if (err) throw err;
      return { collection: "sleep", result: "done" };
    },
  } as unknown as SyncEngine;
}

async function runOnce(err: unknown, now = clock.now()): Promise<JobRow> {
  const [job] = await claimDueJobs({ now, leaseMs: 60_000, limit: 1 });
  expect(job).toBeDefined();
  await runJob(engineThrowing(err), job!, () => now);
  return await row(job!.id);
}

beforeEach(async () => {
  await db.job.deleteMany();
});

describe("runJob", () => {
  it("completes and frees the key", async () => {
    await enqueueJob({ kind: "backfill", userId: "u", collection: "sleep" });
    const done = await runOnce(null);
    expect(done).toMatchObject({ status: "done", activeKey: null, attempts: 1 });
  });

  it("retries a 5xx with a growing delay and fails for good after the last attempt", async () => {
    await enqueueJob({ kind: "backfill", userId: "u", collection: "sleep", maxAttempts: 3 });
    let now = clock.now();
    const first = await runOnce(new RingApiError({ status: 503, endpoint: "/v2/usercollection/sleep" }), now);
    expect(first).toMatchObject({ status: "queued", attempts: 1 });
    expect(first.lastError).toMatch(/503/);
    const wait1 = first.runAt.getTime() - now;
    expect(wait1).toBeGreaterThanOrEqual(15_000);
    now = first.runAt.getTime();
    const second = await runOnce(new RingApiError({ status: 0, endpoint: "/v2/usercollection/sleep" }), now);
    expect(second).toMatchObject({ status: "queued", attempts: 2 });
    expect(second.runAt.getTime() - now).toBeGreaterThanOrEqual(30_000);
    now = second.runAt.getTime();
    const last = await runOnce(new RingApiError({ status: 500, endpoint: "/v2/usercollection/sleep" }), now);
    expect(last).toMatchObject({ status: "failed", attempts: 3, activeKey: null });
    // The key is free: the next poll may queue a fresh job.
    await enqueueJob({ kind: "backfill", userId: "u", collection: "sleep" });
    expect(await listActiveJobs("u")).toHaveLength(1);
  });

  it("postpones to the end of a rate-limit pause without counting the attempt", async () => {
    await enqueueJob({ kind: "backfill", userId: "u", collection: "sleep" });
    const until = clock.now() + 300_000;
    const r = await runOnce(new RingRateLimitedError(until, "application"));
    expect(r).toMatchObject({ status: "queued", attempts: 0 });
    expect(r.runAt.getTime()).toBe(until);
  });

  it("stops without retry on 403 and on a 400 bug", async () => {
    await enqueueJob({ kind: "backfill", userId: "u", collection: "sleep" });
    expect(await runOnce(new RingApiError({ status: 403, endpoint: "/x" }))).toMatchObject({ status: "failed", activeKey: null });
    await enqueueJob({ kind: "backfill", userId: "u", collection: "sleep" });
    expect(await runOnce(new RingApiError({ status: 400, endpoint: "/x" }))).toMatchObject({ status: "failed", activeKey: null });
  });

  it("keeps one active job per person, collection and kind; a running one runs once more", async () => {
    await enqueueJob({ kind: "incremental", userId: "u", collection: "sleep", runAt: clock.now() + 60_000 });
    await enqueueJob({ kind: "incremental", userId: "u", collection: "sleep" });
    const active = await listActiveJobs("u");
    expect(active).toHaveLength(1);
    expect(active[0]!.runAt.getTime()).toBeLessThanOrEqual(clock.now());
    const [job] = await claimDueJobs({ now: clock.now(), leaseMs: 60_000, limit: 1 });
    await enqueueJob({ kind: "incremental", userId: "u", collection: "sleep" }); // arrives while it runs
    await runJob({ incrementalCollection: async () => ({ collection: "sleep", result: "done" }) } as unknown as SyncEngine, job!);
    expect(await row(job!.id)).toMatchObject({ status: "queued", attempts: 0 });
    await enqueueJob({ kind: "incremental", userId: "u", collection: "sleep", ifAbsent: true });
    expect(await listActiveJobs("u")).toHaveLength(1);
  });
});

describe("a new person's backfill", () => {
  it("is queued newest first for Today: heart rate first, every collection Today shows before the others", async () => {
    const userId = `queue-order-${Date.now()}`;
    await db.user.create({ data: { id: userId, email: `${userId}@example.test` } });
    await enqueueBackfill(userId);
    // the workers take jobs in this order (due time, then the order they were queued in)
    const jobs = await claimDueJobs({ now: clock.now(), leaseMs: 60_000, limit: 100 });
    const order = jobs.filter((j) => j.kind === "backfill").map((j) => j.collection!);
    expect([...order].sort()).toEqual([...SYNC_COLLECTIONS].sort());
    expect(order[0]).toBe("heartrate");
    const onToday = order.map((c) => (TODAY_COLLECTIONS as readonly string[]).includes(c));
    expect(onToday.lastIndexOf(true)).toBeLessThan(onToday.indexOf(false));
  });
});
