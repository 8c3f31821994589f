// 1. Crash during backfill: the production process is killed with SIGKILL at random moments of
// a backfill (quick: 3 times, full: 20) and started again each time; at the end the database
// holds exactly the emulator's documents — no gap, no duplicate — and its samples up to where the
// sync read them (the emulator's ring records on meanwhile, as in case 12).
import crypto from "node:crypto";
import type Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SERIES_COLLECTIONS } from "@/lib/resources";
import { COLLECTIONS, SYNCED, countStored, diffSeriesWithEmulator, diffWithEmulator, openAppDb, summarize, waitFor } from "./support/app-db";
import { connect } from "./support/browser";
import { startChaosEmulator, type Emulator } from "./support/emulator";
import { ALLOWED_DOMAIN, pick } from "./support/env";
import { recordFigures, rng, sleep } from "./support/figures";
import { startProdApp, type ProdApp } from "./support/prod-app";
import { findLeaks } from "./support/secrets";

const KILLS = pick(3, 20);
const HISTORY_DAYS = pick(500, 1826);
const PAGE_SIZE = 5;

let emu: Emulator;
let app: ProdApp;
let db: Database.Database | undefined;

beforeAll(async () => {
  emu = await startChaosEmulator({ pageSize: PAGE_SIZE, historyDays: HISTORY_DAYS });
  app = await startProdApp({ name: "crash-backfill" });
});

afterAll(async () => {
  db?.close();
  await app?.stop();
  await emu?.close();
});

describe("[CHAOS 1] crash during backfill", () => {
  it(`SIGKILL ${KILLS}× during a ${HISTORY_DAYS}-day backfill: the database equals the emulator, no gap, no duplicate`, async () => {
    const random = rng();
    const email = `crash-${crypto.randomBytes(3).toString("hex")}@${ALLOWED_DOMAIN}`;
    const ring = await emu.createUser(email, { history_days: HISTORY_DAYS });
    let expected = 0;
    for (const c of COLLECTIONS) expected += (await emu.documents(ring.user_id, c)).length;

    const { landed } = await connect(email);
    expect(landed.pathname).toBe("/");
    db = openAppDb(app.dbFile);
    const { id: userId } = db.prepare(`SELECT id FROM "User" WHERE ringUserId = ?`).get(ring.user_id) as { id: string };

    // Kill points: random fractions of the whole history, so every kill lands inside the backfill.
    const thresholds = Array.from({ length: KILLS }, () => Math.floor(expected * (0.02 + random() * 0.93))).sort((a, b) => a - b);
    const kills: Array<{ threshold: number; storedAtKill: number; ms: number }> = [];
    const started = performance.now();
    for (const threshold of thresholds) {
      await waitFor(`${threshold} stored documents`, () => countStored(db!, userId) >= threshold, { timeoutMs: 120_000, intervalMs: 5 });
      await sleep(Math.floor(random() * 40));
      const storedAtKill = countStored(db, userId);
      await app.kill();
      kills.push({ threshold, storedAtKill, ms: performance.now() - started });
      expect(storedAtKill, "the kill must land inside the backfill").toBeLessThan(expected);
      await app.start();
    }

    // Let the last process finish the backfill.
    await waitFor(
      "every collection backfilled",
      () => {
        // every collection but the cycle's phases, not fetched for a person who does not track (docs/privacy.md)
        const rows = db!
          .prepare(`SELECT collection, backfillDoneAt FROM sync_state WHERE userId = ? AND collection <> 'daily_cycle_phases'`)
          .all(userId) as Array<{ backfillDoneAt: string | null }>;
        return rows.length === SYNCED.length && rows.every((r) => r.backfillDoneAt !== null);
      },
      { timeoutMs: 240_000, intervalMs: 200 },
    );

    const diffs = [];
    for (const c of COLLECTIONS) diffs.push(summarize(await diffWithEmulator(db, emu, userId, ring.user_id, c)));
    for (const d of diffs) {
      expect(d).toEqual({ ...d, missing: 0, extra: 0, changed: 0, duplicates: 0, stored: d.expected, sample: [] });
    }
    const stored = countStored(db, userId);
    expect(stored).toBe(expected);
    // the time series too (heart rate, battery): every sample once, in order, through where the
    // sync read them (the emulator's ring records on while the test runs); their totals agree
    const series = [];
    for (const c of SERIES_COLLECTIONS) series.push(await diffSeriesWithEmulator(db, emu, userId, ring.user_id, c));
    for (const d of series) {
      expect(d.expected, d.collection).toBeGreaterThan(0);
      expect(d).toEqual({ ...d, stored: d.expected, firstDifference: null, documentsTotal: d.storedTotal });
    }

    // The checkpoints agree with the data, and no job was left behind as "running".
    const states = db.prepare(`SELECT collection, documentsTotal, status, lastError FROM sync_state WHERE userId = ?`).all(userId) as Array<{
      collection: string;
      documentsTotal: number;
      status: string;
      lastError: string | null;
    }>;
    for (const s of states) {
      const documents = diffs.find((d) => d.collection === s.collection);
      expect({ c: s.collection, total: documents ? s.documentsTotal : null, status: s.status, error: s.lastError }).toEqual({
        c: s.collection,
        // a time series' total was held against its samples above, in one snapshot
        total: documents ? documents.expected : null,
        status: "idle",
        error: null,
      });
    }
    const stuck = db.prepare(`SELECT COUNT(*) AS n FROM job WHERE kind = 'backfill' AND status IN ('running','queued')`).get() as { n: number };
    expect(stuck.n).toBe(0);
    const info = db.prepare(`SELECT ringUserId FROM personal_info WHERE userId = ?`).get(userId) as { ringUserId: string } | undefined;
    expect(info?.ringUserId).toBe(ring.user_id);
    const account = db.prepare(`SELECT status FROM Account WHERE userId = ?`).get(userId) as { status: string };
    expect(account.status).toBe("active");

    // No token in the database file, its WAL, or the app's log across all those crashes.
    expect(findLeaks(emu.issuedSecrets(), [app.dbFile, `${app.dbFile}-wal`, `${app.dbFile}-shm`, app.logFile])).toEqual([]);

    recordFigures("crash-backfill", {
      kills: kills.length,
      starts: app.starts,
      historyDays: HISTORY_DAYS,
      pageSize: PAGE_SIZE,
      documentsExpected: expected,
      documentsStored: stored,
      missing: 0,
      duplicates: 0,
      storedAtKills: kills.map((k) => k.storedAtKill),
      // per time series: samples through the sync's cursor, and those it stored after it
      series: Object.fromEntries(series.map((d) => [d.collection, { through: d.through, samples: d.expected, afterCursor: d.storedTotal - d.stored }])),
      seconds: Math.round((performance.now() - started) / 1000),
    });
  });
});
