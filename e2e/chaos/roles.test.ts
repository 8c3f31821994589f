// 11. Roles: one process serves requests (ROLE=web), another runs the sync work (ROLE=worker),
// both on one SQLite file. A person connects through the web process; the worker backfills
// them to exactly the emulator's documents; "Sync now" on the web process is run by the
// worker; while the worker is down the web process keeps serving and the work waits for it.
import crypto from "node:crypto";
import type Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COLLECTIONS, SYNCED, diffWithEmulator, openAppDb, summarize, waitFor } from "./support/app-db";
import { connect } from "./support/browser";
import { startChaosEmulator, type Emulator } from "./support/emulator";
import { ALLOWED_DOMAIN, APP_PORT } from "./support/env";
import { recordFigures } from "./support/figures";
import { startProdApp, type ProdApp } from "./support/prod-app";

let emu: Emulator;
let web: ProdApp | undefined;
let worker: ProdApp | undefined;
let db: Database.Database | undefined;

beforeAll(async () => {
  emu = await startChaosEmulator({ pageSize: 20, historyDays: 60 });
  web = await startProdApp({ name: "roles", env: { ROLE: "web" } });
  worker = await startProdApp({ name: "roles", keepData: true, port: APP_PORT + 1, env: { ROLE: "worker" } });
  db = openAppDb(web.dbFile);
});

afterAll(async () => {
  db?.close();
  await worker?.stop();
  await web?.stop();
  await emu?.close();
});

/** The "background work started" line of a process's log. */
function started(app: ProdApp): Record<string, unknown> {
  const line = app
    .logs()
    .split("\n")
    .find((l) => l.includes('"background work started"'));
  return line ? (JSON.parse(line) as Record<string, unknown>) : {};
}

describe("[CHAOS 11] roles", () => {
  it("web serves, the worker syncs: a backfill to the emulator's documents, Sync now, and a worker restart", async () => {
    expect(started(web!)).toMatchObject({ role: "web", scheduler: false, alerts: false });
    expect(started(worker!)).toMatchObject({ role: "worker", scheduler: true, alerts: true });

    const email = `roles-${crypto.randomBytes(3).toString("hex")}@${ALLOWED_DOMAIN}`;
    const person = await connect(email);
    const user = db!.prepare(`SELECT id AS userId, ringUserId FROM "User" WHERE email = ?`).get(email) as {
      userId: string;
      ringUserId: string;
    };
    const backfilled = () =>
      (db!.prepare(`SELECT COUNT(*) AS n FROM sync_state WHERE userId = ? AND backfillDoneAt IS NOT NULL`).get(user.userId) as { n: number }).n;
    await waitFor("the worker's backfill", () => backfilled() === SYNCED.length, { timeoutMs: 120_000, intervalMs: 200 });
    const diffs = await Promise.all(COLLECTIONS.map((c) => diffWithEmulator(db!, emu, user.userId, user.ringUserId, c)));
    expect(diffs.map(summarize).filter((d) => d.missing || d.extra || d.changed || d.duplicates)).toEqual([]);
    // The backfill ran on the worker: its log has the finished collections, the web process's none.
    const finished = (app: ProdApp) =>
      app
        .logs()
        .split("\n")
        .filter((l) => l.includes('"backfill finished"')).length;
    expect(finished(worker!)).toBeGreaterThanOrEqual(SYNCED.length);
    expect(finished(web!)).toBe(0);

    // Sync now on the web process: accepted there, run by the worker.
    const jobsDone = () => (db!.prepare(`SELECT COUNT(*) AS n FROM job WHERE userId = ? AND status = 'done'`).get(user.userId) as { n: number }).n;
    const doneBefore = jobsDone();
    const sync = await person.browser.fetch("/api/sync", { method: "POST" });
    expect(sync.status).toBe(202);
    await waitFor("the worker to run Sync now", () => jobsDone() > doneBefore, { timeoutMs: 30_000, intervalMs: 100 });

    // The worker goes down: the web process still serves the person, their Sync now waits.
    await worker!.kill();
    const page = await person.browser.fetch("/");
    expect(page.status).toBe(200);
    const waiting = await person.browser.fetch("/api/sync", { method: "POST" });
    expect(waiting.status).toBe(202);
    const queued = () =>
      (db!.prepare(`SELECT COUNT(*) AS n FROM job WHERE userId = ? AND status IN ('queued', 'running')`).get(user.userId) as { n: number }).n;
    expect(queued()).toBeGreaterThan(0);
    // It comes back and takes the waiting work.
    await worker!.start();
    await waitFor("the restarted worker to run the waiting jobs", () => queued() === 0, { timeoutMs: 60_000, intervalMs: 200 });
    expect(finished(web!)).toBe(0);

    recordFigures("roles", {
      collections: SYNCED.length,
      documents: diffs.reduce((n, d) => n + d.stored, 0),
      backfillsFinishedOnWorker: finished(worker!),
      backfillsFinishedOnWeb: finished(web!),
      jobsDone: jobsDone(),
    });
  });
});
