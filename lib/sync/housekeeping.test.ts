// Integration: the scheduler's housekeeping writes only what must change. Every 30 s it looks
// at every connected person; a pass that finds nothing to do must begin no transaction and
// change no row (it ran on the thread an import's CPU budget runs on), and a pass that finds a
// missing sync state or a missing job still creates exactly that. Counted at Prisma's driver
// adapter (lib/test/statements.ts), on both databases. No ring service: the people are rows.
import { beforeAll, describe, expect, it } from "vitest";
import { clock } from "@/lib/clock";
import { CYCLE_RESOURCE } from "@/lib/cycle";
import { countProcessStatements, writeStatements, type StatementCounter, type StatementLog } from "@/lib/test/statements";

const HOUR = 3_600_000;

let counter: StatementCounter;
let m: {
  scheduler: typeof import("@/lib/sync/scheduler");
  engine: typeof import("@/lib/sync/engine");
  state: typeof import("@/lib/db/queries/sync-state");
  jobs: typeof import("@/lib/db/queries/jobs");
  fence: typeof import("@/lib/db/queries/sync-fence");
  resources: typeof import("@/lib/resources");
  db: (typeof import("@/lib/test/prisma"))["db"];
};

beforeAll(async () => {
  // first: the counting client becomes the process's before any module makes one
  counter = await countProcessStatements();
  m = {
    scheduler: await import("@/lib/sync/scheduler"),
    engine: await import("@/lib/sync/engine"),
    state: await import("@/lib/db/queries/sync-state"),
    jobs: await import("@/lib/db/queries/jobs"),
    fence: await import("@/lib/db/queries/sync-fence"),
    resources: await import("@/lib/resources"),
    db: (await import("@/lib/test/prisma")).db,
  };
});

let seq = 0;

/** A person with a ring account (no tokens: housekeeping only queues work). */
async function person(status: "active" | "needs_reconnect" | "disconnected" = "active", opts: { syncPaused?: boolean } = {}): Promise<string> {
  const n = ++seq;
  const user = await m.db.user.create({
    data: { email: `hk-${n}@example.test`, ringUserId: `ring-hk-${n}`, syncPausedAt: opts.syncPaused ? clock.date() : null },
  });
  await m.db.account.create({ data: { userId: user.id, type: "oauth", provider: "ring", providerAccountId: `ring-hk-${n}`, status } });
  return user.id;
}

/** Every sync state and job, as stored (a pass that writes nothing leaves them equal to the last byte). */
async function tables() {
  return {
    states: await m.db.syncState.findMany({ orderBy: [{ userId: "asc" }, { collection: "asc" }] }),
    jobs: await m.db.job.findMany({ orderBy: { id: "asc" } }),
  };
}

const summary = (log: StatementLog) => ({ transactions: log.transactions, writes: writeStatements(log) });

describe("scheduler housekeeping", () => {
  it("a pass with nothing to change begins no transaction and writes nothing; a missing sync state or job is still created", async () => {
    const { SYNC_COLLECTIONS } = m.resources;
    // the cycle's phases only for people who track their cycle (none here)
    const collections = SYNC_COLLECTIONS.filter((c) => c !== CYCLE_RESOURCE);
    const t0 = clock.now();
    // backfilling: no sync state yet (the first pass creates them and queues every backfill)
    const fresh = [await person(), await person(), await person()];
    // backfilled: nothing due but sleep's poll (its last attempt two hours ago)
    const synced = await person();
    await m.state.ensureSyncStates(synced, SYNC_COLLECTIONS);
    for (const c of SYNC_COLLECTIONS)
      await m.state.updateSyncState(synced, c, { backfillDoneAt: new Date(t0), lastAttemptAt: new Date(c === "sleep" ? t0 - 2 * HOUR : t0) });
    await m.db.personalInfo.create({ data: { userId: synced, ringUserId: "ring-hk-synced", raw: "{}", syncedAt: new Date(t0) } });
    const reconnect = await person("needs_reconnect");
    const gone = await person("disconnected");
    const deleted = await person("active", { syncPaused: true });

    const s = new m.scheduler.Scheduler(new m.engine.SyncEngine());
    await s.housekeeping(t0);
    const first = await tables();
    // what the pass was for: states for everyone it keeps, every backfill and snapshot queued, the poll due, the reconnect paused
    for (const id of [...fresh, synced, reconnect])
      expect(
        first.states
          .filter((r) => r.userId === id)
          .map((r) => r.collection)
          .sort(),
      ).toEqual([...SYNC_COLLECTIONS].sort());
    expect(first.states.filter((r) => r.userId === gone || r.userId === deleted)).toEqual([]);
    expect(first.states.filter((r) => r.userId === reconnect).every((r) => r.status === "paused")).toBe(true);
    const keys = (id: string) => first.jobs.filter((j) => j.userId === id && j.status === "queued").map((j) => `${j.kind}:${j.collection ?? "-"}`);
    for (const id of fresh) expect(keys(id).sort()).toEqual([...collections.map((c) => `backfill:${c}`), "personal_info:-"].sort());
    expect(keys(synced)).toEqual(["incremental:sleep"]);
    expect([reconnect, gone, deleted].flatMap(keys)).toEqual([]);
    // one backfill is running (claimed), the others wait
    const [running] = await m.jobs.claimDueJobs({ now: t0 + 1_000, leaseMs: HOUR, limit: 1 });
    expect(running?.kind).toBe("backfill");

    // the next passes: nothing changed, nothing written (not a BEGIN, not an INSERT)
    const before = await tables();
    for (const at of [t0 + 30_000, t0 + 60_000]) {
      const idle = await counter.since(() => s.housekeeping(at));
      expect(summary(idle)).toEqual({ transactions: 0, writes: [] });
    }
    expect(await tables()).toEqual(before);

    // a sync state and a job gone missing: the next pass creates exactly those two rows
    await m.db.syncState.deleteMany({ where: { userId: fresh[1], collection: "sleep" } });
    await m.db.job.deleteMany({ where: { userId: fresh[2], kind: "personal_info" } });
    const mended = await counter.since(() => s.housekeeping(t0 + 90_000));
    expect(writeStatements(mended)).toHaveLength(2);
    expect(mended.transactions).toBe(2);
    const after = await tables();
    expect(after.states.filter((r) => r.userId === fresh[1] && r.collection === "sleep")).toEqual([
      expect.objectContaining({ status: "idle", backfillDoneAt: null }),
    ]);
    expect(after.jobs.filter((j) => j.userId === fresh[2] && j.kind === "personal_info" && j.status === "queued")).toHaveLength(1);
    expect(after.states).toHaveLength(before.states.length);
    expect(after.jobs).toHaveLength(before.jobs.length);
  });

  it("the reads first keep the fence: a person whose sync generation moved gets no sync state and no job, whether or not one was missing", async () => {
    const { SYNC_COLLECTIONS } = m.resources;
    const id = await person();
    const listed = (await m.fence.readSyncGeneration(id))!.generation;
    await m.state.ensureSyncStates(id, SYNC_COLLECTIONS);
    await m.jobs.enqueueJob({ kind: "backfill", userId: id, collection: "sleep" });
    // nothing missing, generation as listed: reads only, the rows as they are
    const kept = await counter.since(async () => {
      expect(await m.state.ensureAndListSyncStates(id, listed, SYNC_COLLECTIONS)).toHaveLength(SYNC_COLLECTIONS.length);
      expect(await m.jobs.enqueueJob({ kind: "backfill", userId: id, collection: "sleep", ifAbsent: true, generation: listed })).toBe(true);
    });
    expect(summary(kept)).toEqual({ transactions: 0, writes: [] });

    // a delete moves the generation on (and takes a row) after the person was listed
    await m.db.$transaction((tx) => m.fence.bumpSyncGeneration(tx, id));
    const stopped = await counter.since(async () => {
      await expect(m.state.ensureAndListSyncStates(id, listed, SYNC_COLLECTIONS)).rejects.toBeInstanceOf(m.fence.SyncStoppedError);
      // the job already there is left alone, and the answer is still "the generation moved"
      expect(await m.jobs.enqueueJob({ kind: "backfill", userId: id, collection: "sleep", ifAbsent: true, generation: listed })).toBe(false);
    });
    expect(summary(stopped)).toEqual({ transactions: 0, writes: [] });
    await m.db.syncState.deleteMany({ where: { userId: id, collection: "sleep" } });
    await expect(m.state.ensureAndListSyncStates(id, listed, SYNC_COLLECTIONS)).rejects.toBeInstanceOf(m.fence.SyncStoppedError);
    expect(await m.jobs.enqueueJob({ kind: "personal_info", userId: id, ifAbsent: true, generation: listed })).toBe(false);
    expect((await m.state.listSyncStates(id)).map((r) => r.collection)).not.toContain("sleep");
    expect((await m.jobs.listActiveJobs(id)).map((j) => j.kind)).toEqual(["backfill"]);
  });
});
