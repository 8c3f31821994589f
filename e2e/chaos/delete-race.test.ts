// 14. Deletes in flight (in this process, on SQLite and again on PostgreSQL in the chaos-postgres
// project): rounds of "Delete all my data", "Disconnect" with the data deleted and the owner's
// removal of a member, each made while the person's backfill has a page in flight and a webhook
// batch a document fetch in flight (their answers held at a proxy in front of the emulator; which
// collection, which page and which document are the seed's choice), while another person of the
// household syncs beside them. Every other round the delete is served by another process sharing
// the database (no abort reaches this one: the fence alone must hold); otherwise here, where the
// requests in flight must be given up. After the held answers are released and a minute of the
// scheduler on a moved clock, the person has no row in any table the delete empties and no sync
// state, the other person's documents equal the emulator's, and after "Delete all my data" the
// person's share link answers 410 and no spool of theirs is left.
import crypto from "node:crypto";
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clock, ManualClock, setClock } from "@/lib/clock";
import { AppError } from "@/lib/http/errors";
import type { SyncCollection } from "@/lib/resources";
import { startHoldingProxy, type HoldingProxy } from "@/lib/test/holding-proxy";
import { rowsNaming } from "@/lib/test/person-rows";
import { diffDocuments, summarize, waitFor } from "./support/app-db";
import { startChaosEmulator, type Emulator } from "./support/emulator";
import { CHAOS_CLIENT, CHAOS_LOG_DIR, pick } from "./support/env";
import { recordFigures, rng } from "./support/figures";
import { connectMintedPerson, useEmulatorInProcess, type ConnectedPerson } from "./support/in-process";

const ROUNDS = pick(3, 12);
const OPERATIONS = ["delete", "disconnect", "remove"] as const;
type Operation = (typeof OPERATIONS)[number];
/** Collections with a document on most days: a page of theirs is sure to come. */
const HELD = ["daily_sleep", "daily_readiness", "daily_activity", "daily_stress", "sleep", "heartrate"] as const satisfies readonly SyncCollection[];
/** Collections whose documents a webhook names. */
const NOTIFIED = ["daily_sleep", "daily_readiness", "daily_activity"] as const satisfies readonly SyncCollection[];
/** What stays of the person after each delete (their sign-in and connection after their own). */
const REMAINS: Record<Operation, Record<string, number>> = {
  delete: { User: 1, Account: 1, report_link: 1 },
  disconnect: { User: 1, Account: 1, report_link: 1 },
  remove: {},
};

let emu: Emulator;
let proxy: HoldingProxy;
let app: {
  db: typeof import("@/lib/test/prisma");
  tokens: typeof import("@/lib/ring/tokens");
  engine: typeof import("@/lib/sync/engine");
  scheduler: typeof import("@/lib/sync/scheduler");
  webhooks: typeof import("@/lib/sync/webhooks");
  inbox: typeof import("@/lib/db/queries/webhook-events");
  state: typeof import("@/lib/db/queries/sync-state");
  docs: typeof import("@/lib/db/queries/ring-documents");
  people: typeof import("@/lib/services/people");
  household: typeof import("@/lib/services/household");
  importStatus: typeof import("@/lib/import/status");
  links: typeof import("@/lib/services/report-links");
  linkInput: typeof import("@/lib/schemas/report-links");
  imports: typeof import("@/lib/db/queries/imports");
  spoolDir: typeof import("@/lib/import/spool-dir");
};
const random = rng();
const choose = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
const figures = { rounds: [] as Array<Record<string, unknown>> };

beforeAll(async () => {
  emu = await startChaosEmulator({ port: 0, historyDays: 60, pageSize: 3, webhookDelayMs: 0 });
  // a request times out only long after a round would have seen it given up (a timeout is not an abort)
  useEmulatorInProcess(emu, { requestTimeoutMs: 300_000 });
  proxy = await startHoldingProxy(emu.url);
  app = {
    db: await import("@/lib/test/prisma"),
    tokens: await import("@/lib/ring/tokens"),
    engine: await import("@/lib/sync/engine"),
    scheduler: await import("@/lib/sync/scheduler"),
    webhooks: await import("@/lib/sync/webhooks"),
    inbox: await import("@/lib/db/queries/webhook-events"),
    state: await import("@/lib/db/queries/sync-state"),
    docs: await import("@/lib/db/queries/ring-documents"),
    people: await import("@/lib/services/people"),
    household: await import("@/lib/services/household"),
    importStatus: await import("@/lib/import/status"),
    links: await import("@/lib/services/report-links"),
    linkInput: await import("@/lib/schemas/report-links"),
    imports: await import("@/lib/db/queries/imports"),
    spoolDir: await import("@/lib/import/spool-dir"),
  };
});

afterAll(async () => {
  await app?.scheduler.replaceScheduler(null);
  setClock(undefined);
  await proxy?.close();
  await app?.db.db.$disconnect();
  await emu?.close();
});

/** An engine whose requests go through the proxy. */
const engine = () => new app.engine.SyncEngine({ clientOptions: { baseUrl: proxy.url, backoff: { baseMs: 20, maxMs: 200, maxRetries: 6 } } });

const person = (tag: string) => connectMintedPerson(app, emu, { tag, expiresAt: Math.floor(clock.now() / 1000) + 86_400 });

/** The delete, served by another process sharing the database (e2e/chaos/support/deleter.ts). */
function deleteInAnotherProcess(op: Operation, userId: string, ownerId: string): Promise<void> {
  const logFile = path.join(CHAOS_LOG_DIR, `deleter-${process.pid}-${crypto.randomUUID().slice(0, 8)}.log`);
  const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", "e2e/chaos/support/deleter.ts"], {
    cwd: path.resolve("."),
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      RINGSIDE_NOW: process.env.RINGSIDE_NOW,
      NODE_ENV: "production",
      LOG_LEVEL: "debug",
      DATABASE_URL: process.env.DATABASE_URL,
      DATA_DIR: process.env.DATA_DIR,
      TOKEN_ENCRYPTION_KEY: process.env.TOKEN_ENCRYPTION_KEY,
      AUTH_SECRET: process.env.AUTH_SECRET,
      RING_API_BASE_URL: emu.url,
      RING_CLIENT_ID: CHAOS_CLIENT.client_id,
      RING_CLIENT_SECRET: CHAOS_CLIENT.client_secret,
      OP: op,
      USER_ID: userId,
      OWNER_ID: ownerId,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (d: Buffer) => {
    out += d.toString();
    fs.appendFileSync(logFile, d);
  });
  child.stderr.on("data", (d: Buffer) => fs.appendFileSync(logFile, d));
  return new Promise((resolve, reject) =>
    child.once("close", (code) => (code === 0 ? resolve() : reject(new Error(`the deleter exited with ${code}: ${out.slice(-500)}`)))),
  );
}

/** The delete, served here as the app serves it. */
async function deleteHere(op: Operation, userId: string, ownerId: string): Promise<void> {
  if (op === "delete") await app.people.deleteAllMyData(userId);
  else if (op === "disconnect") await app.household.disconnectRingAccount(userId, "delete");
  else await app.household.removeMember(ownerId, userId, { beforeDelete: app.importStatus.forgetImportsOf });
}

/** A notification about one of the person's documents, recorded as the receiver records it; the document's path at the service. */
async function notify(p: ConnectedPerson, collection: (typeof NOTIFIED)[number]): Promise<string> {
  const doc = choose(await emu.documents(p.ringUserId, collection));
  await app.inbox.recordWebhookEvent({
    dedupeKey: `delete-race-${p.userId}-${String(doc.id)}`,
    ringUserId: p.ringUserId,
    dataType: collection,
    eventType: "update",
    objectId: String(doc.id),
    eventTime: null,
  });
  return `/v2/usercollection/${collection}/${String(doc.id)}`;
}

/** An interrupted import with its spool, and an open share link: what "Delete all my data" must not leave. */
async function plantLinkAndSpool(userId: string): Promise<{ secret: string; spool: string }> {
  const input = app.linkInput.createReportLinkInputSchema.parse({ query: "from=2026-01-01&to=2026-02-01", expiresDays: 30, label: "" });
  const { secret } = await app.links.createReportLink(userId, input);
  const id = `delete-race-${userId}`;
  const spool = app.spoolDir.importSpoolDir(id);
  fs.mkdirSync(spool, { recursive: true });
  fs.writeFileSync(path.join(spool, "upload.csv"), "timestamp,bpm\n");
  await app.imports.saveImportState(userId, {
    id,
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
    message: null,
    options: { replaceNotes: false },
  });
  return { secret, spool };
}

/** A minute of the scheduler (its housekeeping every 30 s, on a clock that is moved), then every job it started finished. */
async function aMinuteLater(): Promise<void> {
  const manual = new ManualClock(clock.now());
  setClock(manual);
  try {
    const s = new app.scheduler.Scheduler(engine(), { idleMs: 20, housekeepingMs: 30_000 });
    await app.scheduler.replaceScheduler(s);
    await waitFor("the first housekeeping", () => s.housekeepingRuns >= 1);
    for (let run = 2; run <= 3; run++) {
      await manual.advance(30_000);
      s.wake();
      await waitFor(`housekeeping ${run}`, () => s.housekeepingRuns >= run);
    }
    await s.settled();
    await app.scheduler.replaceScheduler(null);
  } finally {
    setClock(undefined);
  }
}

/** A collection's whole backfill, as its job does it: newest first, the recent days, then (run again) the history behind them. */
async function wholeBackfill(e: ReturnType<typeof engine>, userId: string, collection: Parameters<ReturnType<typeof engine>["backfillCollection"]>[1]) {
  for (;;) {
    const outcome = await e.backfillCollection(userId, collection);
    if (!outcome.more) return outcome;
  }
}

describe("[CHAOS 14] deletes in flight", () => {
  it(`${ROUNDS} rounds of a delete with a backfill page and a webhook fetch in flight: nothing of the person is written after it`, async () => {
    const owner = await app.db.db.user.create({ data: { email: `delete-race-owner-${crypto.randomUUID().slice(0, 8)}@example.test`, role: "owner" } });
    for (let round = 0; round < ROUNDS; round++) {
      const op = OPERATIONS[round % OPERATIONS.length]!;
      const elsewhere = round % 2 === 0;
      const victim = await person(`victim-${round}`);
      const other = await person(`other-${round}`);
      const heldCollection = choose(HELD);
      const skip = Math.floor(random() * 2);
      const otherCollection = choose(HELD.filter((c) => c !== heldCollection));
      const planted = op === "remove" ? null : await plantLinkAndSpool(victim.userId);

      // the person's backfill page and their webhook document in flight; the other person syncing beside them
      const page = proxy.hold(`/v2/usercollection/${heldCollection}`, { count: 1, skip });
      const fetch = proxy.hold(await notify(victim, choose(NOTIFIED)), { count: 1 });
      const otherNotified = choose(NOTIFIED);
      await notify(other, otherNotified);
      const e = engine();
      const victimBackfill = wholeBackfill(e, victim.userId, heldCollection).catch((err: unknown) => err);
      const otherBackfill = wholeBackfill(e, other.userId, otherCollection);
      const drain = app.webhooks.drainWebhookEvents(e, { inflight: new Set() }, 4);
      await page.arrived();
      await fetch.arrived();

      if (elsewhere) await deleteInAnotherProcess(op, victim.userId, owner.id);
      else {
        await deleteHere(op, victim.userId, owner.id);
        await waitFor("the requests in flight given up", () => page.counts().abandoned === 1 && fetch.counts().abandoned === 1, { timeoutMs: 60_000 });
      }
      page.release();
      fetch.release();
      await Promise.all([victimBackfill, otherBackfill, drain]);
      const afterRelease = await rowsNaming([victim.userId, victim.ringUserId, victim.accountId]);
      expect({ round, op, elsewhere, afterRelease }).toEqual({ round, op, elsewhere, afterRelease: REMAINS[op] });
      await aMinuteLater();
      const aMinuteOn = await rowsNaming([victim.userId, victim.ringUserId, victim.accountId]);
      figures.rounds.push({ op, elsewhere, heldCollection, skip, ...page.counts(), afterRelease, aMinuteOn });
      expect({ round, op, elsewhere, aMinuteOn }).toEqual({ round, op, elsewhere, aMinuteOn: REMAINS[op] });
      expect(await app.state.listSyncStates(victim.userId)).toEqual([]);
      if (planted) {
        const opened = await app.links.openReportLink(planted.secret, { view: true }).catch((err: unknown) => err);
        expect((opened as AppError).status).toBe(410);
        expect(fs.existsSync(planted.spool)).toBe(false);
      }
      // the other person's sync went on: what it fetched equals the emulator's
      for (const c of [otherCollection, otherNotified] as const) {
        if (c === "heartrate") continue;
        const d = diffDocuments(c, await emu.documents(other.ringUserId, c), await app.docs.listRawDocuments(c, other.userId));
        if (c === otherCollection) expect(summarize(d)).toMatchObject({ missing: 0, extra: 0, changed: 0, duplicates: 0 });
        else expect(d.extra.length + d.changed.length + d.duplicates).toBe(0);
      }
    }
    recordFigures("delete-race", figures);
  });
});
