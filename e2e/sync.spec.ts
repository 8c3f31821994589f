// The sync page end to end: this spec's own person with a long history (signed in by a session
// row, so the spec depends on no other), the emulator slowed down, and the progress bars move
// until every collection's history is complete; the page then shows freshness and counts that
// match the database.
import path from "node:path";
import Database from "better-sqlite3";
import { clock } from "@/lib/clock";
import { formatDay, formatMonth } from "@/lib/days";
import { COLLECTIONS } from "@/lib/metrics/catalog";
import { expect, signIn, test } from "./fixtures";
import { screenshot } from "./dashboard-support";
import { E2E_APP_URL, E2E_DATA_DIR, E2E_EMULATOR_URL } from "./support/ports";

test.describe.configure({ mode: "serial" });

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

test("[SYNC] the progress bars move during a backfill and the page shows freshness", async ({ browser, appDb, emulator }) => {
  // this spec's own person with 400 days, signed in by a session row; the backfill starts below
  const context = await browser.newContext({ baseURL: E2E_APP_URL });
  const member = { context, ...(await signIn(context, appDb, { historyDays: 400, backfill: false })) };
  // Every list page now takes a quarter of a second: the backfill of 400 days is visible.
  await slowDown("/v2/usercollection/daily", 250, 400);
  await slowDown("/v2/usercollection/sleep", 250, 100);
  const started = await context.request.post(`${E2E_APP_URL}/api/sync`, { headers: { origin: E2E_APP_URL } });
  expect(started.status()).toBeLessThan(300);
  const sync = await context.newPage();
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
  const user = { id: member.userId };
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

test("[SYNC] Sync now re-checks the recent days", async ({ page, appDb, login }) => {
  const { userId } = await login();
  const user = { id: userId };
  await page.goto("/sync");
  await expect(page.getByTestId("sync-collection-daily_readiness")).toHaveAttribute("data-status", "idle", { timeout: 60_000 });
  await expect(page.getByTestId("sync-page")).toHaveAttribute("data-running", "false", { timeout: 60_000 });
  const lastAttempt = () =>
    Date.parse(
      (appDb.prepare(`SELECT lastAttemptAt AS t FROM sync_state WHERE userId = ? AND collection = 'daily_readiness'`).get(user.id) as { t: string }).t,
    );
  // the app's clock (pinned for the run, like this process's): the attempt is after the click
  const clicked = clock.now();
  await page.getByRole("button", { name: "Sync now" }).click();
  await expect.poll(lastAttempt, { timeout: 60_000 }).toBeGreaterThan(clicked);
  await expect(page.getByTestId("sync-page")).toHaveAttribute("data-running", "false", { timeout: 30_000 });
  await expect(page.getByTestId("freshness")).toContainText("Last synced just now");
});

test("[SYNC] the sync page and Today's chips say how far back the history reaches, and that it is still reaching back", async ({
  page,
  appDb,
  emulator,
  login,
}) => {
  test.setTimeout(180_000);
  // a planted person with 75 days of history, back-filled through the app's real sync
  const { userId, ringUserId } = await login({ historyDays: 75 });
  const upstream = (await emulator.documents(ringUserId, "daily_activity")) as Array<{ day: string }>;
  const oldest = upstream.map((d) => d.day).reduce((a, b) => (b < a ? b : a));
  const stored = appDb.prepare(`SELECT MIN(day) AS d FROM daily_activity WHERE userId = ?`).get(userId) as { d: string };
  expect(stored.d).toBe(oldest);

  // complete: "history from <the oldest day>" on the sync page
  await page.goto("/sync");
  const card = page.getByTestId("sync-collection-daily_activity");
  await expect(card.getByTestId("oldest-day")).toHaveText(oldest);
  await expect(card.getByTestId("history-reach")).toHaveText("history from");
  // Today: the chip's text as before, its title naming where the history starts
  await page.goto("/");
  const chip = page.getByTestId("freshness-chips").locator('li[data-collection="daily_activity"]');
  await expect(chip).toHaveAttribute("title", new RegExp(`, history from ${formatDay(oldest, { withYear: true })}$`));
  await expect(chip).not.toContainText("back to");

  // still reaching back: the collection's back-fill not done (the person's sync held, as "Delete
  // all my data" holds it, so nothing finishes it while the test looks)
  const db = new Database(path.resolve(E2E_DATA_DIR, "ringside.db"), { fileMustExist: true });
  try {
    db.pragma("busy_timeout = 5000");
    db.prepare(`UPDATE "User" SET syncPausedAt = ? WHERE id = ?`).run(clock.date().toISOString().replace("Z", "+00:00"), userId);
    db.prepare(`UPDATE sync_state SET backfillDoneAt = NULL, status = 'backfilling' WHERE userId = ? AND collection = 'daily_activity'`).run(userId);
  } finally {
    db.close();
  }
  await page.goto("/sync");
  await expect(card.getByTestId("history-reach")).toHaveText("reaching back: from");
  await expect(card.getByTestId("oldest-day")).toHaveText(oldest);
  await expect(page.getByTestId("sync-collection-daily_sleep").getByTestId("history-reach")).toHaveText("history from");
  await screenshot(page, "sync-history-reaching-back");

  // Today on a phone: the chip says how far back, short enough for 390 px; the title says it is still downloading
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/");
  await expect(chip).toContainText(`back to ${formatMonth(oldest, true)}`);
  await expect(chip).toHaveAttribute(
    "title",
    `${COLLECTIONS.daily_activity.label}: history back to ${formatDay(oldest, { withYear: true })}, still downloading`,
  );
  await expect(chip).toHaveAttribute("data-tone", "fresh");
  const box = (await chip.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  expect(box.height).toBeLessThan(30); // one line
  await screenshot(page.getByTestId("freshness-chips"), "today-chips-reaching-back-390");
});
