// "Delete all my data" stays deleted: after it, Settings → Your data and the sync page say that
// nothing syncs, "Sync now" is off, and nothing comes back by itself; "Download my history again"
// (where the delete was) starts the sync again and the history comes back.
import { expect, test, waitForBackfill } from "./fixtures";

test("[SYNC] after Delete all my data nothing syncs until Download my history again, which brings the history back", async ({ page, appDb, login }) => {
  test.setTimeout(240_000);
  const person = await login({ historyDays: 20 });
  const count = (table: string) => (appDb.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE userId = ?`).get(person.userId) as { n: number }).n;
  expect(count("daily_sleep")).toBeGreaterThan(0);

  await page.goto("/settings/data");
  const data = page.getByTestId("data-section");
  await expect(data.getByRole("button", { name: "Download my history again" })).toHaveCount(0);
  await data.getByRole("button", { name: "Delete all my data…" }).click();
  await page.getByTestId("delete-confirm").fill("DELETE");
  await page.getByTestId("delete-all").click();
  await expect(page.getByTestId("delete-done")).toBeVisible();
  // where the delete was: the note and the button
  const again = data.getByRole("button", { name: "Download my history again" });
  await expect(again).toBeVisible();
  await expect(data.getByTestId("history-deleted")).toContainText("Nothing is downloaded from the ring service until you ask for it");
  expect({ sleep: count("daily_sleep"), states: count("sync_state"), jobs: count("job") }).toEqual({ sleep: 0, states: 0, jobs: 0 });

  // the sync page says it too, and "Sync now" is off
  await page.goto("/sync");
  await expect(page.getByTestId("history-deleted")).toBeVisible();
  await expect(page.getByRole("button", { name: "Sync now" })).toBeDisabled();
  const refused = await page.request.post("/api/sync", { headers: { origin: new URL(page.url()).origin } });
  expect(refused.status()).toBe(409);
  expect(count("sync_state")).toBe(0);

  // pressed where the delete was: the sync starts again and the history comes back
  await page.goto("/settings/data");
  await data.getByRole("button", { name: "Download my history again" }).click();
  await expect(data.getByTestId("history-deleted")).toHaveCount(0);
  await waitForBackfill(appDb, person.userId);
  expect(count("daily_sleep")).toBeGreaterThan(0);
  await page.goto("/sync");
  await expect(page.getByTestId("history-deleted")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Sync now" })).toBeEnabled();
});
