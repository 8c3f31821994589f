// The job table's contract, held to both databases: SQLite (the test file's own database) and
// PostgreSQL (a database of this file's own on the run's private server, migrated with the
// PostgreSQL history). Same tests, same expectations, except where the contract says the two
// differ (which running jobs a restarted scheduler takes up).
import { clock } from "@/lib/clock";
import { beforeEach, describe, expect, it } from "vitest";
import { jobStore, type JobRow, type JobStore } from "@/lib/db/queries/jobs";
import type { ProcessDb } from "@/lib/db/prisma";
import { useMigratedPostgres } from "@/lib/test/postgres";
import { db, otherSqliteClient, pgClient } from "@/lib/test/prisma";

type Backend = {
  name: "sqlite" | "postgresql";
  store: () => JobStore;
  /** another process's view of the same table (PostgreSQL: its own pool) */
  otherProcess: () => JobStore;
  clear: () => Promise<void>;
  row: (id: number) => Promise<JobRow>;
};

const pg = useMigratedPostgres("jobs");

let pgDb: ProcessDb | undefined;
const pgProcess = () => (pgDb ??= pgClient(pg.pool));

const sqlite: Backend = {
  name: "sqlite",
  store: () => jobStore(db),
  otherProcess: () => jobStore(otherSqliteClient()),
  clear: async () => void (await db.job.deleteMany()),
  row: (id) => db.job.findUniqueOrThrow({ where: { id } }),
};

const postgres: Backend = {
  name: "postgresql",
  store: () => jobStore(pgProcess()),
  otherProcess: () => jobStore(pgClient(pg.otherProcess)),
  clear: async () => void (await pgProcess().job.deleteMany()),
  row: (id) => pgProcess().job.findUniqueOrThrow({ where: { id } }),
};

const MIN = 60_000;

describe.each([sqlite, postgres])("job table on $name", (b) => {
  let jobs: JobStore;
  beforeEach(async () => {
    jobs = b.store();
    await b.clear();
  });

  it("keeps one active job per key: the earlier run time wins; ifAbsent leaves the active one alone", async () => {
    const t0 = Date.parse("2026-03-01T10:00:00.123Z");
    await jobs.enqueue({ kind: "incremental", userId: "u", collection: "sleep", runAt: t0 + 10 * MIN });
    await jobs.enqueue({ kind: "incremental", userId: "u", collection: "sleep", runAt: t0 });
    await jobs.enqueue({ kind: "incremental", userId: "u", collection: "sleep", runAt: t0 + 5 * MIN });
    await jobs.enqueue({ kind: "incremental", userId: "u", collection: "sleep", runAt: t0 - MIN, ifAbsent: true });
    const active = await jobs.listActive("u");
    expect(active).toHaveLength(1);
    expect(active[0]).toMatchObject({
      kind: "incremental",
      userId: "u",
      collection: "sleep",
      status: "queued",
      attempts: 0,
      maxAttempts: 8,
      activeKey: "incremental:u:sleep",
    });
    expect(active[0]!.runAt.getTime()).toBe(t0); // to the millisecond, in UTC
    await jobs.enqueue({ kind: "backfill", userId: "u", collection: "sleep", runAt: t0 });
    await jobs.enqueue({ kind: "personal_info", userId: "v" });
    expect((await jobs.listActive("u")).map((j) => j.kind)).toEqual(["incremental", "backfill"]);
    expect(await jobs.listActive()).toHaveLength(3);
  });

  it("claims due jobs oldest first, up to the limit, skipping excluded ones; a claim takes a lease and counts an attempt", async () => {
    const now = clock.now();
    for (let i = 0; i < 5; i++) await jobs.enqueue({ kind: "backfill", userId: `u${i}`, collection: "sleep", runAt: now - (5 - i) * MIN });
    await jobs.enqueue({ kind: "backfill", userId: "later", collection: "sleep", runAt: now + MIN });
    const first = await jobs.claimDue({ now, leaseMs: 2 * MIN, limit: 2 });
    expect(first.map((j) => j.userId)).toEqual(["u0", "u1"]);
    expect(first[0]).toMatchObject({ status: "running", attempts: 1 });
    expect(first[0]!.leaseUntil!.getTime()).toBe(now + 2 * MIN);
    const all = await jobs.listActive();
    const u3 = all.find((j) => j.userId === "u3")!;
    const next = await jobs.claimDue({ now, leaseMs: 2 * MIN, limit: 10, excludeIds: [u3.id] });
    expect(next.map((j) => j.userId)).toEqual(["u2", "u4"]);
    expect(await jobs.claimDue({ now, leaseMs: 2 * MIN, limit: 10 })).toEqual([expect.objectContaining({ userId: "u3" })]);
    expect(await jobs.claimDue({ now, leaseMs: 2 * MIN, limit: 10 })).toEqual([]);
    // A running job whose lease ran out (its process died) is taken again.
    const again = await jobs.claimDue({ now: now + 3 * MIN, leaseMs: 2 * MIN, limit: 10 });
    expect(again.map((j) => j.userId).sort()).toEqual(["later", "u0", "u1", "u2", "u3", "u4"]);
    expect(again.find((j) => j.userId === "u0")!.attempts).toBe(2);
  });

  it("the next due time is the earliest queued run or running lease; none when nothing is active", async () => {
    expect(await jobs.nextDueAt()).toBeNull();
    const now = Date.parse("2026-03-01T10:00:00.000Z");
    await jobs.enqueue({ kind: "backfill", userId: "a", collection: "sleep", runAt: now + 10 * MIN });
    expect((await jobs.nextDueAt())?.getTime()).toBe(now + 10 * MIN);
    await jobs.enqueue({ kind: "backfill", userId: "b", collection: "sleep", runAt: now });
    await jobs.claimDue({ now, leaseMs: 3 * MIN, limit: 1 });
    expect((await jobs.nextDueAt())?.getTime()).toBe(now + 3 * MIN);
  });

  it("complete frees the key; a job asked for again while running is queued once more", async () => {
    await jobs.enqueue({ kind: "incremental", userId: "u", collection: "sleep" });
    const [job] = await jobs.claimDue({ now: clock.now(), leaseMs: MIN, limit: 1 });
    await jobs.enqueue({ kind: "incremental", userId: "u", collection: "sleep" }); // arrives while it runs
    await jobs.complete(job!.id);
    expect(await b.row(job!.id)).toMatchObject({ status: "queued", attempts: 0, activeKey: "incremental:u:sleep", leaseUntil: null });
    expect(JSON.parse((await b.row(job!.id)).payload)).toEqual({});
    const [second] = await jobs.claimDue({ now: clock.now() + 1_000, leaseMs: MIN, limit: 1 });
    expect(second!.id).toBe(job!.id);
    await jobs.complete(second!.id);
    expect(await b.row(job!.id)).toMatchObject({ status: "done", activeKey: null, lastError: null });
    await jobs.enqueue({ kind: "incremental", userId: "u", collection: "sleep", ifAbsent: true });
    expect(await jobs.listActive("u")).toHaveLength(1);
  });

  it("fail retries while attempts remain, then fails for good and releases the key; postpone does not count the attempt", async () => {
    const now = clock.now();
    await jobs.enqueue({ kind: "backfill", userId: "u", collection: "sleep", runAt: now, maxAttempts: 2 }); // due at `now` (by default it would be due at the clock's later reading)
    let [job] = await jobs.claimDue({ now, leaseMs: MIN, limit: 1 });
    expect(await jobs.fail(job!.id, "x".repeat(2_000), now + MIN)).toBe("queued");
    const retried = await b.row(job!.id);
    expect(retried).toMatchObject({ status: "queued", attempts: 1, leaseUntil: null });
    expect(retried.lastError).toHaveLength(500);
    expect(retried.runAt.getTime()).toBe(now + MIN);
    [job] = await jobs.claimDue({ now: now + MIN, leaseMs: MIN, limit: 1 });
    await jobs.postpone(job!.id, now + 5 * MIN, "rate limited");
    expect(await b.row(job!.id)).toMatchObject({ status: "queued", attempts: 1, lastError: "rate limited" });
    [job] = await jobs.claimDue({ now: now + 5 * MIN, leaseMs: MIN, limit: 1 });
    expect(await jobs.fail(job!.id, "503", now + 6 * MIN)).toBe("failed");
    expect(await b.row(job!.id)).toMatchObject({ status: "failed", attempts: 2, activeKey: null, lastError: "503" });
    expect(await jobs.listRecentFailed("u")).toEqual([expect.objectContaining({ id: job!.id })]);
    // Without a retry time: failed at once.
    await jobs.enqueue({ kind: "backfill", userId: "u", collection: "sleep" });
    const [bug] = await jobs.claimDue({ now: clock.now(), leaseMs: MIN, limit: 1 });
    expect(await jobs.fail(bug!.id, "400", null)).toBe("failed");
  });

  it("cancels queued jobs of a person or of everyone (running ones finish), and prunes old finished ones", async () => {
    await jobs.enqueue({ kind: "backfill", userId: "a", collection: "sleep" });
    await jobs.enqueue({ kind: "backfill", userId: "a", collection: "daily_sleep" });
    await jobs.enqueue({ kind: "backfill", userId: "b", collection: "sleep" });
    await jobs.enqueue({ kind: "subscriptions" });
    const [running] = await jobs.claimDue({ now: clock.now(), leaseMs: MIN, limit: 1 });
    expect(await jobs.cancelQueued("a")).toBe(running!.userId === "a" ? 1 : 2);
    expect(await jobs.cancelQueued(null)).toBeGreaterThanOrEqual(1);
    const left = await jobs.listActive();
    expect(left.map((j) => j.id)).toContain(running!.id);
    expect(left.filter((j) => j.status === "queued").map((j) => j.kind)).toEqual(running!.kind === "subscriptions" ? [] : ["subscriptions"]);
    expect(await jobs.pruneFinished(clock.now() - MIN)).toBe(0);
    expect(await jobs.pruneFinished(clock.now() + MIN)).toBeGreaterThanOrEqual(2);
    expect((await jobs.listRecentFailed("a")).length).toBe(0);
  });

  it("a restarted scheduler takes up what its previous life left running", async () => {
    const now = clock.now();
    await jobs.enqueue({ kind: "backfill", userId: "a", collection: "sleep", runAt: now - 20 * MIN });
    await jobs.enqueue({ kind: "backfill", userId: "b", collection: "sleep", runAt: now - 20 * MIN });
    const [expired] = await jobs.claimDue({ now: now - 10 * MIN, leaseMs: MIN, limit: 1 });
    const [live] = await jobs.claimDue({ now, leaseMs: 10 * MIN, limit: 1, excludeIds: [expired!.id] });
    const recovered = await jobs.recoverInterrupted(now);
    if (b.name === "sqlite") {
      // one scheduler per file: everything still running was its own
      expect(recovered).toBe(2);
      expect(await b.row(live!.id)).toMatchObject({ status: "queued" });
    } else {
      // a shared database: a live lease is another process's job
      expect(recovered).toBe(1);
      expect(await b.row(live!.id)).toMatchObject({ status: "running" });
    }
    expect(await b.row(expired!.id)).toMatchObject({ status: "queued", leaseUntil: null });
  });

  it("several processes claiming at once take every due job exactly once", async () => {
    const now = clock.now();
    const n = 120;
    for (let i = 0; i < n; i++) await jobs.enqueue({ kind: "backfill", userId: `p${i}`, collection: "sleep", runAt: now - i });
    const processes = Array.from({ length: 4 }, () => b.otherProcess());
    // every process connected before the race (a pool's first connection takes longer than a claim)
    await Promise.all(processes.map((store) => store.nextDueAt()));
    const taken: number[][] = processes.map(() => []);
    await Promise.all(
      processes.map(async (store, i) => {
        for (;;) {
          const got = await store.claimDue({ now, leaseMs: 10 * MIN, limit: 3 });
          if (got.length === 0) return;
          taken[i]!.push(...got.map((j) => j.id));
        }
      }),
    );
    const all = taken.flat();
    expect(all).toHaveLength(n);
    expect(new Set(all).size).toBe(n);
    if (b.name === "postgresql") expect(taken.filter((t) => t.length > 0).length).toBeGreaterThan(1); // side by side, not one after another
    expect((await jobs.listActive()).every((j) => j.status === "running" && j.attempts === 1)).toBe(true);
  });
});
