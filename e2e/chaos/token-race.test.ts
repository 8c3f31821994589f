// 3. Token race: many concurrent data reads at the moment the access token expires — in this
// process and in separate processes sharing the database (SQLite's file; again on PostgreSQL in
// the chaos-postgres project) — cause exactly one refresh at the emulator, every read succeeds and the connection stays usable. Also when the service expires
// the token before the app expects it (a 401 storm), and across many expiries during a backfill.
import crypto from "node:crypto";
import { clock } from "@/lib/clock";
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { COLLECTIONS, diffDocuments, summarize } from "./support/app-db";
import { startChaosEmulator, type Emulator } from "./support/emulator";
import { CHAOS_CLIENT, CHAOS_LOG_DIR, pick } from "./support/env";
import { recordFigures } from "./support/figures";
import { connectMintedPerson, useEmulatorInProcess } from "./support/in-process";
import { findLeaks, inProcessLogFile } from "./support/secrets";

const READS_IN_PROCESS = pick(100, 400);
const PROCESSES = pick(2, 4);
const READS_PER_PROCESS = pick(50, 150);
const BACKFILL_DAYS = pick(120, 400);

let emu: Emulator;
let app: {
  db: typeof import("@/lib/test/prisma");
  tokens: typeof import("@/lib/ring/tokens");
  client: typeof import("@/lib/ring/client");
  engine: typeof import("@/lib/sync/engine");
  docs: typeof import("@/lib/db/queries/ring-documents");
};
const figures: Record<string, unknown> = {};
const childLogs: string[] = [];

beforeAll(async () => {
  emu = await startChaosEmulator({ port: 0, tokenTtlS: 3600, historyDays: BACKFILL_DAYS, pageSize: 3 });
  useEmulatorInProcess(emu, { requestTimeoutMs: 10_000 });
  app = {
    db: await import("@/lib/test/prisma"),
    tokens: await import("@/lib/ring/tokens"),
    client: await import("@/lib/ring/client"),
    engine: await import("@/lib/sync/engine"),
    docs: await import("@/lib/db/queries/ring-documents"),
  };
});

afterAll(async () => {
  await app?.db.db.$disconnect();
  await emu?.close();
});

beforeEach(async () => {
  await emu.clearRequests();
});

/** A connected person whose tokens came from the emulator; `expiresAt` is what the app believes. */
function person(at: Emulator, opts: { expiresAt: number; emulatorTtlS?: number }) {
  return connectMintedPerson(app, at, { tag: "race", ...opts });
}

const POSTGRES = /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL!);

/** Where the tokens could have landed at rest: the SQLite file and its WAL, or every row of every table on PostgreSQL, written out. */
async function databaseFiles(): Promise<string[]> {
  if (!POSTGRES) {
    const file = process.env.DATABASE_URL!.replace(/^file:/, "");
    return [file, `${file}-wal`];
  }
  const { sqlAll } = await import("@/lib/test/sql");
  const tables = await sqlAll<{ name: string }>(`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'`);
  const out = path.join(CHAOS_LOG_DIR, `token-race-postgres-rows-${process.pid}.txt`);
  fs.writeFileSync(out, "");
  for (const { name } of tables)
    for (const row of await sqlAll(`SELECT * FROM "${name.replaceAll('"', '""')}"`)) fs.appendFileSync(out, JSON.stringify(row) + "\n");
  return [out];
}

async function refreshes(at: Emulator) {
  return (await at.requests({ kind: "token" })).filter((r) => r.grant_type === "refresh_token");
}

async function accountState(accountId: string) {
  const a = await app.db.db.account.findUniqueOrThrow({ where: { id: accountId } });
  return { status: a.status, reason: a.statusReason };
}

/** Reader processes, started and waiting at the barrier. */
async function spawnReaders(n: number, reads: number, accountId: string, documentIds: Array<{ collection: string; id: string }>) {
  const procs = Array.from({ length: n }, (_, i) => {
    const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", "e2e/chaos/support/token-reader.ts"], {
      cwd: path.resolve("."),
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        // the run's clock: token expiry is read against it in every process
        RINGSIDE_NOW: process.env.RINGSIDE_NOW,
        NODE_ENV: "production",
        LOG_LEVEL: "debug",
        DATABASE_URL: process.env.DATABASE_URL,
        DATA_DIR: process.env.DATA_DIR,
        TOKEN_ENCRYPTION_KEY: process.env.TOKEN_ENCRYPTION_KEY,
        AUTH_SECRET: process.env.AUTH_SECRET,
        RING_API_BASE_URL: process.env.RING_API_BASE_URL,
        RING_CLIENT_ID: CHAOS_CLIENT.client_id,
        RING_CLIENT_SECRET: CHAOS_CLIENT.client_secret,
        RING_REQUEST_TIMEOUT_MS: "10000",
        READS: String(reads),
        ACCOUNT_ID: accountId,
        DOCUMENT_IDS: JSON.stringify(documentIds),
      },
      stdio: ["pipe", "pipe", "pipe"],
    });
    const logFile = path.join(CHAOS_LOG_DIR, `token-reader-${process.pid}-${i}-${crypto.randomUUID().slice(0, 8)}.log`);
    childLogs.push(logFile);
    let out = "";
    const ready = new Promise<void>((resolve, reject) => {
      child.stdout!.on("data", (d: Buffer) => {
        out += d.toString();
        fs.appendFileSync(logFile, d);
        if (out.includes("ready\n")) resolve();
      });
      child.stderr!.on("data", (d: Buffer) => fs.appendFileSync(logFile, d));
      child.once("exit", (code) => reject(new Error(`reader exited early (${code}): ${out.slice(-500)}`)));
    });
    // 'close', not 'exit': a process can exit before its last output is read (under load the
    // result line came after 'exit' once, and the reader was counted as 50 failures)
    const done = new Promise<{ ok: number; failed: number; failures: string[] }>((resolve) =>
      child.once("close", () => {
        const line = out.split("\n").find((l) => l.startsWith('{"ok"'));
        resolve(line ? JSON.parse(line) : { ok: 0, failed: reads, failures: [out.slice(-300)] });
      }),
    );
    return { child, ready, done };
  });
  await Promise.all(procs.map((p) => p.ready));
  return {
    go: () => procs.forEach((p) => p.child.stdin!.write("go\n")),
    results: () => Promise.all(procs.map((p) => p.done)),
  };
}

/** `n` reads at once in this process: personal_info and documents by id, like webhook fetches. */
async function readsInProcess(accountId: string, n: number, documentIds: Array<{ collection: string; id: string }>) {
  const client = new app.client.RingClient({ accountId, backoff: { baseMs: 20, maxMs: 200, maxRetries: 3 } });
  const results = await Promise.allSettled(
    Array.from({ length: n }, (_, i) => {
      const doc = documentIds[i % documentIds.length];
      if (i % 3 === 0 || !doc) return client.personalInfo().then(() => true);
      return client.getDocument(doc.collection as never, doc.id).then((d) => d !== null);
    }),
  );
  return { ok: results.filter((r) => r.status === "fulfilled" && r.value).length, failed: results.filter((r) => r.status === "rejected" || !r.value).length };
}

async function someDocuments(ringUserId: string) {
  const out: Array<{ collection: string; id: string }> = [];
  for (const c of ["daily_sleep", "daily_readiness", "sleep"])
    for (const d of (await emu.documents(ringUserId, c)).slice(0, 10)) out.push({ collection: c, id: String(d.id) });
  return out;
}

describe("[CHAOS 3] token race", () => {
  it(`${READS_IN_PROCESS} reads here and ${PROCESSES}×${READS_PER_PROCESS} in other processes at the moment of expiry: exactly one refresh`, async () => {
    // The stored token is inside the 60 s margin: every reader decides to refresh at once.
    const p = await person(emu, { expiresAt: Math.floor(clock.now() / 1000) + 59 });
    const documentIds = await someDocuments(p.ringUserId);
    const readers = await spawnReaders(PROCESSES, READS_PER_PROCESS, p.accountId, documentIds);
    readers.go();
    const [here, there] = await Promise.all([readsInProcess(p.accountId, READS_IN_PROCESS, documentIds), readers.results()]);
    expect(here).toEqual({ ok: READS_IN_PROCESS, failed: 0 });
    for (const r of there) expect(r).toEqual({ ok: READS_PER_PROCESS, failed: 0, failures: [] });
    const r = await refreshes(emu);
    expect(r.map((x) => x.status)).toEqual([200]);
    expect(await accountState(p.accountId)).toEqual({ status: "active", reason: null });
    // The stored refresh token is the newest one: the connection can refresh again.
    await app.db.db.account.update({ where: { id: p.accountId }, data: { expires_at: Math.floor(clock.now() / 1000) } });
    await app.tokens.getValidAccessToken(p.accountId);
    expect((await refreshes(emu)).map((x) => x.status)).toEqual([200, 200]);
    figures.clockExpiry = { reads: READS_IN_PROCESS + PROCESSES * READS_PER_PROCESS, processes: PROCESSES + 1, refreshes: 1 };
  });

  it("the service expires the token early: the 401 storm causes exactly one refresh and every read succeeds", async () => {
    // The emulator's token lives 1 s; the app believes it has an hour.
    const p = await person(emu, { expiresAt: Math.floor(clock.now() / 1000) + 3600, emulatorTtlS: 1 });
    const documentIds = await someDocuments(p.ringUserId);
    const readers = await spawnReaders(PROCESSES, READS_PER_PROCESS, p.accountId, documentIds);
    await new Promise((r) => setTimeout(r, 1_500));
    await emu.clearRequests();
    readers.go();
    const [here, there] = await Promise.all([readsInProcess(p.accountId, READS_IN_PROCESS, documentIds), readers.results()]);
    expect(here).toEqual({ ok: READS_IN_PROCESS, failed: 0 });
    for (const r of there) expect(r).toEqual({ ok: READS_PER_PROCESS, failed: 0, failures: [] });
    expect((await refreshes(emu)).map((x) => x.status)).toEqual([200]);
    const unauthorized = (await emu.requests({ kind: "data" })).filter((x) => x.status === 401).length;
    expect(unauthorized).toBeGreaterThan(0);
    expect(await accountState(p.accountId)).toEqual({ status: "active", reason: null });
    figures.earlyExpiry = { reads: READS_IN_PROCESS + PROCESSES * READS_PER_PROCESS, unauthorized, refreshes: 1 };
  });

  it(`a ${BACKFILL_DAYS}-day backfill with a token that expires every ~2 s: one refresh per expiry, nothing lost`, async () => {
    // From now on the service's tokens live 62 s: with the app's 60 s margin, one is due every ~2 s.
    const config = emu.running.emulator.config;
    config.tokenTtlS = 62;
    // ...and every data request takes 80 ms more, so the backfill spans several expiries.
    await emu.fault({ delay_ms: 80, count: 100_000 });
    try {
      const p = await person(emu, { expiresAt: Math.floor(clock.now() / 1000) + 59 });
      const engine = new app.engine.SyncEngine({ concurrency: 8, clientOptions: { backoff: { baseMs: 20, maxMs: 200, maxRetries: 6 } } });
      const started = performance.now();
      const outcomes = await engine.backfillUser(p.userId);
      const seconds = (performance.now() - started) / 1000;
      // all done but the cycle's phases, not fetched for a person who does not track her cycle (docs/privacy.md)
      expect(outcomes.filter((o) => o.result !== "done").map((o) => [o.collection, o.reason])).toEqual([["daily_cycle_phases", "cycle_off"]]);
      for (const c of COLLECTIONS) {
        const d = diffDocuments(c, await emu.documents(p.ringUserId, c), await app.docs.listRawDocuments(c, p.userId));
        expect(summarize(d)).toEqual({ ...summarize(d), missing: 0, extra: 0, changed: 0, duplicates: 0, stored: d.expected, sample: [] });
      }
      const r = await refreshes(emu);
      expect(r.length).toBeGreaterThan(1);
      expect(r.every((x) => x.status === 200)).toBe(true);
      // Each refresh answers one expiry: never two within the ~2 s a token is usable.
      const times = r.map((x) => Date.parse(x.time));
      const gaps = times.slice(1).map((t, i) => t - times[i]!);
      expect(gaps.filter((g) => g < 1_000)).toEqual([]);
      expect(r.length).toBeLessThanOrEqual(Math.ceil(seconds / 1.9) + 1);
      expect(await accountState(p.accountId)).toEqual({ status: "active", reason: null });
      figures.backfillExpiries = { days: BACKFILL_DAYS, seconds: Math.round(seconds), refreshes: r.length, minGapMs: Math.min(...gaps) };
    } finally {
      config.tokenTtlS = 3600;
      await emu.clearFaults();
    }
  });

  it("no token reached the database or a log line", async () => {
    const leaks = findLeaks(emu.issuedSecrets(), [...(await databaseFiles()), inProcessLogFile(), ...childLogs]);
    expect(leaks).toEqual([]);
    recordFigures(POSTGRES ? "token-race-postgres" : "token-race", figures);
  });
});
