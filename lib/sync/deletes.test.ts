// Deletes hold (both databases): "Delete all my data", "Disconnect" with the data deleted, and the
// owner's removal of a member, each made while a backfill page and a webhook's document fetch are
// in flight (their answers held at a proxy in front of the emulator). The requests in flight are
// given up, nothing of the person is written once the held answers are released, and after a
// minute of the scheduler's housekeeping (the clock moved, not waited for) the person has no row
// in any table the delete empties and no sync state. A delete made by another process (no abort
// reaches this one) holds by the fence alone. After "Delete all my data" the person's share links
// answer 410, their interrupted import is gone with its spool, and nothing syncs until they ask
// for their history again.
import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { clock, ManualClock, setClock } from "@/lib/clock";
import { AppError } from "@/lib/http/errors";
import { startHoldingProxy, type Hold, type HoldingProxy } from "@/lib/test/holding-proxy";
import { rowsNaming } from "@/lib/test/person-rows";
import { uniqueEmail } from "@/lib/test/emulator-kit";
import { waitFor } from "@/lib/test/wait";
import {
  connectPerson,
  emulatorDocuments,
  FAST_BACKOFF,
  importSyncModules,
  startSyncTestEnv,
  type ConnectedPerson,
  type SyncModules,
  type SyncTestEnv,
} from "@/lib/test/sync-kit";

// the signed-in person of the routes this file calls
const session = vi.hoisted(() => ({ user: null as { id: string; email: string; role: "owner" | "member" } | null }));
vi.mock("@/lib/services/auth/session", () => ({
  requireUser: async () => {
    if (!session.user) {
      const { AppError } = await import("@/lib/http/errors");
      throw new AppError("unauthorized", "Sign in first.");
    }
    return session.user;
  },
  currentUser: async () => session.user,
}));

type Route = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
/** A POST from this Ringside's own page (its Origin, as a browser sends it). */
const post = (route: Route, url: string) =>
  route(new Request(`http://localhost${url}`, { method: "POST", headers: { origin: "http://localhost" } }), { params: Promise.resolve({}) });

let t: SyncTestEnv;
let proxy: HoldingProxy;
let m: SyncModules & {
  people: typeof import("@/lib/services/people");
  household: typeof import("@/lib/services/household");
  webhooks: typeof import("@/lib/sync/webhooks");
  inbox: typeof import("@/lib/db/queries/webhook-events");
  links: typeof import("@/lib/services/report-links");
  linkInput: typeof import("@/lib/schemas/report-links");
  imports: typeof import("@/lib/db/queries/imports");
  importStatus: typeof import("@/lib/import/status");
  importRun: typeof import("@/lib/import/run");
  spoolDir: typeof import("@/lib/import/spool-dir");
  users: typeof import("@/lib/db/queries/users");
};

beforeAll(async () => {
  // a request times out only long after a test would have seen it given up (a timeout is not an abort)
  t = await startSyncTestEnv({ historyDays: 40, pageSize: 7 }, { RING_REQUEST_TIMEOUT_MS: "300000" });
  proxy = await startHoldingProxy(t.url);
  m = {
    ...(await importSyncModules()),
    people: await import("@/lib/services/people"),
    household: await import("@/lib/services/household"),
    webhooks: await import("@/lib/sync/webhooks"),
    inbox: await import("@/lib/db/queries/webhook-events"),
    links: await import("@/lib/services/report-links"),
    linkInput: await import("@/lib/schemas/report-links"),
    imports: await import("@/lib/db/queries/imports"),
    importStatus: await import("@/lib/import/status"),
    importRun: await import("@/lib/import/run"),
    spoolDir: await import("@/lib/import/spool-dir"),
    users: await import("@/lib/db/queries/users"),
  };
});

afterEach(async () => {
  await m.scheduler.replaceScheduler(null);
  setClock(undefined);
});

afterAll(async () => {
  await proxy?.close();
  await t?.close();
});

/** An engine whose requests go through the proxy. */
const engine = () => new m.engine.SyncEngine({ clientOptions: { baseUrl: proxy.url, backoff: FAST_BACKOFF } });

type InFlight = { page: Hold; fetch: Hold; settled: Promise<unknown> };

/**
 * The person's sync in flight: the daily_sleep backfill waits for its first page's answer, and a
 * webhook batch (one notification about a readiness document) waits for the document's answer.
 */
async function syncInFlight(p: ConnectedPerson): Promise<InFlight> {
  const doc = (await emulatorDocuments(t, p.ringUserId, "daily_readiness")).at(-1)!;
  const page = proxy.hold("/v2/usercollection/daily_sleep", { count: 1 });
  const fetch = proxy.hold(`/v2/usercollection/daily_readiness/${String(doc.id)}`, { count: 1 });
  await m.state.ensureSyncStates(p.userId, m.resources.SYNC_COLLECTIONS);
  const e = engine();
  const backfill = e.backfillCollection(p.userId, "daily_sleep").catch((err: unknown) => err);
  await m.inbox.recordWebhookEvent({
    dedupeKey: `deletes-${p.userId}`,
    ringUserId: p.ringUserId,
    dataType: "daily_readiness",
    eventType: "update",
    objectId: String(doc.id),
    eventTime: null,
  });
  const drain = m.webhooks.drainWebhookEvents(e, { inflight: new Set() }, 4).catch((err: unknown) => err);
  await page.arrived();
  await fetch.arrived();
  return { page, fetch, settled: Promise.all([backfill, drain]) };
}

/** A minute of the scheduler (its housekeeping every 30 s, on a clock that is moved), then every job it started finished. */
async function aMinuteLater(): Promise<void> {
  const manual = new ManualClock(clock.now());
  setClock(manual);
  const s = new m.scheduler.Scheduler(engine(), { idleMs: 20, housekeepingMs: 30_000 });
  await m.scheduler.replaceScheduler(s);
  await waitFor("the first housekeeping", () => s.housekeepingRuns >= 1);
  for (let run = 2; run <= 3; run++) {
    await manual.advance(30_000);
    s.wake();
    await waitFor(`housekeeping ${run}`, () => s.housekeepingRuns >= run);
  }
  await s.settled();
  await m.scheduler.replaceScheduler(null);
}

/** The tables that still name the person (their ids, their ring account), with row counts. */
const rowsOf = (p: ConnectedPerson) => rowsNaming([p.userId, p.ringUserId, p.accountId]);

/** The person made a member of a household whose owner is someone else; the owner's id. */
async function asMember(p: ConnectedPerson): Promise<string> {
  await m.db.db.user.update({ where: { id: p.userId }, data: { role: "member" } });
  const owner = await m.db.db.user.create({ data: { email: uniqueEmail("owner"), role: "owner" } });
  return owner.id;
}

const OPERATIONS = {
  '"Delete all my data"': {
    act: (p: ConnectedPerson) => m.people.deleteAllMyData(p.userId),
    // the person stays (their sign-in, their ring connection), and so do the settings nothing synced
    remains: { User: 1, Account: 1 },
  },
  '"Disconnect" with the data deleted': {
    act: (p: ConnectedPerson) => m.household.disconnectRingAccount(p.userId, "delete"),
    remains: { User: 1, Account: 1 },
  },
  "the owner's removal of a member": {
    act: async (p: ConnectedPerson) => {
      const owner = await asMember(p);
      await m.household.removeMember(owner, p.userId, { beforeDelete: m.importStatus.forgetImportsOf });
    },
    remains: {},
  },
} as const;

describe("a delete while the person's sync is in flight", () => {
  for (const [name, op] of Object.entries(OPERATIONS)) {
    it(`${name}: the requests in flight are given up, nothing is written after it, nothing comes back a minute later`, async () => {
      const p = await connectPerson(t);
      const flight = await syncInFlight(p);
      await op.act(p);
      // the running sync is stopped where it is: both requests given up by the app (its abort signal)
      await waitFor("both held requests given up by the app", () => flight.page.counts().abandoned === 1 && flight.fetch.counts().abandoned === 1, {
        timeoutMs: 60_000,
      });
      flight.page.release();
      flight.fetch.release();
      await flight.settled;
      expect(await rowsOf(p)).toEqual(op.remains);
      await aMinuteLater();
      expect(await rowsOf(p)).toEqual(op.remains);
      expect(await m.state.listSyncStates(p.userId)).toEqual([]);
    });
  }

  it("a delete made by another process (no abort reaches this one): the answers released after it store nothing", async () => {
    const p = await connectPerson(t);
    const flight = await syncInFlight(p);
    // what "Delete all my data" writes, from another process: the fence alone must hold
    await m.users.deleteUserData(p.userId, p.ringUserId);
    flight.page.release();
    flight.fetch.release();
    await flight.settled;
    expect(flight.page.counts().delivered + flight.fetch.counts().delivered).toBe(2);
    expect(await rowsOf(p)).toEqual({ User: 1, Account: 1 });
    expect(await m.state.listSyncStates(p.userId)).toEqual([]);
  });
});

describe("a delete made by another process", () => {
  it("stops this process's running job at its heartbeat: its request in flight is given up", async () => {
    const p = await connectPerson(t);
    await m.state.ensureSyncStates(p.userId, m.resources.SYNC_COLLECTIONS);
    const page = proxy.hold("/v2/usercollection/daily_sleep", { count: 1 });
    await m.jobs.enqueueJob({ kind: "backfill", userId: p.userId, collection: "daily_sleep" });
    // a short lease: the job's heartbeat (which renews it and reads the person's sync generation) comes every second
    const s = new m.scheduler.Scheduler(engine(), { idleMs: 20, housekeepingMs: 3_600_000, leaseMs: 3_000 });
    await m.scheduler.replaceScheduler(s);
    await page.arrived();
    // what "Delete all my data" writes, from another process: no abort of this one's syncs is called
    await m.users.deleteUserData(p.userId, p.ringUserId, { pauseSync: true });
    await waitFor("the held request given up by the scheduler's job", () => page.counts().abandoned === 1, { timeoutMs: 60_000 });
    page.release();
    await s.settled();
    expect(await rowsOf(p)).toEqual({ User: 1, Account: 1 });
  });
});

describe('"Delete all my data" means deleted', () => {
  it("revokes the person's share links (410), removes their interrupted import and its spool, and syncs nothing until they ask again", async () => {
    const p = await connectPerson(t);
    await engine().backfillUser(p.userId, ["daily_sleep"]);
    const input = m.linkInput.createReportLinkInputSchema.parse({ query: "from=2026-01-01&to=2026-02-01", expiresDays: 30, label: "" });
    const { secret } = await m.links.createReportLink(p.userId, input);
    await m.links.openReportLink(secret, { view: true });
    // an interrupted import, resumable from its spool
    const spool = m.spoolDir.importSpoolDir(`deletes-${p.userId}`);
    fs.mkdirSync(spool, { recursive: true });
    fs.writeFileSync(path.join(spool, "upload.csv"), "timestamp,bpm\n");
    await m.imports.saveImportState(p.userId, {
      id: `deletes-${p.userId}`,
      status: "interrupted",
      dryRun: false,
      kind: "csv",
      file: "upload.csv",
      rows: 0,
      totalRows: 1,
      startedAt: clock.now(),
      phaseStartedAt: clock.now(),
      checkpoint: 0,
      spoolDir: spool,
      sources: [{ name: "upload.csv", path: path.join(spool, "upload.csv"), kind: "csv" }],
      message: "The server stopped while storing.",
      options: { replaceNotes: false },
    });

    await m.people.deleteAllMyData(p.userId);

    const opened = await m.links.openReportLink(secret, { view: true }).catch((err: unknown) => err);
    expect(opened).toBeInstanceOf(AppError);
    expect((opened as AppError).status).toBe(410);
    expect(fs.existsSync(spool)).toBe(false);
    expect(await m.imports.readImportState(p.userId)).toBeUndefined();
    await expect(m.importRun.resumeImport(p.userId)).rejects.toMatchObject({ code: "conflict" });

    // nothing syncs: not the housekeeping, not "Sync now", not a notification
    await aMinuteLater();
    await m.index.enqueueSyncNow(p.userId);
    expect(await m.jobs.listActiveJobs(p.userId)).toEqual([]);
    expect(await m.state.listSyncStates(p.userId)).toEqual([]);
    expect(await rowsOf(p)).toEqual({ User: 1, Account: 1, report_link: 1 });
  });

  it('"Download my history again" (POST /api/sync/history) starts the sync again; until then "Sync now" answers 409', async () => {
    const p = await connectPerson(t);
    session.user = { id: p.userId, email: p.email, role: "owner" };
    const syncNow = (await import("@/app/api/sync/route")).POST as unknown as Route;
    const again = (await import("@/app/api/sync/history/route")).POST as unknown as Route;
    // not paused: nothing to download again
    expect((await post(again, "/api/sync/history")).status).toBe(409);
    await m.people.deleteAllMyData(p.userId);
    const refused = await post(syncNow, "/api/sync");
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/Download my history again/);
    expect(await m.jobs.listActiveJobs(p.userId)).toEqual([]);

    const res = await post(again, "/api/sync/history");
    expect(res.status).toBe(202);
    expect(((await res.json()) as { historyDeleted: boolean }).historyDeleted).toBe(false);
    const queued = await m.jobs.listActiveJobs(p.userId);
    expect(new Set(queued.map((j) => `${j.kind}:${j.collection ?? ""}`))).toEqual(
      new Set([...m.resources.SYNC_COLLECTIONS.map((c) => `backfill:${c}`), "personal_info:"]),
    );
    expect((await m.state.listSyncStates(p.userId)).length).toBe(m.resources.SYNC_COLLECTIONS.length);
    expect((await post(again, "/api/sync/history")).status).toBe(409);
    // and the history comes back
    expect((await engine().backfillCollection(p.userId, "daily_sleep")).result).toBe("done");
    expect((await m.docs.collectionSummary("daily_sleep", p.userId)).documents).toBeGreaterThan(0);
    expect((await post(syncNow, "/api/sync")).status).toBe(202);
    session.user = null;
  });
});
