// The report for a doctor or a coach, as a person and the one they share it with see it: the
// page for a chosen period (notes and cycle off unless ticked) and its PDF; a share link made on
// the page and opened in a browser with no cookies (the report and its PDF, nothing else, no
// cookie set, noindex and no referrer); revoked in Settings → 410; expired → 410 on an instance of
// the app whose clock the test set two days on (nothing waits); too many views → 429; the page
// passes the axe scan in both themes, and in print it has no navigation and keeps every chart
// whole, each section on a new page.
import path from "node:path";
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { addDays, emulatorToday, report, scan, scanBothThemesAndWidths, settle, COLOUR_RULES, THEMES, type Violation } from "./a11y-support";
import { E2E_APP_URL, E2E_DATA_DIR, E2E_FRESH_PORT } from "./support/ports";
import { startInstance } from "./support/instance";
import { clock, formatPinnedClock } from "@/lib/clock";

test.describe.configure({ mode: "serial" });

type StorageState = Awaited<ReturnType<BrowserContext["storageState"]>>;
let auth: StorageState | null = null;
let period: { from: string; to: string } | null = null;
const reportPath = () => `/report?from=${period!.from}&to=${period!.to}`;

async function ownerPage(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: E2E_APP_URL, storageState: auth ?? undefined, reducedMotion: "reduce" });
  return { context, page: await context.newPage() };
}

/** Creates a share link of the report on the page, with a label and days, and returns it. */
async function createShareLink(page: Page, label: string, days: number): Promise<string> {
  await page.getByLabel("Link lasts (days)").fill(String(days));
  await page.getByLabel("Label (optional)").fill(label);
  await page.getByRole("button", { name: "Create share link" }).click();
  // this link's answer (an earlier one may still be shown until it comes): named by its label
  await expect(page.getByTestId("share-link-created")).toContainText(`Your link for ${label}`);
  const shown = page.getByTestId("share-link");
  const link = (await shown.textContent())!.trim();
  expect(link).toMatch(new RegExp(`^${E2E_APP_URL}/r/[A-Za-z0-9_-]{43}$`));
  return link;
}

test("[REPORT] the page shows the chosen period's report, notes, tags and cycle off by default, and downloads its PDF", async ({ page, login }) => {
  test.setTimeout(180_000);
  const today = await emulatorToday();
  await login({ role: "owner", historyDays: 60 });
  auth = await page.context().storageState();
  period = { from: addDays(today, -29), to: today };

  await page.goto("/");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Report" }).click();
  await expect(page).toHaveURL(/\/report$/);
  await expect(page.getByTestId("report-section-summary")).toBeVisible();

  await page.goto(reportPath());
  await expect(page.locator("h1")).toHaveText(`Ringside report, ${period.from} to ${period.to}`);
  for (const s of ["summary", "charts", "events", "methods"]) await expect(page.getByTestId(`report-section-${s}`)).toBeVisible();
  for (const s of ["notes", "tags", "cycle"]) await expect(page.getByTestId(`report-section-${s}`)).toHaveCount(0);
  for (const name of ["Notes", "Tags", "Cycle"]) await expect(page.getByRole("checkbox", { name, exact: true })).not.toBeChecked();
  // the events list workouts, sessions and rest mode: the person's tags only in their own section
  await expect(page.getByTestId("report-section-events").getByRole("heading", { name: "Tags" })).toHaveCount(0);
  await expect(page.getByTestId("report-chart").first()).toBeVisible();
  await expect(page.getByTestId("report-flagged")).toContainText("judged nights flagged");
  // the need the last debt was measured against, with its source (and its range when estimated)
  await expect(page.getByTestId("report-section-summary")).toContainText(/Sleep need.*(estimated from \d+ nights|default), on /);

  // the chooser: a section ticked, another left out
  await page.getByRole("checkbox", { name: "Notes" }).check();
  await page.getByRole("checkbox", { name: "Tags", exact: true }).check();
  await page.getByRole("checkbox", { name: "Charts" }).uncheck();
  await page.getByRole("button", { name: "Show report" }).click();
  await expect(page.getByTestId("report-section-notes")).toBeVisible();
  await expect(page.getByTestId("report-section-tags")).toBeVisible();
  await expect(page.getByTestId("report-section-charts")).toHaveCount(0);
  expect(new URL(page.url()).searchParams.getAll("sections")).toEqual(["summary", "events", "methods", "notes", "tags"]);

  await page.goto(reportPath());
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download PDF" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`ringside-report-${period.from}-to-${period.to}.pdf`);
});

test("[REPORT] a share link in a browser with no cookies: the report and its PDF, nothing else; revoked in Settings → 410", async ({ browser }) => {
  test.setTimeout(180_000);
  const owner = await ownerPage(browser);
  await owner.page.goto(reportPath());
  const link = await createShareLink(owner.page, "Dr. Lee", 7);
  const secret = link.split("/").at(-1)!;

  const guest = await browser.newContext({ reducedMotion: "reduce" });
  const page = await guest.newPage();
  const res = await page.goto(link);
  expect(res!.status()).toBe(200);
  const headers = res!.headers();
  expect(headers["x-robots-tag"]).toContain("noindex");
  expect(headers["referrer-policy"]).toBe("no-referrer");
  expect(headers["set-cookie"]).toBeUndefined();
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
  await expect(page.locator("h1")).toHaveText(`Ringside report, ${period!.from} to ${period!.to}`);
  await expect(page.getByTestId("report-section-summary")).toBeVisible();
  await expect(page.getByTestId("report-section-notes")).toHaveCount(0);
  await expect(page.getByRole("navigation")).toHaveCount(0);

  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download PDF" }).click();
  expect((await download).suggestedFilename()).toBe(`ringside-report-${period!.from}-to-${period!.to}.pdf`);
  expect(await guest.cookies()).toEqual([]);

  // the secret opens nothing else: not the app, not the dashboard API, not the read API, not another report
  const other = guest.request;
  expect((await other.get(`${E2E_APP_URL}/api/report?from=${period!.from}&to=${period!.to}`)).status()).toBe(401);
  expect(
    (await other.get(`${E2E_APP_URL}/api/v1/report?from=${period!.from}&to=${period!.to}`, { headers: { authorization: `Bearer ${secret}` } })).status(),
  ).toBe(401);
  expect((await other.get(`${E2E_APP_URL}/api/metrics/sleep.score?from=${period!.from}&to=${period!.to}&token=${secret}`)).status()).toBe(401);
  const home = await other.get(`${E2E_APP_URL}/settings`, { maxRedirects: 0 });
  expect(home.status()).toBeGreaterThanOrEqual(300);
  expect(home.status()).toBeLessThan(400);
  expect((await other.get(`${E2E_APP_URL}/r/${secret}/summary`)).status()).toBe(404);
  expect((await other.get(`${E2E_APP_URL}/r/not-a-secret`)).status()).toBe(400);
  expect((await other.get(`${E2E_APP_URL}/r/${"A".repeat(43)}`)).status()).toBe(404);

  // Settings lists it with its views, and revokes it
  await owner.page.goto("/settings/report-links");
  const row = owner.page.getByTestId("report-link").filter({ hasText: "Dr. Lee" });
  await expect(row).toContainText(`${period!.from} to ${period!.to}`);
  await expect(row.getByTestId("report-link-usage")).toContainText("2 views, last");
  await row.getByRole("button", { name: /Revoke/ }).click();
  await expect(row).toContainText("revoked");
  await expect(row.getByRole("button", { name: /Revoke/ })).toHaveCount(0);

  const gone = await page.goto(link);
  expect(gone!.status()).toBe(410);
  await expect(page.getByRole("heading", { name: "This link is no longer valid." })).toBeVisible();
  expect(await page.content()).not.toContain("Dr. Lee");
  expect((await other.get(`${link}/pdf`)).status()).toBe(410);
  await guest.close();
  await owner.context.close();
});

test("[REPORT] an expired link answers 410 (the app's clock set two days on), and too many views 429", async ({ browser }) => {
  test.setTimeout(180_000);
  const owner = await ownerPage(browser);
  await owner.page.goto(reportPath());
  const short = await createShareLink(owner.page, "Coach", 1);
  const busy = await createShareLink(owner.page, "Clinic", 30);
  await owner.context.close();

  const guest = await browser.newContext();
  expect((await guest.request.get(short)).status()).toBe(200);
  // the same data, read by an instance of the app whose clock is two days on (a web process: it
  // syncs, alerts and backs up nothing, so the other specs' people are left as they are)
  const later = await startInstance({
    port: E2E_FRESH_PORT,
    dataDir: path.resolve(E2E_DATA_DIR, "report-later"),
    env: {
      DATABASE_URL: `file:${path.resolve(E2E_DATA_DIR, "ringside.db")}`,
      RINGSIDE_NOW: formatPinnedClock(clock.now() + 2 * 86_400_000),
      ROLE: "web",
    },
  });
  try {
    const secret = short.split("/").at(-1)!;
    const res = await guest.request.get(`${later.url}/r/${secret}`);
    expect(res.status()).toBe(410);
    expect(await res.text()).toContain("This link is no longer valid.");
    expect((await guest.request.get(`${later.url}/r/${secret}/pdf`)).status()).toBe(410);
    // the 30-day link is still open there
    expect((await guest.request.get(`${later.url}/r/${busy.split("/").at(-1)}`)).status()).toBe(200);
  } finally {
    await later.stop();
  }

  const statuses: number[] = [];
  let retryAfter: string | undefined;
  for (let i = 0; i < 25 && !statuses.includes(429); i++) {
    const res = await guest.request.get(busy);
    statuses.push(res.status());
    if (res.status() === 429) retryAfter = res.headers()["retry-after"];
  }
  expect(statuses.at(-1)).toBe(429);
  expect(statuses.slice(0, -1).every((s) => s === 200)).toBe(true);
  expect(Number(retryAfter)).toBeGreaterThan(0);
  await guest.close();
});

test("[REPORT] the report page and a share link's page pass the axe scan in both themes; printed, no navigation and no chart cut", async ({ browser }) => {
  // a deadline only stops a hang: two pages scanned in both themes took over 180 s on a loaded 2-core machine
  test.setTimeout(300_000);
  const { context, page } = await ownerPage(browser);
  const violations: Violation[] = [];
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${reportPath()}&sections=summary,charts,events,methods,notes,cycle&compare=previous`);
  await expect(page.getByTestId("report-section-cycle")).toBeVisible();
  const link = await createShareLink(page, "Axe", 1);
  // both themes at 320 px and 1280 px (every rule in light, the colour rules in dark)
  const scanned = await scanBothThemesAndWidths(page, "Report");
  violations.push(...scanned.violations);
  expect.soft(scanned.overflows, scanned.overflows.join("\n")).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 900 });

  // printed: no navigation, no controls; each section after the first on a new page; charts and rows whole
  await page.emulateMedia({ media: "print" });
  await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
  await expect(page.getByRole("form", { name: "Choose the report" })).toBeHidden();
  await expect(page.getByRole("button", { name: "Create share link" })).toBeHidden();
  const printed = await page.evaluate(() => ({
    sections: Array.from(document.querySelectorAll("[data-testid^=report-section-]")).map((s) => getComputedStyle(s).breakBefore),
    charts: Array.from(document.querySelectorAll("[data-testid=report-chart]")).map((c) => getComputedStyle(c).breakInside),
  }));
  expect(printed.sections[0]).not.toBe("page");
  expect(printed.sections.slice(1).every((b) => b === "page")).toBe(true);
  expect(printed.charts.length).toBeGreaterThan(5);
  expect(printed.charts.every((b) => b === "avoid")).toBe(true);
  await context.close();

  const guest = await browser.newContext({ reducedMotion: "reduce" });
  const shared = await guest.newPage();
  await shared.goto(link);
  await expect(shared.getByTestId("report-section-summary")).toBeVisible();
  // every rule in light; in dark, which changes colours alone, the colour rules
  for (const theme of THEMES) {
    await shared.evaluate((dark) => document.documentElement.classList.toggle("dark", dark), theme === "dark");
    await settle(shared);
    violations.push(...(await scan(shared, { view: "Shared report", theme, width: 1280 }, [], theme === "dark" ? COLOUR_RULES : undefined)));
  }
  await guest.close();
  expect(violations, report(violations)).toEqual([]);
});
