import { clock } from "@/lib/clock";
import { addDays, utcDay } from "@/lib/days";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import type { APIRequestContext, Browser } from "@playwright/test";
import { screenshot } from "./dashboard-support";
import { test, expect, connectRing } from "./fixtures";
import { emulatorControl } from "./support/emulator-control";
import { startInstance, type Instance } from "./support/instance";
import { E2E_DATA_DIR, E2E_EMULATOR_URL, E2E_OTHER_PORT, E2E_RESTORED_PORT } from "./support/ports";

// Self-hosting (issue 8): the production output (`npm run build` + `npm start`, which the
// Playwright web server runs on a fresh data directory) connects the emulated ring and syncs;
// a backup taken while it syncs opens cleanly; a backup restored into a new data directory
// serves the same data; an export imported into another instance draws the same charts.

const METRICS = [
  "readiness.score",
  "sleep.score",
  "activity.steps",
  "stress.stress_high",
  "spo2.breathing_disturbance_index",
  "resilience.level",
  "night.average_hrv",
  "cardio.vascular_age",
];
const appDbFile = path.resolve(E2E_DATA_DIR, "ringside.db");

function backupCli(args: string[], dbFile: string): string {
  return execFileSync(process.execPath, ["lib/db/backup-cli.mjs", ...args], {
    env: { ...process.env, DATABASE_URL: `file:${dbFile}`, DATA_DIR: path.dirname(dbFile) },
    encoding: "utf8",
  });
}

async function syncStatus(request: APIRequestContext, base = "") {
  const res = await request.get(`${base}/api/sync/status`);
  expect(res.status()).toBe(200);
  return (await res.json()) as { running: boolean; collections: Array<{ collection: string; backfillDone: boolean; documents: number }> };
}

async function waitForBackfill(request: APIRequestContext) {
  await expect.poll(async () => (await syncStatus(request)).collections.every((c) => c.backfillDone), { timeout: 60_000, intervals: [500] }).toBe(true);
}

async function series(request: APIRequestContext, base: string, metric: string, from: string, to: string) {
  const res = await request.get(`${base}/api/metrics/${encodeURIComponent(metric)}?from=${from}&to=${to}`);
  expect(res.status(), `${base} ${metric}`).toBe(200);
  return res.json();
}

function lastDays(n: number) {
  const to = utcDay(clock.now());
  const from = addDays(to, -n);
  return { from, to };
}

const made: string[] = [];
/** A new directory in the temp folder, removed after this file's tests. */
function tmpDir(name: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `ringside-${name}-`));
  made.push(dir);
  return dir;
}
test.afterAll(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

test.describe.configure({ mode: "serial" });

test("[SELF-HOST] backup while syncing opens cleanly; a restored backup in a new data directory serves the same data", async ({ page, emulator }) => {
  test.setTimeout(180_000);
  // slow the emulator down so the backup really happens while the backfill writes
  await emulator.faults({ delay_ms: 250, count: 40 });
  await connectRing(page, { historyDays: 400 });
  await expect.poll(async () => (await syncStatus(page.request)).running, { timeout: 60_000 }).toBe(true);

  // 1. an online backup while the backfill writes
  const midDir = tmpDir("mid-backup");
  const midOut = backupCli(["backup", midDir], appDbFile);
  expect(midOut).toMatch(/Backup written/);
  const midFile = path.join(
    midDir,
    fs.readdirSync(midDir).find((f) => f.endsWith(".db"))!,
  );
  const mid = new Database(midFile, { readonly: true });
  expect(mid.pragma("integrity_check", { simple: true })).toBe("ok");
  // consistent: no duplicate documents, and every checkpointed collection holds at least what it says
  for (const table of ["daily_sleep", "daily_readiness", "daily_activity", "sleep_period"]) {
    const dup = mid.prepare(`SELECT COUNT(*) - COUNT(DISTINCT userId || '|' || documentId) AS d FROM ${table}`).pluck().get();
    expect(dup, table).toBe(0);
  }
  mid.close();
  await emulator.clearFaults();

  // 2. the backfill finishes; a backup of the running app is restored into a new data directory
  await waitForBackfill(page.request);
  const backupDir = tmpDir("backup");
  backupCli(["backup", backupDir], appDbFile);
  const backupFile = path.join(
    backupDir,
    fs.readdirSync(backupDir).find((f) => f.endsWith(".db"))!,
  );
  const restoredDir = tmpDir("restored");
  const restoredDb = path.join(restoredDir, "ringside.db");
  expect(backupCli(["restore", backupFile], restoredDb)).toMatch(/Restored/);

  // 3. the restored instance (sync off, so nothing changes its data) serves the same data to the same session
  let restored: Instance | undefined;
  try {
    restored = await startInstance({ port: E2E_RESTORED_PORT, dataDir: restoredDir, env: { SYNC_DISABLED: "1" } });
    const { from, to } = lastDays(120);
    for (const m of METRICS) {
      const original = await series(page.request, "", m, from, to);
      const copy = await series(page.request, restored.url, m, from, to);
      expect(copy, m).toEqual(original);
    }
    await page.goto(`${restored.url}/trends`);
    await expect(page.getByRole("heading", { name: /trends/i })).toBeVisible();
  } finally {
    await restored?.stop();
  }
});

test("[SELF-HOST] export from one instance and import into another gives the same charts", async ({ page, browser }) => {
  test.setTimeout(180_000);
  const { email } = await connectRing(page, { historyDays: 200 });
  await waitForBackfill(page.request);
  const exportRes = await page.request.get("/api/export?collection=all&format=json");
  expect(exportRes.status()).toBe(200);
  const exported = await exportRes.body();
  expect(JSON.parse(exported.toString()).format).toBe("ringside-export-v1");

  // another instance, its own data directory and OAuth client, no sync: data arrives only by import
  const port = E2E_OTHER_PORT;
  await emulatorControl.ensureClient();
  const res = await fetch(`${E2E_EMULATOR_URL}/_emulator/clients`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_id: "ringside-e2e-b",
      client_secret: "ringside-e2e-b-secret",
      redirect_uris: [`http://localhost:${port}/api/auth/callback/ring`],
      approved: true,
    }),
  });
  expect(res.status).toBeLessThan(300);
  const other = await startInstance({
    port,
    dataDir: tmpDir("other"),
    clientId: "ringside-e2e-b",
    clientSecret: "ringside-e2e-b-secret",
    // the person is on its ALLOWED_EMAILS: their first connect makes them its owner without the setup code
    env: { SYNC_DISABLED: "1", ALLOWED_EMAILS: "*@allowed.example.test" },
  });
  const context = await (browser as Browser).newContext();
  try {
    const page2 = await context.newPage();
    await connectRing(page2, { email, startAt: `${other.url}/sign-in` });
    const before = await series(page2.request, other.url, "readiness.score", lastDays(30).from, lastDays(30).to);
    expect((before.value as Array<number | null>).every((v) => v === null)).toBe(true);

    const imported = await page2.request.post(`${other.url}/api/import`, {
      // a script's write names the Ringside it is for (the same-origin rule of API writes)
      headers: { "content-type": "application/json", origin: other.url },
      data: exported,
    });
    expect(imported.status()).toBe(200);
    const { from, to } = lastDays(190);
    for (const m of METRICS) {
      expect(await series(page2.request, other.url, m, from, to), m).toEqual(await series(page.request, "", m, from, to));
    }
    await page2.goto(`${other.url}/trends`);
    await expect(page2.getByRole("heading", { name: /trends/i })).toBeVisible();
    await expect(page2.locator('[data-chart-ready="true"]').first()).toBeVisible({ timeout: 60_000 });
    await screenshot(page2, "imported-trends");
  } finally {
    await context.close();
    await other.stop();
  }
});
