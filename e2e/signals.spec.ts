// The explained signals as a person sees them, on a history planted through Ringside's own
// import (POST /api/import with a "ringside-export-v1" file): a steady life, then three nights
// with +1.0 °C, +7 bpm, −30 % HRV and +2 breaths a minute, ending today. Today shows the early
// warning (likely, which markers moved, against which baseline, not a diagnosis), sleep debt and
// regularity; Trends draws the normal range on the physiology charts and charts sleep debt;
// Workouts shows the training load with VO2 max. In light and dark, at phone and desktop
// widths, with no console errors; each card links to its section of the signals page; the
// sleep need shows its range and source on the card and the Day view; the sleep need set in
// Settings moves the sleep debt.
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { clock } from "@/lib/clock";
import { addDays, todayIn } from "@/lib/days";
import { plantedHistory } from "@/lib/test/signal-history";
import { expect, plantSessionPerson, SESSION_COOKIE, test } from "./fixtures";
import { screenshot, setTheme } from "./dashboard-support";
import { E2E_APP_URL } from "./support/ports";

test.describe.configure({ mode: "serial" });
test.use({ timezoneId: "UTC" });

const TODAY = todayIn("UTC", clock.date());
let sessionToken = "";

async function signedIn(
  browser: Browser,
  opts: { width: number; theme: "light" | "dark"; scripts?: false },
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({
    baseURL: E2E_APP_URL,
    viewport: { width: opts.width, height: 900 },
    reducedMotion: "reduce",
    timezoneId: "UTC",
    javaScriptEnabled: opts.scripts ?? true,
  });
  await context.addCookies([{ name: SESSION_COOKIE, value: sessionToken, url: E2E_APP_URL, httpOnly: true, sameSite: "Lax" }]);
  await setTheme(context, opts.theme);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(e.message));
  return { context, page, errors };
}

async function checkLayout(page: Page, name: string, theme: "light" | "dark", width: number) {
  expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(theme === "dark");
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${name} at ${width}px overflows`).toBeLessThanOrEqual(0);
  expect(await page.locator('[role="img"]:not([aria-label]), [role="img"][aria-label=""]').count(), `${name}: role=img without a name`).toBe(0);
  await screenshot(page, `signals-${name}-${theme}-${width}`);
}

test.beforeAll(async ({ playwright }) => {
  sessionToken = plantSessionPerson("sig", "signals");
  const history = plantedHistory({ from: addDays(TODAY, -99), to: TODAY, episodeNights: 3, offset: "+14:00" });
  const request = await playwright.request.newContext({
    baseURL: E2E_APP_URL,
    extraHTTPHeaders: { cookie: `${SESSION_COOKIE}=${sessionToken}`, origin: E2E_APP_URL },
  });
  const res = await request.post("/api/import", { data: history.file });
  expect(res.status(), await res.text()).toBe(200);
  expect((await res.json()).rejected).toBe(0);
  await request.dispose();
});

for (const theme of ["light", "dark"] as const) {
  for (const width of [390, 1280]) {
    test(`[SIGNALS] Today, Trends and Workouts show the signals (${theme}, ${width}px)`, async ({ browser }) => {
      const { context, page, errors } = await signedIn(browser, { width, theme });

      await page.goto("/");
      const warning = page.getByTestId("signal-early_warning");
      await expect(warning.getByTestId("early-warning-level")).toHaveText("Likely");
      await expect(warning.locator('[data-flagged="true"]')).toHaveCount(4);
      await expect(warning.getByTestId("marker-resting_heart_rate")).toContainText(/\+\d+ bpm/);
      await expect(warning).toContainText("This is not a diagnosis");
      await expect(warning).toContainText(/Baseline: the median of your nights .* \(58 nights\)/);
      await expect(warning.getByTestId("signal-docs-link")).toHaveAttribute("href", "/docs/signals#early-warning");
      await expect(page.getByTestId("sleep-debt-value")).toHaveText(/\d+ (h \d{2} )?min/);
      // the need the debt is measured against: its range and where it came from
      const need = page.getByTestId("signal-sleep_debt").getByTestId("sleep-need");
      await expect(need).toHaveText(/^Need: \d+ h \d{2} min \(\d+ h \d{2} min – \d+ h \d{2} min\), estimated from 90 nights\.$/);
      await expect(need.getByTestId("sleep-need-source")).toHaveText("estimated from 90 nights");
      await expect(page.getByTestId("sri-value")).toHaveText(/^\d+$/);
      await expect(page.getByTestId("social-jet-lag")).toContainText(" h: mid-sleep ");
      await page.waitForLoadState("networkidle");
      await checkLayout(page, "today", theme, width);

      await page.goto("/trends?m=night.average_hrv,signals.sleep_debt&range=90d");
      const hrv = page.locator('[data-testid=trend-panel][data-metric="night.average_hrv"]');
      await expect(hrv.getByTestId("normal-band")).toHaveCount(1);
      await expect(hrv.getByTestId("normal-range-note")).toContainText("the 7-day mean is below it");
      await expect(hrv.getByTestId("normal-range-note").getByRole("link")).toHaveAttribute("href", "/docs/signals#normal-ranges");
      const debt = page.locator('[data-testid=trend-panel][data-metric="signals.sleep_debt"]');
      // the chart: a group named for the metric and the range (its keyboard reading inside)
      await expect(debt.getByRole("group", { name: /^Sleep debt, / })).toBeVisible();
      await expect(debt.locator("[data-chart-ready]")).toHaveCount(1);
      await expect(page.getByLabel("Normal range", { exact: true })).toBeChecked();
      await page.waitForLoadState("networkidle");
      await checkLayout(page, "trends", theme, width);

      await page.goto("/workouts");
      const load = page.getByTestId("signal-training_load");
      await expect(load.getByTestId("training-load-summary")).toContainText(/Acute:chronic ratio \d\.\d\d/);
      await expect(load.getByTestId("load-ratio-chart")).toBeVisible();
      await expect(load.getByTestId("vo2max-trend")).toContainText("ml/kg/min");
      await page.waitForLoadState("networkidle");
      await checkLayout(page, "workouts", theme, width);

      expect(errors).toEqual([]);
      await context.close();
    });
  }
}

test("[SIGNALS] a night flagged by the temperature's 3-night mean while tonight's change is near 0: the card, the Day view and the API name the rule, its value and threshold", async ({
  playwright,
  browser,
}) => {
  // another person: a steady history, then two nights at +0.55 °C and tonight back at the usual ±0
  const token = plantSessionPerson("mean3", "signals-mean3");
  const history = plantedHistory({
    from: addDays(TODAY, -99),
    to: TODAY,
    episodeNights: 0,
    offset: "+14:00",
    temperature: { [addDays(TODAY, -2)]: 0.55, [addDays(TODAY, -1)]: 0.55, [TODAY]: 0 },
  });
  const request = await playwright.request.newContext({
    baseURL: E2E_APP_URL,
    extraHTTPHeaders: { cookie: `${SESSION_COOKIE}=${token}`, origin: E2E_APP_URL },
  });
  expect((await request.post("/api/import", { data: history.file })).status()).toBe(200);
  const row = (await (await request.get(`/api/signals?from=${TODAY}&to=${TODAY}`)).json()).days[0].signals.find(
    (x: { kind: string }) => x.kind === "early_warning",
  );
  const temp = row.markers.find((m: { marker: string }) => m.marker === "temperature_deviation");
  expect(Math.abs(temp.delta)).toBeLessThan(0.05);
  expect(temp.rule).toEqual({ name: "mean3", value: expect.closeTo(0.37, 1), threshold: 0.3 });
  await request.dispose();

  const context = await browser.newContext({ baseURL: E2E_APP_URL, viewport: { width: 1280, height: 900 }, reducedMotion: "reduce", timezoneId: "UTC" });
  await context.addCookies([{ name: SESSION_COOKIE, value: token, url: E2E_APP_URL, httpOnly: true, sameSite: "Lax" }]);
  const page = await context.newPage();
  await page.goto("/");
  const card = page.getByTestId("signal-early_warning");
  await expect(card.getByTestId("early-warning-level")).toHaveText("Watch");
  await expect(card.getByTestId("marker-temperature_deviation")).toHaveAttribute("data-flagged", "true");
  const why = card.getByTestId("rule-temperature_deviation");
  await expect(why).toHaveAttribute("data-rule", "mean3");
  await expect(why).toContainText(/Temperature: the mean of the last 3 nights \+0\.3\d °C, at least \+0\.30 °C above baseline/);
  await page.goto(`/day/${TODAY}`);
  await expect(page.getByTestId("signal-early_warning").getByTestId("rule-temperature_deviation")).toContainText("the mean of the last 3 nights");
  await context.close();
});

test("[SIGNALS] the Day view shows that day's sleep debt and the need's range and source, as the card does", async ({ browser }) => {
  const { context, page, errors } = await signedIn(browser, { width: 390, theme: "light" });
  await page.goto("/");
  const card = page.getByTestId("signal-sleep_debt");
  const words = (await card.getByTestId("sleep-need").textContent())!;
  const owed = (await card.getByTestId("sleep-debt-value").textContent())!;
  await page.goto(`/day/${TODAY}`);
  const day = page.getByTestId("day-sleep-debt");
  await expect(day.getByTestId("sleep-need")).toHaveText(words);
  await expect(day.getByTestId("day-sleep-debt-value")).toHaveText(owed);
  await expect(day.getByRole("link", { name: "How this is worked out" })).toHaveAttribute("href", "/docs/signals#sleep-debt");
  expect(errors).toEqual([]);
  await context.close();
});

test("[SIGNALS] a card's link opens its section of the signals page", async ({ browser }) => {
  const { context, page, errors } = await signedIn(browser, { width: 1280, theme: "light" });
  await page.goto("/");
  await page.getByTestId("signal-sleep_debt").getByTestId("signal-docs-link").click();
  await expect(page).toHaveURL(/\/docs\/signals#sleep-debt$/);
  await expect(page.getByRole("heading", { level: 2, name: "Sleep debt" })).toBeInViewport();
  await expect(page.getByTestId("signals-docs")).toContainText("debt = (14 / Σ wᵢ over nights with data)");
  expect(errors).toEqual([]);
  await context.close();
});

test("[SIGNALS] before Settings has hydrated, its forms' submit buttons and its choices wait (the browser would send a form itself, its fields in the address; a choice would be lost)", async ({
  browser,
}) => {
  const { context, page } = await signedIn(browser, { width: 1280, theme: "light", scripts: false });
  await page.goto("/settings/alerts");
  for (const name of ["Add rule", "Add channel"]) await expect(page.getByRole("button", { name, exact: true }), name).toBeDisabled();
  await page.goto("/settings/preferences");
  await expect(page.getByRole("radio", { name: "Dark", exact: true })).toBeDisabled();
  await page.goto("/settings/data");
  await expect(page.getByRole("radio", { name: "CSV", exact: true })).toBeDisabled();
  await expect(page.getByTestId("export-collection")).toBeDisabled();
  await expect(page.getByTestId("export-link")).not.toHaveAttribute("href");
  await page.goto("/settings/signals");
  await expect(page.getByRole("button", { name: "Save need", exact: true })).toBeDisabled();
  await page.getByLabel("Sleep need (hours)").fill("9");
  await page.getByRole("button", { name: "Save need" }).click({ force: true });
  await expect(page).toHaveURL(/\/settings\/signals$/);
  await context.close();
});

test("[SIGNALS] the sleep need set in Settings is the one sleep debt uses", async ({ browser }) => {
  const { context, page, errors } = await signedIn(browser, { width: 1280, theme: "light" });
  await page.goto("/settings/signals");
  await page.getByLabel("Sleep need (hours)").fill("9");
  await page.getByRole("button", { name: "Save need" }).click();
  await expect(page.getByTestId("signal-settings").getByRole("status")).toHaveText("Saved.");
  await page.goto("/");
  await expect(page.getByTestId("signal-sleep_debt").getByTestId("sleep-need")).toHaveText("Need: 9 h 00 min, your setting.");
  await page.goto("/settings/signals");
  await page.getByLabel("Sleep need (hours)").fill("");
  await page.getByRole("button", { name: "Save need" }).click();
  await expect(page.getByTestId("signal-settings").getByRole("status")).toHaveText("Saved.");
  expect(errors).toEqual([]);
  await context.close();
});
