// The home's rules in Settings → Alerts, on a phone and on a desktop: the ring's battery low,
// the ring charged and the bedtime window are added with their fields, each sends a test of
// itself to the person's ntfy channel (a receiver running in this test process), the history
// shows the tests, quiet hours are saved (and half of them refused), and the rules are removed.
import type { Browser, Page } from "@playwright/test";
import { startNtfyReceiver, type NtfyReceiver } from "../lib/test/alert-receivers";
import { expect, signIn, test } from "./fixtures";
import { E2E_APP_URL } from "./support/ports";

test.describe.configure({ mode: "serial" });
test.use({ timezoneId: "UTC" });

let ntfy: NtfyReceiver;

test.beforeAll(async () => {
  ntfy = await startNtfyReceiver();
});

test.afterAll(async () => {
  await ntfy?.close();
});

const n = (db: { prepare(sql: string): { get(...a: unknown[]): unknown } }, sql: string, ...args: unknown[]) =>
  Number((db.prepare(sql).get(...args) as { n: number }).n);

async function addRule(page: Page, kindLabel: string, fill?: (form: ReturnType<Page["getByRole"]>) => Promise<void>): Promise<void> {
  const form = page.getByRole("form", { name: "Add a rule" });
  const before = await page.getByTestId("alert-rule").count();
  await form.getByLabel("Rule", { exact: true }).selectOption({ label: kindLabel });
  await fill?.(form);
  await form.getByRole("button", { name: "Add rule" }).click();
  await expect(page.getByTestId("alert-rule")).toHaveCount(before + 1);
  await expect(form.getByTestId("alert-rule-status")).toHaveText("Rule added.");
}

const SIZES = [
  { name: "phone", viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
  { name: "desktop", viewport: { width: 1280, height: 900 }, isMobile: false, hasTouch: false },
] as const;

async function open(browser: Browser, size: (typeof SIZES)[number]) {
  const context = await browser.newContext({
    baseURL: E2E_APP_URL,
    viewport: size.viewport,
    isMobile: size.isMobile,
    hasTouch: size.hasTouch,
    reducedMotion: "reduce",
    timezoneId: "UTC",
  });
  return { context, page: await context.newPage() };
}

for (const size of SIZES) {
  test(`[ALERTS] the battery and bedtime rules are added, tested and removed in Settings (${size.name})`, async ({ browser, appDb, emulator }) => {
    void emulator; // the e2e client is registered before the person's tokens are minted
    const { context, page } = await open(browser, size);
    try {
      const who = await signIn(context, appDb, { backfill: false });
      const topic = `home-${size.name}-${Date.now().toString(36)}`;
      await page.goto("/settings/alerts");
      const section = page.getByTestId("alerts-section");
      await expect(section.getByRole("heading", { name: "Alerts" })).toBeVisible();
      // the form is React's once the page has loaded (typed into before, the value is lost)
      await page.waitForLoadState("networkidle");

      // quiet hours: half of them is refused; both ends are kept
      await section.getByLabel("Quiet from").fill("22:00");
      await section.getByRole("button", { name: "Save" }).click();
      await expect(section.getByTestId("alert-settings-status")).toHaveText("Give both ends of the quiet hours, or neither.");
      await section.getByLabel("Quiet until").fill("07:00");
      await section.getByRole("button", { name: "Save" }).click();
      await expect(section.getByTestId("alert-settings-status")).toHaveText("Saved.");
      expect(appDb.prepare(`SELECT quietFrom, quietTo FROM alert_settings WHERE userId = ?`).get(who.userId)).toEqual({ quietFrom: 22 * 60, quietTo: 7 * 60 });
      await page.reload();
      await expect(section.getByLabel("Quiet from")).toHaveValue("22:00");
      await expect(section.getByLabel("Quiet until")).toHaveValue("07:00");

      // a channel to send the tests to
      const add = page.getByRole("form", { name: "Add a channel" });
      await add.getByLabel("Channel", { exact: true }).selectOption("ntfy");
      await add.getByLabel("Topic URL").fill(ntfy.topicUrl(topic));
      await add.getByRole("button", { name: "Add channel" }).click();
      await expect(add.getByTestId("alert-channel-status")).toHaveText("Channel added.");

      // the three rules, with their fields and bounds
      const form = page.getByRole("form", { name: "Add a rule" });
      await form.getByLabel("Rule", { exact: true }).selectOption({ label: "The ring's battery is low" });
      await expect(form.getByLabel("Battery at or under")).toHaveValue("20");
      await form.getByLabel("Battery at or under").fill("80");
      // the field carries the same bounds as the server's check
      expect(await form.getByLabel("Battery at or under").evaluate((e) => (e as HTMLInputElement).validity.rangeOverflow)).toBe(true);
      await addRule(page, "The ring's battery is low", (f) => f.getByLabel("Battery at or under").fill("25"));
      await addRule(page, "The ring is charged", async (f) => {
        await expect(f.getByLabel("Charged to")).toHaveValue("100");
        await f.getByLabel("Charged to").fill("95");
      });
      await addRule(page, "Your bedtime window opens");
      const rules = page.getByTestId("alert-rule");
      await expect(rules.filter({ hasText: "Ring battery at or under 25 %, not charging" })).toHaveCount(1);
      await expect(rules.filter({ hasText: "Ring charged to 95 % on the charger" })).toHaveCount(1);
      await expect(rules.filter({ hasText: "When tonight's recommended bedtime window opens" })).toHaveCount(1);
      expect(appDb.prepare(`SELECT kind, params FROM alert_rule WHERE userId = ? ORDER BY createdAt`).all(who.userId)).toEqual([
        { kind: "ring_battery_low", params: JSON.stringify({ level: 25 }) },
        { kind: "ring_charged", params: JSON.stringify({ level: 95 }) },
        { kind: "bedtime_window", params: "{}" },
      ]);

      // each rule's test reaches the channel once, whatever the hour (tests ignore quiet hours)
      for (const [kind, label] of [
        ["ring_battery_low", "the ring's battery is low"],
        ["ring_charged", "the ring is charged"],
        ["bedtime_window", "your bedtime window opens"],
      ] as const) {
        const row = page.locator(`[data-testid="alert-rule"][data-kind="${kind}"]`);
        await row.getByRole("button", { name: "Send a test" }).click();
        await expect(row.getByTestId("alert-rule-test-status")).toHaveText("Test sent to 1 channel.");
        await expect.poll(() => ntfy.messages.filter((m) => m.topic === topic && m.title === `Test from Ringside: ${label}`).length).toBe(1);
      }
      const sent = ntfy.messages.filter((m) => m.topic === topic);
      expect(sent).toHaveLength(3);
      expect(sent[0]!.message).toContain("This is a test of your rule “Ring battery at or under 25 %, not charging”.");
      await page.reload();
      await expect(page.getByTestId("alert-history-row").filter({ hasText: "Test from Ringside: " })).toHaveCount(3);

      // removed, one by one
      for (let left = 3; left > 0; left--) {
        await page.getByTestId("alert-rule").first().getByRole("button", { name: "Remove" }).click();
        await expect(page.getByTestId("alert-rule")).toHaveCount(left - 1);
      }
      await expect(section.getByText("No rule yet.")).toBeVisible();
      expect(n(appDb, `SELECT COUNT(*) AS n FROM alert_rule WHERE userId = ?`, who.userId)).toBe(0);
      // nothing but the tests went out, and nothing overflows the screen
      expect(ntfy.messages.filter((m) => m.topic === topic)).toHaveLength(3);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    } finally {
      await context.close();
    }
  });
}
