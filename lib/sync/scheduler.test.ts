// Integration: the in-process scheduler over the durable Job table — backfill after connect,
// discovery of people connected while nothing ran, resume after a restart, polling, "Sync
// now", paused accounts.
import { waitFor } from "@/lib/test/wait";
import { clock } from "@/lib/clock";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { wornEmail } from "@/lib/test/emulator-kit";
import {
  compareWithEmulator,
  connectPerson,
  emulatorControl,
  importSyncModules,
  startSyncTestEnv,
  type SyncModules,
  type SyncTestEnv,
} from "@/lib/test/sync-kit";
import { sqlRun } from "@/lib/test/sql";
import { SYNC_COLLECTIONS } from "@/lib/resources";

/** The emulator's page size: a 120-day backfill takes several pages a collection. */
const PAGE = 25;
/**
 * 120 days of history: what the scheduler's tests need is several pages a collection (sleep:
 * about 5, so a process that dies after page 4 leaves pages to resume), over a thousand
 * documents in all, and a sync round of every collection. 200 days proved nothing more, and
 * each of the five people synced here cost it again.
 */
const HISTORY_DAYS = 120;

let t: SyncTestEnv;
let m: SyncModules & { status: typeof import("@/lib/sync/status") };

beforeAll(async () => {
  t = await startSyncTestEnv({ historyDays: HISTORY_DAYS, pageSize: PAGE });
  m = { ...(await importSyncModules()), status: await import("@/lib/sync/status") };
});

afterEach(async () => {
  await m.scheduler.replaceScheduler(null);
});

afterAll(async () => {
  await t?.close();
});

function install(opts: ConstructorParameters<typeof import("@/lib/sync/scheduler").Scheduler>[1] = {}, engine = new m.engine.SyncEngine()) {
  const s = new m.scheduler.Scheduler(engine, { idleMs: 100, housekeepingMs: 3_600_000, ...opts });
  return m.scheduler.replaceScheduler(s).then(() => s);
}

/** Every collection the sync fetches (documents and time series) has finished its backfill. */
async function backfilled(userId: string): Promise<boolean> {
  for (const c of SYNC_COLLECTIONS) if (!(await m.state.getSyncState(userId, c))?.backfillDoneAt) return false;
  return true;
}

describe("scheduler", () => {
  it("tells the alerts worker when a person's sync ends: after each sync job (done or failed) and after applied notifications", async () => {
    const p = await connectPerson(t, { tracksCycle: true });
    await new m.engine.SyncEngine().backfillUser(p.userId);
    const synced: string[] = [];
    await install({ onSynced: (userId) => synced.push(userId) });
    await m.index.enqueueSyncNow(p.userId);
    m.index.wakeScheduler();
    // one call per job of the round: every collection plus the personal_info snapshot
    await waitFor(
      "a sync end per job of the round, no job left",
      async () => synced.length >= m.resources.RING_COLLECTIONS.length + 1 && (await m.jobs.listActiveJobs(p.userId)).length === 0,
    );
    expect(new Set(synced)).toEqual(new Set([p.userId]));

    synced.length = 0;
    const { recordWebhookEvent } = await import("@/lib/db/queries/webhook-events");
    const { emulatorDocuments } = await import("@/lib/test/sync-kit");
    const doc = (await emulatorDocuments(t, p.ringUserId, "daily_readiness")).at(-1)!;
    await recordWebhookEvent({
      dedupeKey: `alert-hook-${p.userId}`,
      ringUserId: p.ringUserId,
      dataType: "daily_readiness",
      eventType: "update",
      objectId: String(doc.id),
      eventTime: null,
    });
    m.index.wakeScheduler();
    await waitFor("one sync end after the notifications", () => synced.length === 1);
    expect(synced).toEqual([p.userId]);
  });

  it("backfills everything after onAccountConnected and takes the personal_info snapshot", async () => {
    const p = await connectPerson(t, { tracksCycle: true });
    await install();
    await m.index.onAccountConnected(p.userId);
    await waitFor(
      "the backfill and the personal info snapshot",
      async () => (await backfilled(p.userId)) && (await m.docs.personalInfoSyncedAt(p.userId)) !== null,
    );
    for (const c of m.resources.RING_COLLECTIONS) {
      const diff = await compareWithEmulator(t, p, c);
      expect({ c, missing: diff.missing.length, stored: diff.stored }).toEqual({ c, missing: 0, stored: diff.expected });
    }
    const status = await m.status.getSyncStatus(p.userId);
    expect(status.collections.filter((c) => !(c.progress === 1 && c.backfillDone)).map((c) => [c.collection, c.progress, c.backfillDone, c.status])).toEqual(
      [],
    );
    expect(status.totals.documents).toBeGreaterThan(1000);
    expect(status.lastSuccessAt).not.toBeNull();
  });

  it("finds a person who connected while nothing ran and starts their backfill", async () => {
    const p = await connectPerson(t, { tracksCycle: true });
    expect(await m.state.listUsersNeedingBackfill()).toContain(p.userId);
    await install({ housekeepingMs: 50 });
    await waitFor("every collection backfilled", () => backfilled(p.userId));
    expect((await compareWithEmulator(t, p, "sleep")).missing).toEqual([]);
  });

  it("resumes after a restart: interrupted jobs and expired leases are taken again", async () => {
    const p = await connectPerson(t, { tracksCycle: true });
    await m.state.ensureSyncStates(p.userId, m.resources.RING_COLLECTIONS);
    // Jobs left by earlier tests (their schedulers are stopped) must not be claimed here.
    await sqlRun("DELETE FROM job");
    // A first process takes the sleep backfill and dies after a few pages (lease still held). On
    // SQLite the restarted process takes it at once (one process per file: every running job was
    // its own); on PostgreSQL other processes may be running theirs, so it is taken when its lease
    // runs out (made short here).
    await m.jobs.enqueueJob({ kind: "backfill", userId: p.userId, collection: "sleep" });
    const leaseMs = process.env.DATABASE_URL!.startsWith("postgres") ? 2_000 : 600_000;
    // the claims below are made at one instant: the sleep job's lease is held at it, however long
    // the dying process's pages take on a busy machine
    const claimedAt = clock.now();
    const [job] = await m.jobs.claimDueJobs({ now: claimedAt, leaseMs, limit: 1 });
    expect(job?.collection).toBe("sleep");
    // (newest first: the recent days' pages, then the history's; it dies after the fourth in all)
    let storedByPages = 0;
    const dying = new m.engine.SyncEngine({
      hooks: {
        afterPage: ({ page, documents }) => {
          storedByPages += documents;
          if (page === 4) throw new Error("process died");
        },
      },
    });
    for (let more = true; more;) more = Boolean((await dying.backfillCollection(p.userId, "sleep").catch(() => undefined))?.more);
    expect(storedByPages).toBeGreaterThan(0);
    expect((await m.docs.collectionSummary("sleep", p.userId)).documents).toBe(storedByPages);
    expect((await m.state.getSyncState(p.userId, "sleep"))?.backfillDoneAt).toBeNull();
    // Another job whose lease ran out while its process was gone.
    await m.jobs.enqueueJob({ kind: "backfill", userId: p.userId, collection: "daily_sleep", runAt: claimedAt - 800_000 });
    const [stale] = await m.jobs.claimDueJobs({ now: claimedAt - 700_000, leaseMs: 1_000, limit: 1 });
    expect(stale?.collection).toBe("daily_sleep");
    expect((await m.jobs.claimDueJobs({ now: claimedAt, leaseMs: 1_000, limit: 5 })).map((j) => j.id)).toEqual([stale!.id]);

    await install(); // the restarted process
    // done: both back-fills finished and their jobs ended (a job ends just after its back-fill's
    // last commit, so the one can be seen without the other)
    const ours = async () => (await m.jobs.listActiveJobs(p.userId)).filter((j) => j.collection === "sleep" || j.collection === "daily_sleep");
    await waitFor(
      "sleep and daily_sleep backfilled, their jobs ended",
      async () =>
        Boolean((await m.state.getSyncState(p.userId, "sleep"))?.backfillDoneAt && (await m.state.getSyncState(p.userId, "daily_sleep"))?.backfillDoneAt) &&
        (await ours()).length === 0,
    );
    for (const c of ["sleep", "daily_sleep"] as const) {
      const diff = await compareWithEmulator(t, p, c);
      expect({ c, missing: diff.missing.length, extra: diff.extra.length, stored: diff.stored }).toEqual({ c, missing: 0, extra: 0, stored: diff.expected });
    }
    expect(await ours()).toEqual([]);
  });

  it("polls the trailing days when the last sync is older than the poll interval, and on Sync now", async () => {
    const day = clock.date().toISOString().slice(0, 10);
    // a generated person who wore the ring today and whose activity changes at the next sync
    const p = await connectPerson(t, { tracksCycle: true, email: wornEmail("poll", [day], ["daily_activity"], undefined, day) });
    await new m.engine.SyncEngine().backfillUser(p.userId);
    await emulatorControl(t, "POST", `/users/${p.ringUserId}/sync`, { day }); // edits today (no webhooks here)
    // Nothing is due yet: the backfill just ran.
    const s = await install({ housekeepingMs: 50 });
    await waitFor("three rounds of housekeeping", () => s.housekeepingRuns >= 3); // several rounds of periodic duties, none of which found a poll due
    await s.settled();
    expect((await compareWithEmulator(t, p, "daily_activity")).changed.length).toBeGreaterThan(0);
    // "Sync now" re-checks at once.
    await m.index.enqueueSyncNow(p.userId);
    m.index.wakeScheduler();
    await waitFor("daily_activity equal to the emulator's", async () => (await compareWithEmulator(t, p, "daily_activity")).changed.length === 0);
    // A poll is due when the last attempt is older than the interval.
    await emulatorControl(t, "POST", `/users/${p.ringUserId}/sync`, { day });
    for (const c of m.resources.RING_COLLECTIONS) await m.state.updateSyncState(p.userId, c, { lastAttemptAt: new Date(clock.now() - 2 * 3_600_000) });
    await waitFor("daily_readiness equal to the emulator's", async () => (await compareWithEmulator(t, p, "daily_readiness")).changed.length === 0);
  });

  it("pauses a person whose connection needs a reconnect and resumes after it", async () => {
    const p = await connectPerson(t, { tracksCycle: true });
    await m.db.db.account.update({ where: { id: p.accountId }, data: { status: "needs_reconnect" } });
    await install({ housekeepingMs: 50 });
    await waitFor(
      "every collection paused",
      async () => (await m.state.listSyncStates(p.userId)).length > 0 && (await m.state.listSyncStates(p.userId)).every((s) => s.status === "paused"),
    );
    expect((await m.docs.collectionSummary("daily_activity", p.userId)).documents).toBe(0);
    await m.db.db.account.update({ where: { id: p.accountId }, data: { status: "active" } });
    await m.index.onAccountConnected(p.userId);
    await waitFor("every collection backfilled", () => backfilled(p.userId));
  });
});
