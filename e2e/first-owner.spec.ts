// The first owner of a real instance (not demo mode, nobody on ALLOWED_EMAILS): the setup code
// printed in the server log at start is typed on the sign-in page; without it, or with a wrong
// one, the person sees why, nothing is stored and the access they granted goes back to the
// service. Runs its own fresh instance (the shared e2e app has ALLOWED_EMAILS and an owner).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { screenshot } from "./dashboard-support";
import { connectRing, expect, test, uniqueEmail } from "./fixtures";
import { emulatorControl } from "./support/emulator-control";
import { startInstance, type Instance } from "./support/instance";
import { E2E_EMULATOR_URL, E2E_FRESH_PORT } from "./support/ports";

test.describe.configure({ mode: "serial" });

const CLIENT = {
  client_id: "ringside-e2e-fresh",
  client_secret: "ringside-e2e-fresh-secret",
  redirect_uris: [`http://localhost:${E2E_FRESH_PORT}/api/auth/callback/ring`],
  approved: true,
};

let fresh: Instance;
let dataDir: string;

test.beforeAll(async () => {
  await emulatorControl.ensureClient();
  const res = await fetch(`${E2E_EMULATOR_URL}/_emulator/clients`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(CLIENT),
  });
  expect(res.status).toBeLessThan(300);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ringside-e2e-fresh-"));
  fresh = await startInstance({
    port: E2E_FRESH_PORT,
    dataDir,
    clientId: CLIENT.client_id,
    clientSecret: CLIENT.client_secret,
    env: { SYNC_DISABLED: "1", LOG_LEVEL: "info" },
  });
});

test.afterAll(async () => {
  await fresh?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function rows(): { users: number; accounts: number; sessions: number } {
  const db = new Database(path.join(dataDir, "ringside.db"), { readonly: true });
  try {
    const n = (t: string) => Number((db.prepare(`SELECT COUNT(*) AS n FROM "${t}"`).get() as { n: number }).n);
    return { users: n("User"), accounts: n("Account"), sessions: n("Session") };
  } finally {
    db.close();
  }
}

async function revokedFor(ringUserId: string): Promise<number> {
  const res = await fetch(`${E2E_EMULATOR_URL}/_emulator/requests?kind=revoke`);
  const { requests } = (await res.json()) as { requests: Array<{ user_id: string | null; status: number }> };
  return requests.filter((r) => r.user_id === ringUserId && r.status === 200).length;
}

test("[SETUP] the first connect needs the setup code from the server log", async ({ page }) => {
  // Printed at start, readable only by Ringside's user in its data directory.
  const code = await expect
    .poll(() => /setup code ([A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4})/.exec(fresh.logs())?.[1] ?? null, { timeout: 60_000 })
    .not.toBeNull()
    .then(() => /setup code ([A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4})/.exec(fresh.logs())![1]!);
  expect(fs.statSync(path.join(dataDir, "setup-code")).mode & 0o777).toBe(0o600);

  // Before an owner, /setup says how to get going, without the service's addresses or the checks.
  await page.goto(`${fresh.url}/setup`);
  await expect(page.getByTestId("setup-code-help")).toBeVisible();
  await expect(page.getByTestId("setup-checks")).toHaveCount(0);
  expect(await page.content()).not.toContain(E2E_EMULATOR_URL);

  // The sign-in page asks for the code.
  await page.goto(`${fresh.url}/sign-in`);
  await expect(page.getByTestId("setup-code-field")).toBeVisible();
  const email = uniqueEmail("first", "example.test");

  // No code: refused, nothing stored, the fresh access handed back.
  const first = await connectRing(page, { email, startAt: `${fresh.url}/sign-in` });
  await expect(page).toHaveURL(/\/sign-in\/error\?error=setup_code_required/);
  await expect(page.getByRole("heading", { name: "This Ringside needs its setup code" })).toBeVisible();
  expect(rows()).toEqual({ users: 0, accounts: 0, sessions: 0 });
  expect(await revokedFor(first.ringUserId)).toBe(1);

  // A wrong code: the same.
  await connectRing(page, { email, startAt: `${fresh.url}/sign-in`, setupCode: "ABCD-EFGH-JKMN" });
  await expect(page).toHaveURL(/\/sign-in\/error\?error=setup_code_invalid/);
  await expect(page.getByRole("heading", { name: "That setup code is not right" })).toBeVisible();
  expect(rows()).toEqual({ users: 0, accounts: 0, sessions: 0 });
  expect(await revokedFor(first.ringUserId)).toBe(2);
  await page.getByRole("link", { name: "Back to the start" }).click();
  await expect(page.getByTestId("setup-code-field")).toBeVisible();

  // The code from the log (as people type it): the owner; the code is used up.
  await connectRing(page, { email, startAt: `${fresh.url}/sign-in`, setupCode: code.toLowerCase().replaceAll("-", " ") });
  await expect(page).toHaveURL(`${fresh.url}/`);
  expect(rows()).toMatchObject({ users: 1, accounts: 1 });
  expect(fs.existsSync(path.join(dataDir, "setup-code"))).toBe(false);
  await page.goto(`${fresh.url}/settings/household`);
  await expect(page.getByTestId("household-section")).toBeVisible(); // the owner's section
  await page.goto(`${fresh.url}/setup`);
  await expect(page.getByTestId("setup-checks")).toBeVisible();
  await screenshot(page, "setup-as-owner");
});

test("[SETUP] with an owner, the sign-in page no longer asks for a code and /setup shows others nothing", async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${fresh.url}/sign-in`);
  await expect(page.getByRole("button", { name: /connect your ring/i })).toBeVisible();
  await expect(page.getByTestId("setup-code-field")).toHaveCount(0);
  await page.goto(`${fresh.url}/setup`);
  await expect(page.getByTestId("setup-done")).toBeVisible();
  expect(await page.content()).not.toContain(E2E_EMULATOR_URL);
  await context.close();
});
