// Alerts end to end: a person sets up channels (ntfy, e-mail, webhook) and rules in Settings →
// Alerts, sends each channel a test, then each alert is triggered from emulator data (a
// readiness score edited through the control API, the last nights deleted, the grant
// withdrawn) and the digest at the current hour; each arrives exactly once at every receiver
// running in this test process, and the history in Settings shows what was sent and why.
import crypto from "node:crypto";
import type Database from "better-sqlite3";
import type { Page } from "@playwright/test";
import { clock } from "@/lib/clock";
import { addDays, utcDay } from "@/lib/days";
import { SYNC_COLLECTIONS, WEBHOOK_DATA_TYPES } from "@/lib/resources";
import {
  startNtfyReceiver,
  startSmtpReceiver,
  startWebhookReceiver,
  type NtfyReceiver,
  type SmtpReceiver,
  type WebhookReceiver,
} from "../lib/test/alert-receivers";
import { connectRing, expect, test, testPerson, uniqueEmail, waitForBackfill } from "./fixtures";
import { emulatorControl } from "./support/emulator-control";
import { E2E_EMULATOR_URL, E2E_SMTP_PORT } from "./support/ports";
import { decryptStoredToken } from "./support/tokens";

test.describe.configure({ mode: "serial" });
test.use({ timezoneId: "UTC" });

/** A day relative to the run's today (the app's and the emulator's clock, pinned for the run). */
const dayOffset = (d: number) => addDays(utcDay(clock.now()), d);

let ntfy: NtfyReceiver;
let hook: WebhookReceiver;
let smtp: SmtpReceiver;
const topic = `ringside-e2e-${crypto.randomUUID().slice(0, 8)}`;

test.beforeAll(async () => {
  ntfy = await startNtfyReceiver({ token: "tk_e2e_alerts" });
  hook = await startWebhookReceiver();
  smtp = await startSmtpReceiver({ port: E2E_SMTP_PORT });
});

test.afterAll(async () => {
  await ntfy?.close();
  await hook?.close();
  await smtp?.close();
});

const n = (db: Database.Database, sql: string, ...args: unknown[]) => Number((db.prepare(sql).get(...args) as { n: number }).n);

/** What each receiver got of one purpose ("test", "alert", "digest") and, for alerts, one rule. */
function arrived(mailbox: string, purpose: string, rule?: string) {
  return {
    ntfy: ntfy.messages.filter(
      (m) =>
        m.topic === topic &&
        (purpose === "test" ? m.tags.includes("white_check_mark") : purpose === "digest" ? m.tags.includes("calendar") : m.tags.includes("warning")) &&
        (!rule || m.title?.includes(rule)),
    ),
    mail: smtp.mails.filter(
      (m) =>
        m.to.includes(mailbox) &&
        !m.subject.startsWith("Ringside confirmation code") &&
        (purpose === "test"
          ? m.subject === "Test from Ringside"
          : purpose === "digest"
            ? m.subject.startsWith("Your week")
            : !m.subject.startsWith("Your week") && m.subject !== "Test from Ringside") &&
        (!rule || m.subject.includes(rule)),
    ),
    hook: hook.verified().filter((c) => c.body.type === purpose && (!rule || String(c.body.title).includes(rule))),
  };
}

async function expectOnceEach(mailbox: string, purpose: string, rule?: string): Promise<void> {
  await expect
    .poll(() => Object.values(arrived(mailbox, purpose, rule)).map((x) => x.length), { timeout: 30_000, intervals: [250, 500, 1000] })
    .toEqual([1, 1, 1]);
}

async function addRule(page: Page, fill: (form: ReturnType<Page["getByRole"]>) => Promise<void>, kindLabel: string): Promise<void> {
  const form = page.getByRole("form", { name: "Add a rule" });
  const before = await page.getByTestId("alert-rule").count();
  await form.getByLabel("Rule", { exact: true }).selectOption({ label: kindLabel });
  await fill(form);
  await form.getByRole("button", { name: "Add rule" }).click();
  await expect(page.getByTestId("alert-rule")).toHaveCount(before + 1);
  await expect(form.getByTestId("alert-rule-status")).toHaveText("Rule added.");
}

/** The worker looked at the person's rules again after `since` (an open episode was seen again). */
async function evaluatedAfter(db: Database.Database, userId: string, since: string): Promise<void> {
  await expect
    .poll(() => n(db, `SELECT COUNT(*) AS n FROM alert_episode WHERE userId = ? AND endedAt IS NULL AND lastSeenAt > ?`, userId, since), { timeout: 30_000 })
    .toBeGreaterThan(0);
}

const nowDb = () => clock.date().toISOString().replace("Z", "+00:00");

test("[ALERTS] rules and channels set up in Settings; each alert from emulator data arrives once at ntfy, e-mail and webhook; the history shows it", async ({
  page,
  appDb,
}) => {
  test.setTimeout(240_000);
  // this spec's person wears the ring every day (sleep and readiness on each of the last days)
  const email = uniqueEmail("alerts");
  const { ringUserId } = await connectRing(page, { email, person: testPerson("alerts › the person with every alert") });
  const userId = (appDb.prepare(`SELECT id FROM "User" WHERE ringUserId = ?`).get(ringUserId) as { id: string }).id;
  await waitForBackfill(appDb, userId, SYNC_COLLECTIONS.length, 90_000);
  await expect
    .poll(() => n(appDb, `SELECT COUNT(*) AS n FROM webhook_subscription WHERE status = 'active'`), { timeout: 30_000 })
    .toBe(3 * WEBHOOK_DATA_TYPES.length);

  await page.goto("/settings/alerts");
  const section = page.getByTestId("alerts-section");
  await expect(section.getByRole("heading", { name: "Alerts" })).toBeVisible();

  // Messages: the browser's zone is filled in; values stay out
  await expect(section.getByLabel("Time zone")).toHaveValue("UTC");
  await expect(section.getByLabel(/Include values/)).not.toBeChecked();
  await section.getByRole("button", { name: "Save" }).click();
  await expect(section.getByTestId("alert-settings-status")).toHaveText("Saved.");

  // Channels
  const add = page.getByRole("form", { name: "Add a channel" });
  await add.getByLabel("Channel", { exact: true }).selectOption("ntfy");
  await add.getByLabel("Topic URL").fill(ntfy.topicUrl(topic));
  await add.getByLabel("Access token (optional)").fill("tk_e2e_alerts");
  await add.getByLabel("Name (optional)").fill("Phone");
  await add.getByRole("button", { name: "Add channel" }).click();
  await expect(add.getByTestId("alert-channel-status")).toHaveText("Channel added.");
  await add.getByLabel("Channel", { exact: true }).selectOption("email");
  await add.getByLabel("Send to").fill(email);
  await add.getByRole("button", { name: "Add channel" }).click();
  await expect(page.getByTestId("alert-channel")).toHaveCount(2);
  // the address gets a code, and nothing else until the code is entered at its channel
  await expect(add.getByTestId("alert-channel-status")).toContainText("A code was sent to the address");
  await expect.poll(() => smtp.mails.filter((m) => m.to.includes(email)).length).toBe(1);
  const code = /\b(\d{6})\b/.exec(smtp.mails.find((m) => m.to.includes(email))!.text)![1]!;
  const mailRow = page.getByTestId("alert-channel").nth(1);
  await expect(mailRow).toContainText("not confirmed yet");
  await expect(mailRow.getByRole("button", { name: "Send a test" })).toHaveCount(0);
  await mailRow.getByLabel("Confirmation code").fill(code);
  await mailRow.getByRole("button", { name: "Confirm", exact: true }).click();
  await expect(mailRow).not.toContainText("not confirmed yet");
  await add.getByLabel("Channel", { exact: true }).selectOption("webhook");
  await add.getByLabel("Webhook URL").fill(hook.url);
  await add.getByLabel("Name (optional)").fill("Home Assistant");
  await add.getByRole("button", { name: "Add channel" }).click();
  const secret = (await add.getByTestId("webhook-secret").textContent())!.trim();
  expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
  hook.secret = secret;
  await expect(page.getByTestId("alert-channel")).toHaveCount(3);
  // the token and the secret are stored encrypted, and never shown again
  const stored = appDb.prepare(`SELECT kind, secret FROM alert_channel WHERE userId = ? ORDER BY createdAt`).all(userId) as Array<{
    kind: string;
    secret: string | null;
  }>;
  expect(stored.map((c) => c.kind)).toEqual(["ntfy", "email", "webhook"]);
  expect(decryptStoredToken(stored[0]!.secret!)).toBe("tk_e2e_alerts");
  expect(decryptStoredToken(stored[2]!.secret!)).toBe(secret);
  await page.reload();
  await expect(page.getByTestId("alerts-section")).not.toContainText(secret);
  await expect(page.getByTestId("alert-channel").first()).toContainText("access token set");

  // Send a test to each channel
  for (let i = 0; i < 3; i++) {
    const row = page.getByTestId("alert-channel").nth(i);
    await row.getByRole("button", { name: "Send a test" }).click();
    await expect(row.getByTestId("alert-test-status")).toHaveText("Test sent.");
  }
  await expectOnceEach(email, "test");
  expect(arrived(email, "test").ntfy[0]!.authorization).toBe("Bearer tk_e2e_alerts");

  // Rules
  await addRule(
    page,
    async (form) => {
      await form.getByLabel("Metric").selectOption("readiness.score");
      await form.getByLabel("Side of the usual range").selectOption("below");
      await form.getByLabel("Days in a row").fill("2");
    },
    "A metric outside its usual range",
  );
  await addRule(page, async (form) => form.getByLabel("Days without a new night").fill("2"), "No new night of sleep");
  await addRule(page, async (form) => form.getByLabel("Hours of failing sync").fill("1"), "The connection needs attention");
  const now = clock.date();
  await addRule(
    page,
    async (form) => {
      await form.getByLabel("Weekday").selectOption(String(((now.getUTCDay() + 6) % 7) + 1));
      await form.getByLabel("Hour").selectOption(String(now.getUTCHours()));
    },
    "Weekly digest",
  );
  await expect(page.getByTestId("alert-rule")).toHaveCount(4);

  // The digest: this hour is its hour, so it goes out now, once
  await expectOnceEach(email, "digest");
  const digest = arrived(email, "digest").mail[0]!;
  expect(digest.text).toContain("Best day:");
  expect(digest.text).toMatch(/Trends: http:\/\/localhost:\d+\/trends\?m=readiness\.score,sleep\.score,activity\.score&range=custom/);
  // nothing else fired while the data was ordinary
  expect(Object.values(arrived(email, "alert")).map((x) => x.length)).toEqual([0, 0, 0]);

  // 1. Readiness below its usual range two days in a row: the service edits the last two days
  for (const day of [dayOffset(-1), dayOffset(0)]) {
    const doc = (await emulatorControl.documents<{ id: string; day: string }>(ringUserId, "daily_readiness")).find((d) => d.day === day)!;
    const res = await fetch(`${E2E_EMULATOR_URL}/_emulator/users/${ringUserId}/documents/daily_readiness/${doc.id}`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ score: 5 }),
    });
    expect(res.status).toBe(200);
  }
  await expectOnceEach(email, "alert", "Readiness score below your usual range");
  expect(arrived(email, "alert").ntfy[0]!.message).not.toMatch(/\b5\b/); // values were not included
  // still low on the next edit: the worker looks again, nothing is sent again
  const seen = nowDb();
  const today = (await emulatorControl.documents<{ id: string; day: string }>(ringUserId, "daily_readiness")).find((d) => d.day === dayOffset(0))!;
  await fetch(`${E2E_EMULATOR_URL}/_emulator/users/${ringUserId}/documents/daily_readiness/${today.id}`, {
    method: "PATCH",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ score: 4 }),
  });
  await evaluatedAfter(appDb, userId, seen);
  expect(Object.values(arrived(email, "alert", "Readiness")).map((x) => x.length)).toEqual([1, 1, 1]);

  // 2. No new night for two days: the last two nights are gone at the service
  for (const collection of ["sleep", "daily_sleep"]) {
    for (const doc of (await emulatorControl.documents<{ id: string; day: string }>(ringUserId, collection)).filter((d) => d.day >= dayOffset(-1))) {
      await emulatorControl.deleteDocument(ringUserId, collection, doc.id);
    }
  }
  await expectOnceEach(email, "alert", "No new night of sleep for 2 days");
  expect(arrived(email, "alert", "No new night").mail[0]!.text).toContain("Open the ring app");

  // 3. The grant is withdrawn at the service (no more notifications then): the next sync is
  //    refused, its one refresh gets invalid_grant → reconnect
  const account = appDb.prepare(`SELECT access_token FROM "Account" WHERE userId = ?`).get(userId) as { access_token: string };
  const revoke = await fetch(`${E2E_EMULATOR_URL}/oauth/revoke?access_token=${encodeURIComponent(decryptStoredToken(account.access_token))}`, {
    method: "POST",
  });
  expect(revoke.status).toBe(200);
  await page.goto("/sync");
  await page.getByRole("button", { name: "Sync now" }).click();
  await expect
    .poll(() => (appDb.prepare(`SELECT status FROM "Account" WHERE userId = ?`).get(userId) as { status: string }).status, { timeout: 30_000 })
    .toBe("needs_reconnect");
  await expectOnceEach(email, "alert", "Reconnect your ring to Ringside");
  expect(arrived(email, "alert", "Reconnect").hook[0]!.body).toMatchObject({ rule: "connection", key: "reconnect" });

  // Every alert once per channel, nothing else
  expect(Object.values(arrived(email, "alert")).map((x) => x.length)).toEqual([3, 3, 3]);
  expect(Object.values(arrived(email, "digest")).map((x) => x.length)).toEqual([1, 1, 1]);

  // The history in Settings: what was sent, why, where
  await page.goto("/settings/alerts");
  const history = page.getByTestId("alert-history-row");
  await expect(history).toHaveCount(15);
  await expect(page.getByTestId("alert-history-row").filter({ has: page.getByTestId("alert-history-status").filter({ hasText: /^sent/ }) })).toHaveCount(15);
  for (const title of [
    "Test from Ringside",
    "Your week",
    "Readiness score below your usual range",
    "No new night of sleep for 2 days",
    "Reconnect your ring to Ringside",
  ]) {
    await expect(history.filter({ hasText: title })).toHaveCount(3);
  }
  const row = history.filter({ hasText: "Readiness score below your usual range" }).first();
  await row.getByText("Why, and what was sent").click();
  await expect(row).toContainText("has been below your usual range for 2 days in a row");
  await expect(page.getByTestId("alert-rule").filter({ hasText: "Readiness score below" })).toContainText("happening now");
  // with its channels, rules and history, the section stays within about two screens at desktop width (the history scrolls in its box)
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  expect(height, `Settings → Alerts: ${height}px high`).toBeLessThanOrEqual(2000);

  // A rule switched off shows as off
  const digestRule = page.getByTestId("alert-rule").filter({ hasText: "Weekly digest" });
  await digestRule.getByRole("button", { name: "Switch off" }).click();
  await expect(digestRule).toContainText("off");
  await expect(digestRule.getByRole("button", { name: "Switch on" })).toBeVisible();
});

test("[ALERTS] bad channel input is refused with a clear message and stores nothing", async ({ page, appDb }) => {
  const { ringUserId } = await connectRing(page, {});
  const userId = (appDb.prepare(`SELECT id FROM "User" WHERE ringUserId = ?`).get(ringUserId) as { id: string }).id;
  await page.goto("/settings/alerts");
  const add = page.getByRole("form", { name: "Add a channel" });
  await add.getByLabel("Channel", { exact: true }).selectOption("webhook");
  // the browser's own check lets http(s)-looking URLs through; the server refuses credentials in them
  await add.getByLabel("Webhook URL").fill("https://user:password@example.test/hook");
  await add.getByRole("button", { name: "Add channel" }).click();
  await expect(add.getByRole("alert")).toHaveText(/Leave the user name and password out of the address/);
  await add.getByLabel("Channel", { exact: true }).selectOption("ntfy");
  await add.getByLabel("Topic URL").fill("https://ntfy.example.test/");
  await add.getByRole("button", { name: "Add channel" }).click();
  await expect(add.getByRole("alert")).toHaveText(/must end with the topic/);
  expect(n(appDb, `SELECT COUNT(*) AS n FROM alert_channel WHERE userId = ?`, userId)).toBe(0);
});
