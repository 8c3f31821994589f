// How a job's outcome moves its row: done, retried with backoff (attempts recorded) until the
// last attempt, postponed by a rate-limit pause without counting, stopped on 403/400.
import { clock } from "@/lib/clock";
import { beforeEach, describe, expect, it } from "vitest";
import { RingApiError, RingRateLimitedError } from "@/lib/ring/errors";
import { claimDueJobs, enqueueJob, listActiveJobs, type JobRow } from "@/lib/db/queries/jobs";
import { db } from "@/lib/test/prisma";
import { enqueueBackfill, runJob } from "@/lib/sync/jobs";
import { TODAY_COLLECTIONS } from "@/lib/metrics/today-layout";
import { isSeriesCollection, SYNC_COLLECTIONS } from "@/lib/resources";
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

  it("runs heart rate's history right after the recent passes still waiting, ahead of the documents' histories put back before it", async () => {
    const userId = "history-order-person";
    await db.user.create({ data: { id: userId, email: `${userId}@example.test` } });
    const t0 = clock.now();
    await enqueueBackfill(userId, { runAt: t0 });
    // recent days stored: what the engine records once a collection's recent pass is done
    const recentStored = (collection: string) =>
      db.syncState.updateMany({ where: { userId, collection }, data: { backfillFrom: "2021-01-01", backfillTo: "2026-01-01" } });
    const stillMore = (collection: string) => ({ backfillCollection: async () => ({ collection, result: "done", more: true }) }) as unknown as SyncEngine;
    const claim = (now: number, limit: number) => claimDueJobs({ now, leaseMs: 60_000, limit });
    const backfills = (jobs: JobRow[]) => jobs.filter((j) => j.kind === "backfill").map((j) => j.collection);

    // the workers take heart rate and the next three; a document collection's recent days are
    // stored first and it is put back, then heart rate's
    const [heart, document] = await claim(t0, 4);
    const documentCollection = document!.collection!;
    expect(heart?.collection).toBe("heartrate");
    expect(isSeriesCollection(documentCollection)).toBe(false);
    await recentStored(documentCollection);
    await runJob(stillMore(documentCollection), document!, () => t0 + 10);
    await recentStored("heartrate");
    await runJob(stillMore("heartrate"), heart!, () => t0 + 20);

    // every recent pass still waiting comes first, then heart rate's history, then the document collection's
    const order = backfills(await claim(t0 + 30, 100));
    expect(order.slice(-2)).toEqual(["heartrate", documentCollection]);
    expect(order.length).toBe(SYNC_COLLECTIONS.length - 2);
  });

  it("runs a time series' history first in line once no recent pass waits", async () => {
    const userId = "history-first-person";
    await db.user.create({ data: { id: userId, email: `${userId}@example.test` } });
    const t0 = clock.now();
    await enqueueBackfill(userId, { runAt: t0 });
    const running = await claimDueJobs({ now: t0, leaseMs: 60_000, limit: 100 });
    await db.syncState.updateMany({ where: { userId }, data: { backfillFrom: "2021-01-01", backfillTo: "2026-01-01" } });
    const byCollection = new Map(running.map((j) => [j.collection, j]));
    const stillMore = (collection: string) => ({ backfillCollection: async () => ({ collection, result: "done", more: true }) }) as unknown as SyncEngine;
    // the documents' recent passes end first, the ring's battery's last
    await runJob(stillMore("sleep"), byCollection.get("sleep")!, () => t0 + 10);
    await runJob(stillMore("daily_activity"), byCollection.get("daily_activity")!, () => t0 + 20);
    await runJob(stillMore("ring_battery_level"), byCollection.get("ring_battery_level")!, () => t0 + 30);
    const [first, second, third] = (await claimDueJobs({ now: t0 + 40, leaseMs: 60_000, limit: 3 })).map((j) => j.collection);
    expect([first, second, third]).toEqual(["ring_battery_level", "sleep", "daily_activity"]);
  });
});
