// A person can find it and knows why (issue 55), as a person sees it at 1280 and 390 px:
// Settings in sections (each at most 2,000 px high on a desktop, every old /settings#anchor and
// every link to a setting landing on its section and field, "Track my cycle" two taps from Today
// on a phone), and why a night is missing on the Day view, Today, the Calendar and in
// GET /api/v1/days/:day, for nights planted through the emulator's test-person options: in the
// charger all night, worn without a sleep, rest mode on, not worn, today not recorded yet, and a
// person whose history is not downloaded yet.
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { clock } from "@/lib/clock";
import { addDays, todayIn } from "@/lib/days";
import { SETTINGS_SECTIONS } from "@/lib/settings-sections";
import { MISSING_REASON_TEXT, type MissingReason } from "@/lib/metrics/missing-night";
import { expect, test } from "./fixtures";
import { E2E_APP_URL } from "./support/ports";

test.describe.configure({ mode: "serial" });
test.use({ timezoneId: "UTC" });

type StorageState = Awaited<ReturnType<BrowserContext["storageState"]>>;
const TODAY = todayIn("UTC", clock.date());
/** The nights planted without a sleep, by the reason each must give. */
const NIGHTS: Record<Exclude<MissingReason, "not_synced">, string> = {
  charger: addDays(TODAY, -5),
  worn_no_sleep: addDays(TODAY, -7),
  rest_mode: addDays(TODAY, -9),
  not_worn: addDays(TODAY, -11),
  not_recorded_yet: TODAY,
};
let auth: StorageState | null = null;

/** A signed-in page `width` px wide (a phone's, 390 px, taps). */
async function open(browser: Browser, width: number): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: E2E_APP_URL,
    storageState: auth ?? undefined,
    viewport: { width, height: width < 768 ? 844 : 900 },
    hasTouch: width < 768,
    reducedMotion: "reduce",
  });
  return { context, page: await context.newPage() };
}

test("[EXPLAINED] a person with nights planted without a sleep, synced from the emulator", async ({ page, login }) => {
  test.setTimeout(180_000);
  await login({
    role: "owner",
    historyDays: 30,
    person: {
      not_worn_days: [NIGHTS.not_worn, NIGHTS.not_recorded_yet],
      nights: { [NIGHTS.charger]: "charger", [NIGHTS.worn_no_sleep]: "no_sleep", [NIGHTS.rest_mode]: "rest_mode" },
    },
  });
  auth = await page.context().storageState();
});

test("[EXPLAINED] Settings in sections: at most 2,000 px each at 1280 px, the list with the first section at /settings, every old link lands on its section and field", async ({
  browser,
}) => {
  const { context, page } = await open(browser, 1280);
  for (const s of SETTINGS_SECTIONS) {
    await page.goto(`/settings/${s.slug}`);
    await expect(page.getByRole("heading", { level: 2 }).first()).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Settings sections" }).getByRole("link", { name: s.title })).toHaveAttribute("aria-current", "page");
    await page.waitForLoadState("networkidle");
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    expect(height, `${s.slug}: ${height}px high`).toBeLessThanOrEqual(2000);
  }
  // /settings on a desktop: the list beside the first section
  await page.goto("/settings");
  await expect(page.getByTestId("connection-section")).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Settings sections" }).getByRole("link")).toHaveCount(SETTINGS_SECTIONS.length);

  // the one-page Settings' addresses: the section's own anchor opens the section, a field's anchor the field
  for (const s of SETTINGS_SECTIONS) {
    for (const [i, anchor] of s.anchors.entries()) {
      await page.goto(`/settings#${anchor}`);
      if (i === 0) await expect(page, anchor).toHaveURL(`${E2E_APP_URL}/settings/${s.slug}`);
      else {
        await expect(page, anchor).toHaveURL(`${E2E_APP_URL}/settings/${s.slug}#${anchor}`);
        await expect(page.locator(`#${anchor}`), anchor).toBeInViewport();
      }
    }
  }
  // the links to a setting elsewhere: "Set it" under sleep debt, the free days under regularity
  await page.goto("/");
  await page.getByTestId("signal-sleep_debt").getByRole("link", { name: "Set it" }).click();
  await expect(page).toHaveURL(`${E2E_APP_URL}/settings/signals#sleep-need`);
  await expect(page.getByLabel("Sleep need (hours)")).toBeInViewport();
  await page.goto("/");
  await page.getByTestId("signal-regularity").getByRole("link", { name: "change them" }).click();
  await expect(page).toHaveURL(`${E2E_APP_URL}/settings/signals#free-days`);
  await context.close();
});

test("[EXPLAINED] on a phone: /settings is the list, and Track my cycle is two taps from Today", async ({ browser }) => {
  const { context, page } = await open(browser, 390);
  await page.goto("/");
  await expect(page.getByTestId("today")).toBeVisible();
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).tap();
  await expect(page).toHaveURL(`${E2E_APP_URL}/settings`);
  await expect(page.getByTestId("connection-section")).toBeHidden();
  await page.getByRole("link", { name: /^Your cycle/ }).tap();
  await expect(page).toHaveURL(`${E2E_APP_URL}/settings/cycle`);
  await expect(page.getByRole("checkbox", { name: "Track my cycle" })).toBeVisible();
  await expect(page.getByRole("checkbox", { name: "Hormonal contraception" })).toBeVisible();
  await expect(page.getByRole("link", { name: "All settings" })).toBeVisible();
  await context.close();
});

test("[EXPLAINED] why a night is missing: on the Day view, Today, the Calendar and in GET /api/v1/days/:day", async ({ browser }) => {
  const { context, page } = await open(browser, 1280);
  for (const [reason, day] of Object.entries(NIGHTS)) {
    await page.goto(`/day/${day}`);
    const said = page.getByTestId("missing-reason");
    await expect(said, day).toHaveAttribute("data-reason", reason);
    await expect(said, day).toContainText(MISSING_REASON_TEXT[reason as MissingReason]);
  }
  await page.goto(`/day/${addDays(TODAY, -3)}`);
  await expect(page.getByTestId("main-sleep").getByTestId("sleep-period")).toBeVisible();
  await expect(page.getByTestId("missing-reason")).toHaveCount(0);
  await page.goto("/");
  await expect(page.getByTestId("missing-reason")).toContainText("the ring service has nothing yet");
  await page.goto("/calendar?m=sleep.score");
  await expect(page.locator(`[data-day="${NIGHTS.charger}"]`)).toHaveAttribute("aria-label", /no main sleep: on the charger/);

  // the read API with a token made in Settings
  await page.goto("/settings/api");
  await page.getByLabel("Token name").fill("Why nights are missing");
  await page.getByRole("button", { name: "Create token" }).click();
  const token = (await page.getByTestId("api-token-value").textContent())!;
  for (const [reason, day] of Object.entries(NIGHTS)) {
    const res = await page.request.get(`${E2E_APP_URL}/api/v1/days/${day}`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status()).toBe(200);
    expect((await res.json()).missing_reason, day).toBe(reason);
  }
  const slept = await page.request.get(`${E2E_APP_URL}/api/v1/days/${addDays(TODAY, -3)}`, { headers: { authorization: `Bearer ${token}` } });
  expect((await slept.json()).missing_reason).toBeNull();
  await context.close();
});

test("[EXPLAINED] a person whose history is not downloaded yet: not downloaded yet", async ({ page, login }) => {
  await login({ backfill: false });
  await page.goto(`/day/${addDays(TODAY, -1)}`);
  await expect(page.getByTestId("missing-reason")).toHaveAttribute("data-reason", "not_synced");
  await expect(page.getByTestId("missing-reason")).toContainText("not downloaded yet");
});
