// 13. Surroundings (production processes): the readers of its output die while requests that
// log keep arriving; SIGTERM in each state (idle with dead pipes, mid-backfill, database down);
// `npm run demo` with its output closed and then killed with SIGKILL; PostgreSQL stopped while
// the app serves; the disk full under SQLite. Each case asserts CPU (at most 5 % of a core per
// process after the readers die or while the database is away), exit time (at most 10 s, no
// process left), status codes (503 with Retry-After while the database is away) and nothing
// lost or doubled.
import { clock } from "@/lib/clock";
import { freePorts } from "@/lib/test/processes.mjs";
import crypto from "node:crypto";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import type Database from "better-sqlite3";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { startPostgresServer } from "@/lib/test/postgres-server.mjs";
import { NOTE_TEXT_MAX } from "@/lib/schemas/requests";
import { countStored, openAppDb, SYNCED, waitFor, diffWithEmulator, summarize, COLLECTIONS } from "./support/app-db";
import { connect } from "./support/browser";
import { startChaosEmulator } from "./support/emulator";
import { ALLOWED_DOMAIN, APP_PORT, CHAOS_CLIENT, CHAOS_DATA_DIR, pick } from "./support/env";
import { recordFigures } from "./support/figures";
import { ensureBuild, prodEnv, serverPid, startProdApp, type ProdApp } from "./support/prod-app";
import { alive, cpuPercent, killGroup, listening, processesWith, processName, processTree, spawnPiped, until, waitGone } from "./support/processes";
import { signWebhook } from "@/lib/emulator/webhooks";
import { DEFAULT_SEED } from "@/lib/emulator/config";
import { generateDay } from "@/lib/emulator/generator";
import { userIdFor } from "@/lib/emulator/store";
import { suiteEmulatorConfig } from "@/lib/test/suite-env.mjs";

/**
 * The window CPU is measured over after the readers die or the database goes: 15 s in both forms.
 * An idle server's CPU is V8's major collections after activity (its memory reducer: some 110 ms
 * of CPU on the main and the collector's threads, seen every ~10 s once the database went, the rest
 * of each second under 1 %), so a window of 4 or 8 s was one or two of them, and on a loaded
 * machine, where each costs about twice that, it read 5-6 % (three full runs of eight).
 */
const CPU_WINDOW_MS = 15_000;
/** How long PostgreSQL stays stopped (30 s in the full form). */
const OUTAGE_MS = pick(6_000, 30_000);
const CPU_LIMIT = 5;
const EXIT_LIMIT_MS = 10_000;

const figures: Record<string, unknown> = {};
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
afterAll(() => recordFigures("surroundings", figures));

/** Requests that make the server log a line each (an OAuth callback without its state: refused, logged). */
function loggingLoad(url: string, perSecond: number) {
  return async (signal: AbortSignal) => {
    let sent = 0;
    let served = 0;
    // batches every 100 ms at 10 a second and more, one request at a time below
    const everyMs = perSecond >= 10 ? 100 : Math.round(1000 / perSecond);
    const size = perSecond >= 10 ? Math.round(perSecond / 10) : 1;
    while (!signal.aborted) {
      const batch = Array.from({ length: size }, () =>
        fetch(`${url}/api/auth/callback/ring?code=chaos-${sent++}`, { redirect: "manual", signal: AbortSignal.timeout(5_000) })
          .then((r) => (r.status < 500 ? served++ : 0))
          .catch(() => undefined),
      );
      await Promise.all([...batch, new Promise((r) => setTimeout(r, everyMs))]);
    }
    return { sent, served };
  };
}

/** An address of the admitted domain whose generated person gets a new or changed night on `day` at its first sync (planted, not hoped for). */
function emailWithNightOn(day: string): string {
  for (let i = 0; i < 5_000; i++) {
    const email = `outage-${crypto.randomBytes(4).toString("hex")}@${ALLOWED_DOMAIN}`;
    // the emulator's own seed: the run's (suiteEmulatorConfig), which a replay or CI may set
    const seed = suiteEmulatorConfig().seed ?? DEFAULT_SEED;
    const opts = { seed, userKey: userIdFor(seed, email) };
    const [r0, r1] = [generateDay(opts, day, 0).daily_sleep, generateDay(opts, day, 1).daily_sleep];
    if (r1.length > 0 && JSON.stringify(r0) !== JSON.stringify(r1)) return email;
  }
  throw new Error(`no generated person with a night changing on ${day}`);
}

const over = (cpu: Record<number, number | null>) =>
  Object.entries(cpu)
    .filter(([, v]) => v !== null && v > CPU_LIMIT)
    .map(([pid, v]) => [processName(Number(pid)), v]);
const named = (cpu: Record<number, number | null>) => Object.fromEntries(Object.entries(cpu).map(([pid, v]) => [`${processName(Number(pid))}#${pid}`, v]));

/**
 * Waits until the work already asked of `pids` is done: a second in which each uses under half the
 * limit (30 s at most unless told: a process that spins never settles, and the case fails here naming it).
 * On a loaded machine a burst's own requests, their garbage and V8's compiles ran on into a
 * fixed 1-2 s pause and then into the window measured, which is about what the process does
 * next on its own, not about the burst.
 */
async function settled(pids: number[], timeoutMs = 30_000): Promise<void> {
  let last: Record<number, number | null> = {};
  try {
    await until(
      "the processes finish the work asked of them",
      async () => Object.values((last = await cpuPercent(pids, 1_000))).every((v) => v === null || v < CPU_LIMIT / 2),
      timeoutMs,
    );
  } catch (err) {
    throw new Error(`${(err as Error).message}; the last second: ${JSON.stringify(named(last))}`);
  }
}

describe("[CHAOS 13] surroundings", () => {
  it("the readers of the server's output die under logging load: it keeps serving, uses ≤ 5 % of a core, and SIGTERM ends it (dead pipes) within 10 s", async () => {
    await ensureBuild();
    const dataDir = path.join(CHAOS_DATA_DIR, "surroundings-pipes");
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.mkdirSync(dataDir, { recursive: true });
    const url = `http://localhost:${APP_PORT}`;
    const app = spawnPiped(["lib/server/start.mjs"], prodEnv(dataDir, { LOG_LEVEL: "debug" }));
    cleanups.push(() => killGroup(app.pid));
    await until("the app answers", async () => (await fetch(`${url}/api/health`).catch(() => null))?.ok === true, 90_000);
    const server = serverPid(app.pid)!;
    expect(server).toBeGreaterThan(0);

    // logging load while someone reads: the lines arrive
    const before = app.lines.length;
    await cpuPercent([], 1_000, loggingLoad(url, 50));
    await until("the logged lines reach the reader", () => app.lines.length - before >= 5, 10_000);

    // the readers die; requests that log keep arriving (the first second hard, then one every 2 s)
    app.closeReaders();
    await cpuPercent([], 1_000, loggingLoad(url, 50));
    await settled([app.pid, server]); // what the burst left to do
    let load = { sent: 0, served: 0 };
    // a logged request every 2 s while measured: each is an OAuth callback through Auth.js, some
    // 40 ms of CPU on a loaded machine, so at one or two a second the requests themselves came
    // near the 5 % a dead pipe may cost (4.4 % and 5.x % seen; the spin this case catches costs a
    // whole core)
    const cpu = await cpuPercent([app.pid, server], CPU_WINDOW_MS, async (signal) => (load = await loggingLoad(url, 0.5)(signal)));
    expect(load.served).toBe(load.sent);
    expect({ over: over(cpu) }).toEqual({ over: [] });
    expect((await fetch(`${url}/api/health`)).status).toBe(200);

    // SIGTERM to the launcher (its pipes dead): everything gone within 10 s, the port free
    const tree = processTree(app.pid);
    process.kill(app.pid, "SIGTERM");
    const exitMs = await waitGone(tree, 15_000);
    expect(exitMs).not.toBeNull();
    expect(exitMs!).toBeLessThanOrEqual(EXIT_LIMIT_MS);
    expect((await app.exited).code).toBe(0);
    expect(await listening(APP_PORT)).toBe(false);
    figures.deadPipes = { cpuPercent: named(cpu), requestsAfterReadersDied: load.sent, sigtermExitMs: exitMs, processes: tree.length };
  });

  it(
    "SIGTERM mid-backfill: the launcher and its server are gone within 10 s; started again, the backfill ends with every document once",
    { timeout: pick(300_000, 600_000) },
    async () => {
      const emu = await startChaosEmulator({ pageSize: 5, historyDays: pick(200, 700) });
      cleanups.push(() => emu.close());
      const app = await startProdApp({ name: "surroundings-sigterm" });
      cleanups.push(() => app.stop());
      const email = `sigterm-${crypto.randomBytes(3).toString("hex")}@${ALLOWED_DOMAIN}`;
      const ring = await emu.createUser(email, { history_days: pick(200, 700) });
      let expected = 0;
      for (const c of COLLECTIONS) expected += (await emu.documents(ring.user_id, c)).length;
      await connect(email);
      const db: Database.Database = openAppDb(app.dbFile);
      cleanups.push(() => void db.close());
      const { id: userId } = db.prepare(`SELECT id FROM "User" WHERE ringUserId = ?`).get(ring.user_id) as { id: string };
      await waitFor("a fifth of the history stored", () => countStored(db, userId) >= expected / 5, { timeoutMs: 120_000, intervalMs: 10 });

      const tree = processTree(app.pid!);
      const storedAtSignal = countStored(db, userId);
      process.kill(app.pid!, "SIGTERM");
      const exitMs = await waitGone(tree, 15_000);
      expect(storedAtSignal).toBeLessThan(expected);
      expect(exitMs).not.toBeNull();
      expect(exitMs!).toBeLessThanOrEqual(EXIT_LIMIT_MS);
      expect(app.logs()).toMatch(/"msg":"ringside is stopping"/);

      await app.stop(); // (it is gone: this only lets the test process see its exit)
      await app.start();
      await waitFor(
        "every collection backfilled",
        () =>
          (db.prepare(`SELECT COUNT(*) AS n FROM sync_state WHERE userId = ? AND backfillDoneAt IS NOT NULL`).get(userId) as { n: number }).n === SYNCED.length,
        { timeoutMs: 240_000, intervalMs: 200 },
      );
      for (const c of COLLECTIONS) {
        const d = summarize(await diffWithEmulator(db, emu, userId, ring.user_id, c));
        expect(d).toEqual({ ...d, missing: 0, extra: 0, duplicates: 0, stored: d.expected });
      }
      expect(countStored(db, userId)).toBe(expected);
      figures.midBackfill = { documents: expected, storedAtSignal, sigtermExitMs: exitMs, processes: tree.length };
    },
  );

  it(
    "npm run demo with its output closed keeps serving at ≤ 5 % of a core; killed with SIGKILL, its emulator and app follow within 10 s and free their ports",
    { timeout: pick(240_000, 600_000) },
    async () => {
      ensureBuild();
      const [appPort, emulatorPort] = (await freePorts(2)) as [number, number];
      const dataDir = path.join(CHAOS_DATA_DIR, "surroundings-demo");
      fs.rmSync(dataDir, { recursive: true, force: true });
      const marker = `RINGSIDE_CHAOS_DEMO=${crypto.randomBytes(4).toString("hex")}`;
      const demo = spawnPiped(["lib/demo/run.mjs"], {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: process.env.HOME ?? "/tmp",
        PORT: String(appPort),
        RING_EMULATOR_PORT: String(emulatorPort),
        // the suite's build (the demo builds none) and its clock
        RINGSIDE_BUILD_DIR: process.env.RINGSIDE_BUILD_DIR,
        RINGSIDE_NOW: process.env.RINGSIDE_NOW,
        DATA_DIR: dataDir,
        HOST: "127.0.0.1",
        LOG_LEVEL: "debug",
        NODE_ENV: "production",
        [marker.split("=")[0]!]: marker.split("=")[1]!,
      });
      cleanups.push(() => {
        killGroup(demo.pid);
        for (const p of processesWith(marker)) killGroup(p);
      });
      const url = `http://localhost:${appPort}`;
      await until("the demo's app answers", async () => (await fetch(`${url}/api/health`).catch(() => null))?.ok === true, 120_000);
      const tree = processTree(demo.pid);
      expect(tree.length).toBeGreaterThanOrEqual(4); // demo, emulator, launcher, server

      // the app settles after its start (first compiles, the background work's first pass)
      await settled(tree, 60_000);
      demo.closeReaders();
      await cpuPercent([], 1_000, loggingLoad(url, 50));
      await settled(tree); // what the burst left to do
      // the readers are gone: nothing of the demo's spins, and its app still answers
      const cpu = await cpuPercent(tree, CPU_WINDOW_MS);
      expect((await fetch(`${url}/api/health`)).status).toBe(200);
      expect(tree.every(alive)).toBe(true);
      expect({ over: over(cpu) }).toEqual({ over: [] });

      // the demo runner dies without a word: what it started notices and goes
      process.kill(demo.pid, "SIGKILL");
      const rest = tree.filter((p) => p !== demo.pid);
      const exitMs = await waitGone(rest, 15_000);
      expect({ left: rest.filter(alive) }).toEqual({ left: [] });
      expect(exitMs!).toBeLessThanOrEqual(EXIT_LIMIT_MS);
      expect(await listening(appPort)).toBe(false);
      expect(await listening(emulatorPort)).toBe(false);
      expect(processesWith(marker)).toEqual([]);
      figures.demo = { processes: tree.length, cpuPercent: named(cpu), childrenGoneMsAfterSigkill: exitMs };
    },
  );

  it(
    `PostgreSQL stopped for ${OUTAGE_MS / 1000} s: pages 503 with the short page, API 503 with Retry-After, webhooks 503, ≤ 5 % CPU; back within 5 s of its return, nothing lost or doubled; SIGTERM while it is down ends the app within 10 s`,
    { timeout: pick(300_000, 600_000) },
    async () => {
      const t0 = performance.now();
      const phases: Record<string, number> = {};
      const mark = (name: string) => (phases[name] = Math.round(performance.now() - t0));
      const server = await startPostgresServer();
      cleanups.push(() => server.stop());
      mark("postgresStarted");
      const admin = new pg.Client({ connectionString: server.url });
      await admin.connect();
      await admin.query(`CREATE DATABASE chaos_outage`);
      await admin.end();
      const databaseUrl = server.url.replace(/\/postgres$/, "/chaos_outage");
      const emu = await startChaosEmulator({ pageSize: 50, historyDays: 20 });
      cleanups.push(() => emu.close());
      mark("databaseCreated");
      const app: ProdApp = await startProdApp({
        name: "surroundings-postgres",
        env: { DATABASE_URL: databaseUrl, PUBLIC_URL: `http://localhost:${APP_PORT}` },
      });
      cleanups.push(() => app.stop());
      mark("appStarted");
      // the emulator's today (its last day of history), and a person whose night changes then
      const today = (await emu.createUser(`probe-${crypto.randomBytes(3).toString("hex")}@example.test`, { history_days: 1 })).last_day;
      const email = emailWithNightOn(today);
      const ring = await emu.createUser(email, { history_days: 20 });
      const { browser } = await connect(email);
      const q = async <T extends pg.QueryResultRow>(sql: string, ...params: unknown[]) => {
        const c = new pg.Client({ connectionString: databaseUrl });
        await c.connect();
        try {
          return (await c.query<T>(sql, params)).rows;
        } finally {
          await c.end();
        }
      };
      const userId = (await q<{ id: string }>(`SELECT id FROM "User" WHERE "ringUserId" = $1`, ring.user_id))[0]!.id;
      await until(
        "the backfill is done",
        async () =>
          Number((await q<{ n: string }>(`SELECT COUNT(*) AS n FROM sync_state WHERE "userId" = $1 AND "backfillDoneAt" IS NOT NULL`, userId))[0]!.n) ===
          SYNCED.length,
        120_000,
      );
      const sleepsBefore = Number((await q<{ n: string }>(`SELECT COUNT(*) AS n FROM daily_sleep WHERE "userId" = $1`, userId))[0]!.n);
      mark("backfilled");
      // what follows a backfill (the trailing sync, alerts) is done: the server is quiet
      const quietServer = serverPid(app.pid!)!;
      await settled([quietServer], 60_000);

      // the outage
      await server.pause();
      const downAt = performance.now();
      const pages = ["/", "/trends", "/settings", "/sign-in"];
      await until("a page answers 503", async () => (await browser.fetch("/")).status === 503, 5_000);
      for (const p of pages) {
        const res = await browser.fetch(p);
        const html = await res.text();
        expect({ p, status: res.status, friendly: html.includes("The database is not reachable"), retryAfter: res.headers.get("retry-after") }).toEqual({
          p,
          status: 503,
          friendly: true,
          retryAfter: "5",
        });
      }
      for (const p of ["/api/me", "/api/days/latest", "/api/auth/session", "/api/v1/tags"]) {
        const res = await browser.fetch(p);
        const body = (await res.json()) as { error?: { code: string } };
        expect({ p, status: res.status, code: body.error?.code, retryAfter: res.headers.get("retry-after") }).toEqual({
          p,
          status: 503,
          code: "service_unavailable",
          retryAfter: "5",
        });
      }
      // a genuine webhook notification (a new night) is refused with 503, so the ring service tries again
      const event = await emu.sync(ring.user_id, today);
      const night = event.documents.daily_sleep?.[0];
      expect(night).toBeTruthy();
      const body = JSON.stringify({
        event_type: "create",
        data_type: "daily_sleep",
        object_id: night!.id,
        event_time: new Date(clock.now()).toISOString(),
        user_id: ring.user_id,
      });
      const notify = () => {
        // the app's clock (the run's pinned one), which the receiver checks the timestamp against
        const ts = String(Math.floor(clock.now() / 1000));
        return fetch(`${app.url}/api/webhooks/ring`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-oura-timestamp": ts, "x-oura-signature": signWebhook(CHAOS_CLIENT.client_secret, ts, body) },
          body,
        });
      };
      const refusedHook = await notify();
      expect({ status: refusedHook.status, retryAfter: refusedHook.headers.get("retry-after") }).toEqual({ status: 503, retryAfter: "5" });
      const serverProc = serverPid(app.pid!)!;
      await settled([app.pid!, serverProc]); // the requests above finish their work
      const cpu = await cpuPercent([app.pid!, serverProc], CPU_WINDOW_MS);
      const rest = OUTAGE_MS - (performance.now() - downAt);
      if (rest > 0) await cpuPercent([], rest); // the database stays away for the whole outage
      expect({ over: over(cpu) }).toEqual({ over: [] });
      expect((await browser.fetch("/api/health")).status).toBe(503);

      // the database returns: pages and API answer again within 5 s
      mark("outageMeasured");
      await server.resume();
      const backMs = await until(
        "pages and API answer again",
        async () => (await browser.fetch("/")).status === 200 && (await browser.fetch("/api/me")).status === 200,
        5_000,
      );
      // the ring service retries the notification: the night is stored, once
      expect((await notify()).status).toBe(200);
      const newDay = event.day;
      const upstream = (await emu.documents(ring.user_id, "daily_sleep")).length;
      await until(
        "the day synced after the outage is stored",
        async () => Number((await q<{ n: string }>(`SELECT COUNT(*) AS n FROM daily_sleep WHERE "userId" = $1 AND day = $2`, userId, newDay))[0]!.n) >= 1,
        60_000,
      );
      const rows = await q<{ day: string; n: string }>(
        `SELECT day, COUNT(*) AS n FROM daily_sleep WHERE "userId" = $1 GROUP BY day HAVING COUNT(*) > 1`,
        userId,
      );
      expect(rows).toEqual([]);
      const sleepsAfter = Number((await q<{ n: string }>(`SELECT COUNT(*) AS n FROM daily_sleep WHERE "userId" = $1`, userId))[0]!.n);
      expect(sleepsAfter).toBe(upstream);
      expect(sleepsAfter).toBeGreaterThanOrEqual(sleepsBefore);
      expect(app.logs()).toMatch(/the database is not reachable/);
      expect(app.logs()).toMatch(/the database is reachable again/);

      mark("recoveredAndSynced");
      // SIGTERM while the database is down
      await server.pause();
      await until("the outage is noticed", async () => (await browser.fetch("/")).status === 503, 5_000);
      const tree = processTree(app.pid!);
      process.kill(app.pid!, "SIGTERM");
      const exitMs = await waitGone(tree, 15_000);
      expect(exitMs).not.toBeNull();
      expect(exitMs!).toBeLessThanOrEqual(EXIT_LIMIT_MS);
      await server.resume();
      figures.postgresOutage = {
        outageMs: OUTAGE_MS,
        cpuPercent: named(cpu),
        recoveredMsAfterReturn: backMs,
        sleepDocuments: sleepsAfter,
        duplicates: 0,
        sigtermWhileDownExitMs: exitMs,
        phasesMs: phases,
      };
    },
  );

  it(
    "the disk full (SQLite on a small filesystem): writes answer 503 with Retry-After and a log line, reads go on, no corrupted file; freed, the same write succeeds once",
    { timeout: pick(240_000, 600_000) },
    async () => {
      // a tmpfs of its own as the data directory (the suite runs as root, as CI does)
      const mount = path.join(CHAOS_DATA_DIR, "surroundings-disk-full");
      fs.mkdirSync(mount, { recursive: true });
      try {
        execFileSync("umount", [mount], { stdio: "ignore" });
      } catch {
        /* not mounted */
      }
      execFileSync("mount", ["-t", "tmpfs", "-o", "size=24m", "tmpfs", mount]);
      cleanups.push(() => void execFileSync("umount", ["-l", mount]));
      const emu = await startChaosEmulator({ pageSize: 50, historyDays: 10 });
      cleanups.push(() => emu.close());
      const app = await startProdApp({ name: "surroundings-disk-full", keepData: true });
      cleanups.push(() => app.stop());
      const email = `full-${crypto.randomBytes(3).toString("hex")}@${ALLOWED_DOMAIN}`;
      await emu.createUser(email, { history_days: 10 });
      const { browser } = await connect(email);

      // fill the disk
      const filler = path.join(mount, "filler");
      const fd = fs.openSync(filler, "w");
      const chunk = Buffer.alloc(256 * 1024, 1);
      try {
        for (;;) fs.writeSync(fd, chunk);
      } catch (e) {
        expect((e as NodeJS.ErrnoException).code).toBe("ENOSPC");
      }
      fs.closeSync(fd);

      // writes until one fails for want of space (the WAL's free room goes first)
      const note = (day: string) =>
        browser.fetch(`/api/notes/${day}`, {
          method: "PUT",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ text: "x".repeat(Math.min(NOTE_TEXT_MAX, 4000)), tags: ["disk"] }),
        });
      const ok: string[] = [];
      let refused: { day: string; res: Response } | null = null;
      for (let i = 0; i < 400 && !refused; i++) {
        const day = new Date(Date.UTC(2020, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
        const res = await note(day);
        if (res.status === 200) ok.push(day);
        else refused = { day, res };
      }
      expect(refused).not.toBeNull();
      expect(refused!.res.status).toBe(503);
      expect(refused!.res.headers.get("retry-after")).toBe("60");
      expect(((await refused!.res.json()) as { error: { code: string; message: string } }).error).toEqual({
        code: "service_unavailable",
        message: expect.stringMatching(/disk is full/),
      });
      expect(app.logs()).toMatch(/"outage":"full"/);
      // reads go on, and nothing spins
      expect((await browser.fetch("/settings")).status).toBe(200);
      expect((await browser.fetch("/api/me")).status).toBe(200);
      const diskServer = serverPid(app.pid!)!;
      await settled([app.pid!, diskServer]); // the writes above finish their work (their garbage, a major collection)
      const cpu = await cpuPercent([app.pid!, diskServer], CPU_WINDOW_MS);
      expect({ over: over(cpu) }).toEqual({ over: [] });

      // space returns: the same write succeeds, once; the file is whole
      fs.rmSync(filler);
      expect((await note(refused!.day)).status).toBe(200);
      const db = openAppDb(app.dbFile);
      cleanups.push(() => void db.close());
      expect(db.prepare("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
      const stored = db.prepare(`SELECT day, COUNT(*) AS n FROM day_note GROUP BY day`).all() as Array<{ day: string; n: number }>;
      expect(stored.filter((r) => r.n > 1)).toEqual([]);
      expect(stored.map((r) => r.day).sort()).toEqual([...ok, refused!.day].sort());
      figures.diskFull = { notesWritten: ok.length, refusedStatus: 503, retryAfter: 60, cpuPercent: named(cpu), integrity: "ok" };
    },
  );
});
