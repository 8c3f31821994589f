// Cycle tracking as a person sees it, on a history planted through Ringside's own import: off
// until turned on (no card, no button, no nav link, no Cycle view, no API rows); turned on in
// Settings ("Track my cycle"), a phone's Today starts with "Log period start", one tap logs
// today's start, and the Cycle view shows it after a reload; the Day page logs and removes an
// end; turned off again, all of it is gone.
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { clock } from "@/lib/clock";
import { addDays, todayIn } from "@/lib/days";
import { plantedHistory } from "@/lib/test/signal-history";
import { expect, plantSessionPerson, SESSION_COOKIE, test } from "./fixtures";
import { E2E_APP_URL } from "./support/ports";

test.describe.configure({ mode: "serial" });
test.use({ timezoneId: "UTC" });

const TODAY = todayIn("UTC", clock.date());
let sessionToken = "";

/** A phone (390 × 844, touch) or a desktop window, signed in as the person; console errors collected. */
async function signedIn(browser: Browser, phone: boolean): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({
    baseURL: E2E_APP_URL,
    viewport: phone ? { width: 390, height: 844 } : { width: 1280, height: 900 },
    isMobile: phone,
    hasTouch: phone,
    reducedMotion: "reduce",
    timezoneId: "UTC",
  });
  await context.addCookies([{ name: SESSION_COOKIE, value: sessionToken, url: E2E_APP_URL, httpOnly: true, sameSite: "Lax" }]);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" && !/404 \(Not Found\)/.test(m.text())) errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(e.message));
  return { context, page, errors };
}

/** Ticks or clears "Track my cycle" in Settings and waits until it is saved. */
async function setTracking(page: Page, on: boolean) {
  await page.goto("/settings/cycle");
  const box = page.getByRole("checkbox", { name: "Track my cycle" });
  await expect(page.getByRole("checkbox", { name: "Hormonal contraception" })).toBeVisible();
  if ((await box.isChecked()) !== on) {
    await box.setChecked(on);
    await expect(page.getByTestId("cycle-settings-status")).toHaveText("Saved.");
  }
  await expect(box).toBeChecked({ checked: on });
}

/** Nothing of the cycle shows: no card, no button, no nav link, no view, no API rows. */
async function expectNoCycle(page: Page) {
  await page.goto("/");
  await expect(page.getByTestId("today")).toBeVisible();
  await expect(page.getByTestId("cycle-card")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Log period start" })).toHaveCount(0);
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Cycle" })).toHaveCount(0);
  expect((await page.goto("/cycle"))?.status()).toBe(404);
  const api = await page.request.get(`/api/cycle?from=${addDays(TODAY, -29)}&to=${TODAY}`);
  expect(api.status()).toBe(200);
  const body = (await api.json()) as { status: string; days: unknown[]; entries: unknown[] };
  expect([body.status, body.days, body.entries]).toEqual(["off", [], []]);
  await page.goto(`/day/${addDays(TODAY, -1)}`);
  await expect(page.getByTestId("day-view")).toBeVisible();
  await expect(page.getByTestId("day-cycle")).toHaveCount(0);
}

test.beforeAll(async ({ playwright }) => {
  sessionToken = plantSessionPerson("cyc", "cycle");
  const history = plantedHistory({ from: addDays(TODAY, -99), to: TODAY, episodeNights: 0, offset: "+00:00" });
  const request = await playwright.request.newContext({
    baseURL: E2E_APP_URL,
    extraHTTPHeaders: { cookie: `${SESSION_COOKIE}=${sessionToken}`, origin: E2E_APP_URL },
  });
  const res = await request.post("/api/import", { data: history.file });
  expect(res.status(), await res.text()).toBe(200);
  await request.dispose();
});

test("[CYCLE] off until the person turns it on: no card, no log button, no view, no rows", async ({ browser }) => {
  const { context, page, errors } = await signedIn(browser, false);
  await expectNoCycle(page);
  await page.goto("/settings/cycle");
  await expect(page.getByRole("checkbox", { name: "Track my cycle" })).not.toBeChecked();
  expect(errors).toEqual([]);
  await context.close();
});

test("[CYCLE] on a phone, one tap on Today logs the period start, and the Cycle view shows it after a reload", async ({ browser }) => {
  const desk = await signedIn(browser, false);
  await setTracking(desk.page, true);
  await desk.context.close();

  const { context, page, errors } = await signedIn(browser, true);
  await page.goto("/");
  const log = page.getByRole("button", { name: "Log period start" });
  // the first thing on Today: the first button of the page's content, in the first screen
  await expect(page.locator("main").getByRole("button").first()).toHaveText("Log period start");
  const box = await log.boundingBox();
  expect(box && box.y + box.height <= 844, "in the first screen").toBe(true);
  await log.tap();
  await expect(page.getByTestId("cycle-log-status").first()).toContainText("Period start logged");
  await expect(page.getByTestId("cycle-card").getByTestId("cycle-today")).toContainText("Day 1");

  await page.getByRole("link", { name: "Open the cycle view" }).tap();
  await expect(page).toHaveURL(/\/cycle$/);
  await page.reload();
  const entry = page.locator(`[data-testid=cycle-entry][data-day="${TODAY}"][data-kind=period_start]`);
  await expect(entry).toHaveCount(1);
  await expect(page.getByTestId("cycle-now")).toContainText("Cycle day 1");
  await expect(page.locator("[data-testid=cycle-temperature-chart][data-chart-ready]")).toHaveCount(1);
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Cycle" })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), "no sideways scrolling").toBeLessThanOrEqual(0);
  expect(errors).toEqual([]);
  await context.close();
});

test("[CYCLE] the Day page logs a period end and removes it; Calendar and Trends shade the period", async ({ browser }) => {
  const { context, page, errors } = await signedIn(browser, false);
  await page.goto(`/day/${TODAY}`);
  const day = page.getByTestId("day-cycle");
  await expect(day).toContainText("Period start logged");
  await day.getByRole("button", { name: "Log period end" }).click();
  await expect(day.getByTestId("day-cycle-entries")).toContainText("Period end logged");
  await day.getByRole("button", { name: /Remove the period end of/ }).click();
  await expect(day.getByTestId("day-cycle-entries")).not.toContainText("Period end logged");

  await page.goto("/calendar");
  await expect(page.locator(`[data-day="${TODAY}"][data-phase=menstrual]`)).toHaveCount(1);
  await expect(page.locator(`[data-day="${TODAY}"]`)).toHaveAttribute("aria-label", /, period$/);

  await page.goto("/trends?m=readiness.temperature_deviation,sleep.score&range=30d");
  const temp = page.locator('[data-testid=trend-panel][data-metric="readiness.temperature_deviation"]');
  await expect(temp.locator("rect[data-phase=menstrual]")).toHaveCount(1);
  await expect(page.locator('[data-testid=trend-panel][data-metric="sleep.score"] rect[data-phase]')).toHaveCount(0);
  expect(errors).toEqual([]);
  await context.close();
});

test("[CYCLE] turned off again, every cycle view is gone; the token API answers no rows", async ({ browser }) => {
  const { context, page, errors } = await signedIn(browser, false);
  await setTracking(page, false);
  await expectNoCycle(page);
  expect(errors).toEqual([]);
  await context.close();
});
