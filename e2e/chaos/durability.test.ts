// 9. Durability: the production database runs in WAL mode; backups taken with
// lib/db/backup.mjs (backupDatabase) while a backfill writes open cleanly and hold a consistent
// state (every checkpoint agrees with the rows written with it), and a restored backup resumes
// the backfill to exactly the emulator's documents.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backupDatabase } from "@/lib/db/backup.mjs";
import { COLLECTIONS, TABLE_OF, countStored, diffWithEmulator, openAppDb, summarize, waitFor, SYNCED } from "./support/app-db";
import { connect } from "./support/browser";
import { startChaosEmulator, type Emulator } from "./support/emulator";
import { ALLOWED_DOMAIN, pick } from "./support/env";
import { recordFigures, rng, sleep } from "./support/figures";
import { startProdApp, type ProdApp } from "./support/prod-app";
import { findLeaks } from "./support/secrets";

const BACKUPS = pick(3, 8);
const HISTORY_DAYS = pick(700, 1826);

let emu: Emulator;
let app: ProdApp | undefined;
let restored: ProdApp | undefined;
const handles: Database.Database[] = [];

beforeAll(async () => {
  emu = await startChaosEmulator({ pageSize: 5, historyDays: HISTORY_DAYS });
  app = await startProdApp({ name: "durability" });
});

afterAll(async () => {
  for (const h of handles) h.close();
  await app?.stop();
  await restored?.stop();
  await emu?.close();
});

type Check = { file: string; integrity: string; journal: string; documents: number; consistent: boolean; detail: unknown[] };
type Upstream = Record<string, Array<{ key: string; day: string }>>;

/**
 * A backup opens, passes integrity_check, and every checkpoint agrees with the rows written
 * with it: a finished collection holds exactly the service's documents; an unfinished one holds
 * every document before its checkpoint day (no gap behind it), and nothing the service does
 * not have, nothing twice.
 */
function checkBackup(file: string, userId: string, upstream: Upstream): Check {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const integrity = String(db.pragma("integrity_check", { simple: true }));
    const journal = String(db.pragma("journal_mode", { simple: true }));
    const detail: unknown[] = [];
    let documents = 0;
    for (const c of COLLECTIONS) {
      const rows = db.prepare(`SELECT documentId, day FROM "${TABLE_OF[c]}" WHERE userId = ?`).all(userId) as Array<{ documentId: string | null; day: string }>;
      const have = new Set(rows.map((r) => (c === "daily_cardiovascular_age" ? r.day : String(r.documentId))));
      const state = db.prepare(`SELECT cursorStart, backfillDoneAt FROM sync_state WHERE userId = ? AND collection = ?`).get(userId, c) as
        { cursorStart: string | null; backfillDoneAt: string | null } | undefined;
      documents += rows.length;
      const want = upstream[c] ?? [];
      if (have.size !== rows.length) detail.push({ c, duplicates: rows.length - have.size });
      const phantom = [...have].filter((k) => !want.some((w) => w.key === k));
      if (phantom.length) detail.push({ c, notUpstream: phantom.length });
      const behind = state?.backfillDoneAt ? want : want.filter((w) => state?.cursorStart && w.day < state.cursorStart);
      const gap = behind.filter((w) => !have.has(w.key));
      if (gap.length) detail.push({ c, gapBehindCheckpoint: gap.length, cursor: state?.cursorStart ?? null, done: Boolean(state?.backfillDoneAt) });
    }
    return { file: path.basename(file), integrity, journal, documents, consistent: detail.length === 0, detail };
  } finally {
    db.close();
  }
}

describe("[CHAOS 9] durability", () => {
  it(`WAL on; ${BACKUPS} backups taken during a backfill are consistent, and a restored one resumes to the emulator's documents`, async () => {
    const random = rng();
    const running = app!;
    const live = openAppDb(running.dbFile);
    handles.push(live);
    expect(String(live.pragma("journal_mode", { simple: true })).toLowerCase()).toBe("wal");

    const email = `durable-${crypto.randomBytes(3).toString("hex")}@${ALLOWED_DOMAIN}`;
    const ring = await emu.createUser(email, { history_days: HISTORY_DAYS });
    let expected = 0;
    const upstream: Upstream = {};
    for (const c of COLLECTIONS) {
      const docs = await emu.documents(ring.user_id, c);
      upstream[c] = docs.map((d) => ({ key: String(c === "daily_cardiovascular_age" ? d.day : d.id), day: String(d.day) }));
      expected += docs.length;
    }
    const { landed } = await connect(email);
    expect(landed.pathname).toBe("/");
    const { id: userId } = live.prepare(`SELECT id FROM "User" WHERE ringUserId = ?`).get(ring.user_id) as { id: string };

    const backupDir = path.join(running.dataDir, "chaos-backups");
    const checks: Check[] = [];
    const thresholds = Array.from({ length: BACKUPS }, () => Math.floor(expected * (0.05 + random() * 0.8))).sort((a, b) => a - b);
    for (const [i, threshold] of thresholds.entries()) {
      await waitFor(`${threshold} stored documents`, () => countStored(live, userId) >= threshold, { timeoutMs: 120_000, intervalMs: 5 });
      expect(fs.existsSync(`${running.dbFile}-wal`)).toBe(true);
      const file = await backupDatabase(running.dbFile, backupDir, `chaos${i}`);
      const check = checkBackup(file, userId, upstream);
      checks.push(check);
      expect(check).toEqual({ ...check, integrity: "ok", consistent: true, detail: [] });
      await sleep(Math.floor(random() * 30));
    }
    // The writer kept writing while the backups were taken.
    expect(checks.some((c) => c.documents < expected)).toBe(true);
    expect(new Set(checks.map((c) => c.documents)).size).toBeGreaterThan(1);

    // Restore the last backup into a fresh data directory and let a new process finish from it.
    await running.stop();
    const lastBackup = path.join(
      backupDir,
      fs
        .readdirSync(backupDir)
        .filter((f) => f.endsWith(".db"))
        .sort()
        .at(-1)!,
    );
    const restoredDir = path.join(path.dirname(running.dataDir), "durability-restored");
    fs.rmSync(restoredDir, { recursive: true, force: true });
    fs.mkdirSync(restoredDir, { recursive: true });
    fs.copyFileSync(lastBackup, path.join(restoredDir, "ringside.db"));
    const atRestore = checkBackup(path.join(restoredDir, "ringside.db"), userId, upstream).documents;
    restored = await startProdApp({ name: "durability-restored", keepData: true });
    const db = openAppDb(restored.dbFile);
    handles.push(db);
    await waitFor(
      "the resumed backfill",
      () =>
        (db.prepare(`SELECT COUNT(*) AS n FROM sync_state WHERE userId = ? AND backfillDoneAt IS NOT NULL`).get(userId) as { n: number }).n === SYNCED.length,
      { timeoutMs: 180_000, intervalMs: 200 },
    );
    for (const c of COLLECTIONS) {
      const d = summarize(await diffWithEmulator(db, emu, userId, ring.user_id, c));
      expect(d).toEqual({ ...d, missing: 0, extra: 0, changed: 0, duplicates: 0, stored: d.expected, sample: [] });
    }
    expect(countStored(db, userId)).toBe(expected);
    expect(String(db.pragma("journal_mode", { simple: true })).toLowerCase()).toBe("wal");
    const backupFiles = fs.readdirSync(backupDir).map((f) => path.join(backupDir, f));
    expect(findLeaks(emu.issuedSecrets(), [...backupFiles, running.logFile, restored.logFile, restored.dbFile, `${restored.dbFile}-wal`])).toEqual([]);

    recordFigures("durability", {
      journalMode: "wal",
      historyDays: HISTORY_DAYS,
      documentsExpected: expected,
      backups: checks.map((c) => ({ documents: c.documents, integrity: c.integrity, consistent: c.consistent })),
      restoredFrom: atRestore,
      documentsAfterResume: expected,
      missing: 0,
      duplicates: 0,
    });
  });
});
