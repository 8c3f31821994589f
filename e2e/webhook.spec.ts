// Webhooks end to end: the app subscribes at the emulator (PUBLIC_URL is set for e2e), the
// emulator syncs a new day for this spec's own person, its signed notifications reach
// POST /api/webhooks/ring, and the new day is in SQLite and on the sync page.
// Forged, stale and duplicate notifications change nothing.
import crypto from "node:crypto";
import type Database from "better-sqlite3";
import { expect, test, waitForBackfill } from "./fixtures";
import { E2E_CLIENT } from "./support/ports";
import { clock } from "@/lib/clock";
import { addDays, utcDay } from "@/lib/days";
import { SYNC_COLLECTIONS, WEBHOOK_DATA_TYPES } from "@/lib/resources";

test.describe.configure({ mode: "serial" });

const n = (db: Database.Database, sql: string, ...args: unknown[]) => Number((db.prepare(sql).get(...args) as { n: number }).n);

function sign(body: string, ts: string, secret = E2E_CLIENT.client_secret) {
  return crypto
    .createHmac("sha256", secret)
    .update(ts + body)
    .digest("hex")
    .toUpperCase();
}

test("[WEBHOOK] an emulator sync reaches the app by webhook and the new day is visible", async ({ page, appDb, emulator, login }) => {
  test.setTimeout(90_000);
  // this spec's own person, signed in by a session row and backfilled by the app
  const { ringUserId, userId } = await login({ role: "owner" });
  const user = { id: userId };
  // The app subscribed for every stored data type × event type.
  await expect
    .poll(() => n(appDb, `SELECT COUNT(*) AS n FROM webhook_subscription WHERE status = 'active'`), { timeout: 30_000 })
    .toBe(3 * WEBHOOK_DATA_TYPES.length);
  await waitForBackfill(appDb, user.id, SYNC_COLLECTIONS.length, 60_000);
  await page.goto("/settings/sync");
  await expect(page.getByTestId("webhook-state")).toHaveAttribute("data-mode", "active");

  // Tomorrow, which the app does not have yet, synced at the emulator: this spec's person wears
  // the ring every day, so the sync makes each of the daily documents, and each reaches the app.
  const day = addDays(utcDay(clock.now()), 1);
  const DAILY = ["daily_activity", "daily_readiness", "daily_sleep", "daily_stress"];
  expect(DAILY.map((c) => n(appDb, `SELECT COUNT(*) AS n FROM ${c} WHERE userId = ? AND day = ?`, user.id, day))).toEqual([0, 0, 0, 0]);
  const synced = await emulator.sync(ringUserId, day);
  expect(DAILY.filter((c) => (synced.documents[c] ?? []).length === 0)).toEqual([]);
  for (const table of DAILY)
    await expect.poll(() => n(appDb, `SELECT COUNT(*) AS n FROM ${table} WHERE userId = ? AND day = ?`, user.id, day), { timeout: 60_000 }).toBe(1);
  const made = DAILY;
  const deliveries = (await emulator.deliveries()) as unknown as { deliveries?: Array<{ ok: boolean; user_id: string }> };
  const mine = (Array.isArray(deliveries) ? deliveries : (deliveries.deliveries ?? [])) as Array<{ ok: boolean; user_id: string }>;
  expect(mine.filter((d) => d.user_id === ringUserId).every((d) => d.ok)).toBe(true);

  // Visible: the sync page shows the new newest day of that collection.
  await page.goto("/sync");
  await expect(page.getByTestId(`sync-collection-${made[0]}`).getByTestId("newest-day")).toHaveText(day);
});

test("[WEBHOOK] forged, stale and duplicate notifications change nothing", async ({ request, appDb }) => {
  const owner = appDb.prepare(`SELECT ringUserId FROM "User" WHERE role = 'owner'`).get() as { ringUserId: string } | undefined;
  const body = JSON.stringify({
    event_type: "delete",
    data_type: "daily_activity",
    object_id: "e2e-forged",
    event_time: clock.date().toISOString(),
    user_id: owner?.ringUserId ?? "nobody",
  });
  const events = () => n(appDb, `SELECT COUNT(*) AS n FROM webhook_event`);
  const before = events();
  const now = String(Math.floor(clock.now() / 1000));
  const forged = await request.post("/api/webhooks/ring", {
    data: body,
    headers: { "content-type": "application/json", "x-oura-timestamp": now, "x-oura-signature": sign(body, now, "wrong-secret") },
  });
  expect(forged.status()).toBe(401);
  const old = String(Math.floor(clock.now() / 1000) - 3600);
  const stale = await request.post("/api/webhooks/ring", {
    data: body,
    headers: { "content-type": "application/json", "x-oura-timestamp": old, "x-oura-signature": sign(body, old) },
  });
  expect(stale.status()).toBe(401);
  const malformed = '{"event_type":"nope"}';
  const bad = await request.post("/api/webhooks/ring", {
    data: malformed,
    headers: { "content-type": "application/json", "x-oura-timestamp": now, "x-oura-signature": sign(malformed, now) },
  });
  expect(bad.status()).toBe(400);
  expect(events()).toBe(before);
  const first = await request.post("/api/webhooks/ring", {
    data: body,
    headers: { "content-type": "application/json", "x-oura-timestamp": now, "x-oura-signature": sign(body, now) },
  });
  const again = await request.post("/api/webhooks/ring", {
    data: body,
    headers: { "content-type": "application/json", "x-oura-timestamp": now, "x-oura-signature": sign(body, now) },
  });
  expect([first.status(), again.status()]).toEqual([200, 200]);
  expect(events()).toBe(before + 1);
  // The handshake answers only our verification token.
  const wrong = await request.get("/api/webhooks/ring?verification_token=nope&challenge=c1");
  expect(wrong.status()).toBe(401);
  const right = await request.get("/api/webhooks/ring?verification_token=e2e-webhook-verification-token&challenge=c1");
  expect(await right.json()).toEqual({ challenge: "c1" });
});
