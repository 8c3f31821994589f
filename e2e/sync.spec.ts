// The sync page end to end: a person with a long history connects (by invite, so the spec
// does not depend on being the first person), the emulator is slowed down, and the
// progress bars move until every collection's history is complete; the page then shows
// freshness and counts that match the database.
import type Database from "better-sqlite3";
import type { Browser, Page } from "@playwright/test";
import { connectRing, expect, test, uniqueEmail } from "./fixtures";
import { E2E_APP_URL, E2E_EMULATOR_URL } from "./support/ports";

test.describe.configure({ mode: "serial" });

type UserRow = { id: string; email: string | null; ringUserId: string | null };

async function signInAsOwner(page: Page, db: Database.Database): Promise<{ email: string; ringUserId: string }> {
  const owner = db.prepare(`SELECT id, email, ringUserId FROM "User" WHERE role = 'owner'`).get() as UserRow | undefined;
  let email = owner?.email ?? null;
  if (owner && !email) {
    const res = await fetch(`${E2E_EMULATOR_URL}/_emulator/users`);
    const { users } = (await res.json()) as { users: Array<{ user_id: string; email: string }> };
    email = users.find((u) => u.user_id === owner.ringUserId)?.email ?? null;
  }
  const connected = await connectRing(page, { email: email ?? uniqueEmail("owner") });
  await expect(page).toHaveURL(`${E2E_APP_URL}/`);
  return connected;
}

async function createInvite(page: Page): Promise<string> {
  await page.goto("/settings");
  await page.getByRole("button", { name: "Create invite link" }).click();
  return ((await page.getByTestId("invite-link").textContent()) ?? "").trim();
}

async function joinWithInvite(browser: Browser, link: string, historyDays: number) {
  const context = await browser.newContext({ baseURL: E2E_APP_URL });
  const page = await context.newPage();
  await page.goto(link);
  const connected = await connectRing(page, { email: uniqueEmail("history"), historyDays });
  await expect(page).toHaveURL(`${E2E_APP_URL}/`);
  return { context, page, ...connected };
}

/** Delays the next `count` matching data requests (an emulator fault with no status). */
async function slowDown(pathPrefix: string, delayMs: number, count: number) {
  const res = await fetch(`${E2E_EMULATOR_URL}/_emulator/faults`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ delay_ms: delayMs, count, path_prefix: pathPrefix }),
  });
  expect(res.status).toBe(201);
}

async function clearFaults() {
  await fetch(`${E2E_EMULATOR_URL}/_emulator/faults`, { method: "DELETE" });
}

test.afterEach(clearFaults);

test("[SYNC] the progress bars move during a backfill and the page shows freshness", async ({ page, browser, appDb, emulator }) => {
  test.setTimeout(120_000);
  await signInAsOwner(page, appDb);
  const link = await createInvite(page);
  // Every list page now takes a quarter of a second: the backfill of 400 days is visible.
  await slowDown("/v2/usercollection/daily", 250, 400);
  await slowDown("/v2/usercollection/sleep", 250, 100);
  const member = await joinWithInvite(browser, link, 400);
  const sync = member.page;
  await sync.goto("/sync");
  await expect(sync.getByRole("heading", { name: "Sync" })).toBeVisible();

  const bar = sync.getByRole("progressbar", { name: "Activity history" });
  const seen = new Set<number>();
  await expect
    .poll(
      async () => {
        const v = Number(await bar.getAttribute("aria-valuenow"));
        seen.add(v);
        return [...seen].some((x) => x > 0 && x < 100) && v === 100;
      },
      { timeout: 90_000, intervals: [200] },
    )
    .toBe(true);
  // It moved through intermediate values on its way to complete.
  const between = [...seen].filter((v) => v > 0 && v < 100);
  expect(between.length).toBeGreaterThanOrEqual(2);

  // Every collection finishes; the counts on the page are the database's.
  const user = appDb.prepare(`SELECT id FROM "User" WHERE ringUserId = ?`).get(member.ringUserId) as { id: string };
  for (const [collection, table] of [
    ["daily_activity", "daily_activity"],
    ["daily_readiness", "daily_readiness"],
    ["sleep", "sleep_period"],
  ] as const) {
    const card = sync.getByTestId(`sync-collection-${collection}`);
    await expect(card).toHaveAttribute("data-status", "idle", { timeout: 60_000 });
    const stored = (appDb.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE userId = ?`).get(user.id) as { n: number }).n;
    expect(stored).toBeGreaterThan(300);
    await expect(card).toHaveAttribute("data-documents", String(stored));
  }
  await expect(sync.getByTestId("freshness")).toContainText(/Last synced (just now|\d+ min ago)/);
  await expect(sync.getByTestId("sync-page")).toHaveAttribute("data-running", "false", { timeout: 30_000 });
  const activityRows = appDb.prepare(`SELECT COUNT(*) AS n FROM daily_activity WHERE userId = ?`).get(user.id) as { n: number };
  const upstream = await emulator.documents(member.ringUserId, "daily_activity");
  expect(activityRows.n).toBe(upstream.length);
  await member.context.close();
});

test("[SYNC] Sync now re-checks the recent days", async ({ page, appDb }) => {
  const { ringUserId } = await signInAsOwner(page, appDb);
  const user = appDb.prepare(`SELECT id FROM "User" WHERE ringUserId = ?`).get(ringUserId) as { id: string };
  await page.goto("/sync");
  await expect(page.getByTestId("sync-collection-daily_readiness")).toHaveAttribute("data-status", "idle", { timeout: 60_000 });
  await expect(page.getByTestId("sync-page")).toHaveAttribute("data-running", "false", { timeout: 60_000 });
  const lastAttempt = () =>
    Date.parse((appDb.prepare(`SELECT lastAttemptAt AS t FROM sync_state WHERE userId = ? AND collection = 'daily_readiness'`).get(user.id) as { t: string }).t);
  const clicked = Date.now();
  await page.getByRole("button", { name: "Sync now" }).click();
  await expect.poll(lastAttempt, { timeout: 20_000 }).toBeGreaterThan(clicked);
  await expect(page.getByTestId("sync-page")).toHaveAttribute("data-running", "false", { timeout: 30_000 });
  await expect(page.getByTestId("freshness")).toContainText("Last synced just now");
});
