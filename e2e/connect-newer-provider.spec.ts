// "Connect your ring" through the newer identity provider, the way `npm run demo` sets it up
// (the demo client on the emulator's developer portal, RING_OAUTH_ISSUER = the emulator's
// issuer): button → consent (extapi: names) → callback with iss → a filled Today page. Then a
// callback whose iss names another issuer is refused with nothing stored, and a
// developer-portal app used against the legacy token address (the main e2e app, legacy
// settings) gets its own explanation. The legacy provider's round trip is
// connect-ring.spec.ts and dashboard.spec.ts.
import { childEnv } from "../lib/process.mjs";
import { buildDir, standaloneDir } from "../lib/server/build-dir.mjs";
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { connectRing, expect, test, uniqueEmail, waitForBackfill } from "./fixtures";
import { emulatorControl } from "./support/emulator-control";
import { E2E_APP_URL, E2E_CLIENT, E2E_DEMO_APP_PORT, E2E_DEMO_EMULATOR_PORT, E2E_EMULATOR_URL } from "./support/ports";
import { decryptStoredToken } from "./support/tokens";

test.describe.configure({ mode: "serial" });

const DEMO_URL = `http://localhost:${E2E_DEMO_APP_PORT}`;
const DEMO_EMULATOR = `http://localhost:${E2E_DEMO_EMULATOR_PORT}`;
const ISSUER = `${DEMO_EMULATOR}/oauth/v2/ext/oauth-anonymous`;
const ALL = "email personal daily heartrate workout tag session spo2Daily reproductive_cycle";

let demo: ChildProcess | null = null;
let dataDir = "";
let demoOutput = "";
let db: Database.Database | null = null;

function demoDb(): Database.Database {
  if (!db) {
    db = new Database(path.join(dataDir, "ringside.db"), { readonly: true, fileMustExist: true });
    db.pragma("busy_timeout = 5000");
  }
  return db;
}

const count = (sql: string) => Number((demoDb().prepare(sql).get() as { n: number }).n);
const totals = () => ({
  users: count(`SELECT COUNT(*) AS n FROM "User"`),
  accounts: count(`SELECT COUNT(*) AS n FROM "Account"`),
  sessions: count(`SELECT COUNT(*) AS n FROM "Session"`),
});

test.beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ringside-demo-e2e-"));
  // The demo rebuilds when a source file is newer than the build. The suite runs against the
  // build the Playwright web server already serves: mark it current, so that the demo never
  // rebuilds .next under that running server (and both test the same build).
  const buildId = path.resolve(buildDir(), "BUILD_ID");
  if (!fs.existsSync(buildId) || !fs.existsSync(path.join(standaloneDir(path.resolve(".")), "server.js")))
    throw new Error("no production build: run `npm run build` first");
  const now = new Date();
  fs.utimesSync(buildId, now, now);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/^(RING_|AUTH_|PUBLIC_URL|DATABASE_URL|DATA_DIR|PORT$)/.test(k)) env[k] = v;
  const child = spawn(process.execPath, ["lib/demo/run.mjs"], {
    // the demo (and so its emulator and app) exits when this test process is gone
    env: childEnv({
      ...env,
      NODE_ENV: "production",
      PORT: String(E2E_DEMO_APP_PORT),
      RING_EMULATOR_PORT: String(E2E_DEMO_EMULATOR_PORT),
      // the suite's clock and seed (the filter above drops every RING_ variable)
      RING_EMULATOR_NOW: process.env.RING_EMULATOR_NOW ?? "",
      RING_EMULATOR_SEED: process.env.RING_EMULATOR_SEED ?? "",
      RING_EMULATOR_HISTORY_DAYS: "60",
      RING_EMULATOR_WEBHOOK_DELAY_MS: "200",
      RING_EMULATOR_PAGE_SIZE: "30",
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
    }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  demo = child;
  const keep = (c: Buffer) => (demoOutput = (demoOutput + c.toString()).slice(-8000));
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  const deadline = Date.now() + 100_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm run demo exited: ${demoOutput}`);
    try {
      if ((await fetch(`${DEMO_URL}/api/health`)).ok) break;
    } catch {
      /* not yet */
    }
    if (Date.now() > deadline) throw new Error(`npm run demo did not start: ${demoOutput}`);
    await new Promise((r) => setTimeout(r, 300));
  }
});

test.afterAll(async () => {
  db?.close();
  const child = demo;
  if (child && child.exitCode === null) {
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGTERM");
    await exited;
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test("[NEWER] npm run demo connects through the newer identity provider: button → consent → iss on the callback → a filled Today page", async ({ page }) => {
  test.setTimeout(180_000);
  expect(demoOutput).toContain("developer portal");
  const email = uniqueEmail("newer");
  await page.goto(`${DEMO_URL}/sign-in`);
  await page.getByRole("button", { name: /connect your ring/i }).click();
  await page.waitForURL((u) => u.port === String(E2E_DEMO_EMULATOR_PORT), { timeout: 60_000 });
  expect(new URL(page.url()).pathname).toBe("/oauth/v2/ext/oauth-authorize");
  const offered = await page.locator('input[type="checkbox"][name="granted_scope"]').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
  expect(offered.length).toBeGreaterThanOrEqual(8);
  expect(offered.every((v) => v.startsWith("extapi:"))).toBe(true);
  await page.locator('input[name="user"]').fill(email);
  const callback = page.waitForRequest((r) => r.url().includes("/api/auth/callback/ring"));
  await page.getByRole("button", { name: /allow/i }).click();
  const callbackUrl = new URL((await callback).url());
  expect(callbackUrl.searchParams.get("iss")).toBe(ISSUER);
  await expect(page).toHaveURL(`${DEMO_URL}/`);

  const user = demoDb().prepare(`SELECT id, ringUserId, role FROM "User" WHERE email = ?`).get(email) as { id: string; ringUserId: string; role: string };
  expect(user.role).toBe("owner");
  const account = demoDb().prepare(`SELECT scope, status FROM "Account" WHERE userId = ?`).get(user.id) as { scope: string; status: string };
  expect(account).toEqual({ scope: ALL, status: "active" });
  await waitForBackfill(demoDb(), user.id);

  await page.goto(`${DEMO_URL}/`);
  await expect(page.getByTestId("today")).toHaveAttribute("data-chart-ready", "true");
  const res = await fetch(`${DEMO_EMULATOR}/_emulator/users/${user.ringUserId}/documents/daily_readiness`);
  const { data } = (await res.json()) as { data: Array<{ day: string; score: number | null }> };
  const latest = data.reduce((a, b) => (b.day > a.day ? b : a));
  const shown = (await page.getByTestId("value-readiness.score").first().textContent()) ?? "";
  if (latest.score === null) expect(shown).toContain("—");
  else expect(shown).toContain(String(latest.score));
  await page.goto(`${DEMO_URL}/settings/account`);
  await expect(page.getByTestId("all-shared")).toBeVisible();

  // /setup says which provider is in use and where its addresses came from
  await page.goto(`${DEMO_URL}/setup`);
  await expect(page.getByTestId("setup-check-RING_OAUTH_ISSUER")).toHaveAttribute("data-state", "ok");
  await expect(page.getByTestId("setup-check-RING_OAUTH_ISSUER")).toContainText(ISSUER);
  await expect(page.getByTestId("setup-check-RING_TOKEN_URL")).toContainText(`${DEMO_EMULATOR}/oauth/v2/ext/oauth-token (from discovery)`);
  await expect(page.getByTestId("setup-env-newer")).toContainText("RING_OAUTH_ISSUER=https://moi.ouraring.com/oauth/v2/ext/oauth-anonymous");
  await expect(page.getByTestId("redirect-uri")).toHaveText(`${DEMO_URL}/api/auth/callback/ring`);
});

test("[NEWER] a callback whose iss names another issuer is refused on the error page, and nothing is stored", async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    const before = totals();
    // The consent answer (the emulator's 302 to the callback) is rewritten on its way to the
    // browser: same code and state, a foreign iss. (Playwright does not intercept the redirected
    // request itself, so the redirect is rewritten where it is made.)
    const foreign = "https://attacker.example.test/oauth/v2/ext/oauth-anonymous";
    let rewritten = 0;
    await page.route(`${DEMO_EMULATOR}/oauth/v2/ext/oauth-authorize**`, async (route) => {
      if (route.request().method() !== "POST") return route.continue();
      const answer = await route.fetch({ maxRedirects: 0 });
      const u = new URL(answer.headers()["location"]!);
      expect(u.searchParams.get("iss")).toBe(ISSUER);
      u.searchParams.set("iss", foreign);
      rewritten += 1;
      await route.fulfill({ status: 302, headers: { location: u.toString() } });
    });
    await page.goto(`${DEMO_URL}/sign-in`);
    await page.getByRole("button", { name: /connect your ring/i }).click();
    await page.waitForURL((u) => u.port === String(E2E_DEMO_EMULATOR_PORT), { timeout: 60_000 });
    await page.locator('input[name="user"]').fill(uniqueEmail("foreign-iss"));
    await page.getByRole("button", { name: /allow/i }).click();
    await expect(page).toHaveURL(/\/sign-in\/error\?error=issuer_mismatch/);
    await expect(page.getByTestId("sign-in-error")).toHaveAttribute("data-error-code", "issuer_mismatch");
    await expect(page.getByRole("heading", { name: "The answer did not come from the expected ring service" })).toBeVisible();
    expect(rewritten).toBe(1);
    expect(totals()).toEqual(before);
    expect((await context.cookies()).some((c) => c.name === "authjs.session-token")).toBe(false);
  } finally {
    await context.close();
  }
});

test("[NEWER] a developer-portal app used against the legacy token address is explained on the error page", async ({ page, appDb }) => {
  const count = (sql: string) => Number((appDb.prepare(sql).get() as { n: number }).n);
  const before = { users: count(`SELECT COUNT(*) AS n FROM "User"`), accounts: count(`SELECT COUNT(*) AS n FROM "Account"`) };
  // The main e2e app is set up for the legacy provider; its client now belongs to the developer portal.
  const res = await fetch(`${E2E_EMULATOR_URL}/_emulator/clients`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ ...E2E_CLIENT, portal: "developer" }),
  });
  expect(res.status).toBeLessThan(300);
  try {
    await connectRing(page, { email: uniqueEmail("wrong-portal") });
    await expect(page).toHaveURL(/\/sign-in\/error\?error=wrong_portal/);
    const box = page.getByTestId("sign-in-error");
    await expect(box).toHaveAttribute("data-error-code", "wrong_portal");
    await expect(page.getByRole("heading", { name: "This app is registered in the newer developer portal" })).toBeVisible();
    await expect(box).toContainText("RING_OAUTH_ISSUER=https://moi.ouraring.com/oauth/v2/ext/oauth-anonymous");
    await expect(box).toContainText("invalid_request");
    expect({ users: count(`SELECT COUNT(*) AS n FROM "User"`), accounts: count(`SELECT COUNT(*) AS n FROM "Account"`) }).toEqual(before);
  } finally {
    await emulatorControl.ensureClient();
  }
});

test("[NEWER] a refresh refused at the legacy token address (the app moved to the developer portal) shows the same advice where reconnecting is offered", async ({
  browser,
  appDb,
}) => {
  test.setTimeout(90_000);
  const context = await browser.newContext({ baseURL: E2E_APP_URL });
  const page = await context.newPage();
  try {
    const { ringUserId } = await connectRing(page, { email: uniqueEmail("portal-move") });
    await expect(page).toHaveURL(`${E2E_APP_URL}/`);
    const user = appDb.prepare(`SELECT id FROM "User" WHERE ringUserId = ?`).get(ringUserId) as { id: string };
    const account = () =>
      appDb.prepare(`SELECT status, statusReason, access_token FROM "Account" WHERE userId = ?`).get(user.id) as {
        status: string;
        statusReason: string | null;
        access_token: string | null;
      };
    // The app now belongs to the developer portal, then the access token dies (the next data
    // request gets 401). In this order every refresh after it meets the move: the backfill still
    // running since the connect may refresh at once, and before the move its refresh would be
    // refused for the revoked grant (invalid_grant) instead.
    const moved = await fetch(`${E2E_EMULATOR_URL}/_emulator/clients`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ...E2E_CLIENT, portal: "developer" }),
    });
    expect(moved.status).toBeLessThan(300);
    const revoke = await fetch(`${E2E_EMULATOR_URL}/oauth/revoke?access_token=${encodeURIComponent(decryptStoredToken(account().access_token!))}`, {
      method: "POST",
    });
    expect(revoke.status).toBe(200);
    // "Sync now" (202), unless the backfill still running since the connect met the refusal
    // first and the connection already needs reconnecting (409): either way the refresh is refused.
    const nudge = await page.request.post("/api/sync", { headers: { origin: E2E_APP_URL } });
    expect([202, 409]).toContain(nudge.status());
    await expect.poll(() => account().status, { timeout: 30_000, intervals: [250, 500, 1000] }).toBe("needs_reconnect");
    expect(account().statusReason).toBe("wrong_portal");
    await emulatorControl.ensureClient();

    await page.goto("/");
    const banner = page.getByTestId("reconnect-banner");
    await expect(banner).toBeVisible();
    await expect(banner.getByTestId("wrong-portal-advice")).toContainText("RING_OAUTH_ISSUER=https://moi.ouraring.com/oauth/v2/ext/oauth-anonymous");
    await page.goto("/settings/account");
    await expect(page.getByTestId("token-state")).toContainText("newer developer portal");
    await expect(page.getByTestId("token-state")).toContainText("RING_OAUTH_ISSUER");
  } finally {
    await emulatorControl.ensureClient();
    await context.close();
  }
});
