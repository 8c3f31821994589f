// WCAG 2.1 AA on every page, held by the suite: axe-core's WCAG 2.0/2.1 A and AA rules over
// every view (signed out and signed in, Settings with every form open) in light and dark, at
// 320 px (a phone, and the width WCAG 1.4.10 asks pages to reflow to) and 1280 px (and no
// sideways scrolling at 640 px either, a 1280 px window at 200 %), for one
// person with 60 days of data, notes and tags (every rule in light; in dark, which changes
// colours alone, the colour rules: at 1280 px over the whole page, at 320 px over what the phone
// shows differently, e2e/a11y-support.ts's scanBothThemesAndWidths). Zero violations of any
// impact; a rule switched off for a view carries its reason. Each view loads once; the widths and
// themes switch in place (the app's own theme switch: the `dark` class), so the scan costs one
// navigation a view.
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import {
  a11yPerson,
  addDays,
  applyTheme,
  emulatorToday,
  horizontalOverflow,
  overflowingElements,
  plantNotes,
  report,
  scanBothThemesAndWidths,
  settle,
  WIDTHS,
  ZOOM_200_WIDTH,
  type Exception,
  type Violation,
} from "./a11y-support";
import { E2E_APP_URL } from "./support/ports";
import { SETTINGS_SECTIONS, type SettingsSlug } from "@/lib/settings-sections";

test.describe.configure({ mode: "serial" });

type StorageState = Awaited<ReturnType<BrowserContext["storageState"]>>;
type View = {
  name: string;
  path: string;
  /** what shows once the view has its data */
  ready?: (page: Page) => Promise<void>;
  /** puts the view in the state to scan (forms open, a cursor on a chart) */
  open?: (page: Page) => Promise<void>;
  exceptions?: Exception[];
};

let auth: StorageState | null = null;
let days: { chartDay: string; noteDays: string[] } | null = null;

const chartsDrawn = async (page: Page) => {
  await page.locator("[data-chart-ready]").first().waitFor({ state: "attached", timeout: 60_000 });
  await page.waitForLoadState("networkidle");
};
const shown = (selector: string) => async (page: Page) => {
  await page.locator(selector).first().waitFor({ timeout: 60_000 });
  await page.waitForLoadState("networkidle");
};

/** Scans each view at every width and theme; returns every violation and every overflow. */
async function scanViews(page: Page, views: View[]): Promise<{ violations: Violation[]; overflows: string[] }> {
  const violations: Violation[] = [];
  const overflows: string[] = [];
  for (const view of views) {
    await page.setViewportSize({ width: WIDTHS[0], height: 800 });
    await applyTheme(page, "light");
    await page.goto(view.path);
    await expect(page.locator("h1").first()).toBeVisible();
    await view.ready?.(page);
    await view.open?.(page);
    await page.setViewportSize({ width: ZOOM_200_WIDTH, height: 800 });
    await settle(page);
    const zoomed = await horizontalOverflow(page);
    if (zoomed > 0) overflows.push(`${view.name} at ${ZOOM_200_WIDTH}px (200 %): ${zoomed}px too wide (${(await overflowingElements(page)).join(", ")})`);
    const scanned = await scanBothThemesAndWidths(page, view.name, view.exceptions);
    violations.push(...scanned.violations);
    overflows.push(...scanned.overflows);
  }
  return { violations, overflows };
}

async function signedInPage(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: E2E_APP_URL, storageState: auth ?? undefined, reducedMotion: "reduce" });
  return { context, page: await context.newPage() };
}

test("[A11Y] a person with 60 days, notes and tags (planted through the emulator's test-person options)", async ({ page, login, emulator }) => {
  test.setTimeout(180_000);
  const today = await emulatorToday();
  const planted = a11yPerson(today);
  const person = await login({ role: "owner", historyDays: planted.historyDays, person: planted.person });
  auth = await page.context().storageState();
  // a day with a main sleep, a workout and a session: every card of the Day view has something to show
  const workouts = await emulator.documents<{ day: string }>(person.ringUserId, "workout");
  const sessions = new Set((await emulator.documents<{ day: string }>(person.ringUserId, "session")).map((s) => s.day));
  const chartDay =
    workouts
      .map((w) => w.day)
      .filter((d) => d < today && sessions.has(d))
      .sort()
      .at(-1) ??
    workouts
      .map((w) => w.day)
      .sort()
      .at(-1);
  expect(chartDay, "the planted person has a workout").toBeTruthy();
  const noteDays = [addDays(today, -2), addDays(today, -3), addDays(today, -9), addDays(today, -16)];
  await plantNotes(page.context(), noteDays);
  days = { chartDay: chartDay!, noteDays };
  // cycle tracking on and a period start logged: Today's Cycle card, the Cycle view, the
  // Calendar's and Trends' shading and the Day page's log are scanned with the rest
  await page.goto("/settings/cycle");
  await page.getByRole("checkbox", { name: "Track my cycle" }).check();
  await expect(page.getByTestId("cycle-settings-status")).toHaveText("Saved.");
  await page.goto("/");
  await page.getByRole("button", { name: "Log period start" }).click();
  await expect(page.getByTestId("cycle-log-status").first()).toContainText("Period start logged");
});

/** Each Settings section's test id, what shows once it is drawn. */
const SETTINGS_TESTIDS: Record<SettingsSlug, string> = {
  account: "connection-section",
  household: "household-section",
  cycle: "cycle-section",
  alerts: "alerts-section",
  signals: "signal-settings",
  preferences: "preferences-section",
  data: "data-section",
  api: "api-section",
  "home-automation": "home-automation-section",
  "report-links": "report-links-section",
  sync: "sync-section",
};

/** What each Settings section opens before its scan: every form, confirmation and outcome it can show. */
const SETTINGS_OPEN: Partial<Record<SettingsSlug, (page: Page) => Promise<void>>> = {
  account: async (page) => {
    await page.getByRole("button", { name: "Disconnect…" }).click();
  },
  household: async (page) => {
    await page.getByRole("button", { name: "Create invite link" }).click();
    await expect(page.getByTestId("invite-link")).toBeVisible();
  },
  cycle: async (page) => {
    await page.getByRole("button", { name: "Remove cycle data…" }).click();
  },
  alerts: async (page) => {
    const alerts = page.getByTestId("alerts-section");
    if ((await alerts.getByTestId("alert-channel").count()) === 0) {
      const add = page.getByRole("form", { name: "Add a channel" });
      await add.getByLabel("Channel").selectOption("webhook");
      await add.getByLabel("Webhook URL").fill("http://127.0.0.1:9/ringside-a11y");
      await add.getByRole("button", { name: "Add channel" }).click();
      await expect(page.getByTestId("webhook-secret")).toBeVisible();
      await alerts.getByRole("button", { name: "Send a test" }).click();
      await expect(alerts.getByTestId("alert-test-status")).not.toBeEmpty();
      const rule = page.getByRole("form", { name: "Add a rule" });
      await rule.getByLabel("Rule").selectOption("weekly_digest");
      await rule.getByRole("button", { name: "Add rule" }).click();
      await expect(alerts.getByTestId("alert-rule")).toHaveCount(1);
      await page.reload();
      await page.getByTestId("alerts-section").waitFor();
    }
    const details = alerts.locator("details");
    for (let i = 0; i < (await details.count()); i++) await details.nth(i).locator("summary").click();
    await page.waitForLoadState("networkidle");
  },
  data: async (page) => {
    await page.getByRole("button", { name: "Delete all my data…" }).click();
    await page.getByTestId("data-section").getByRole("radio", { name: "From – to" }).click();
    // the import's refusal of a file it does not read (its error text in the section)
    const importSection = page.getByRole("region", { name: "Import" });
    await importSection
      .getByLabel("Files to import")
      .setInputFiles({ name: "export.json", mimeType: "application/json", buffer: Buffer.from('{ "format": "ringside-export-v1", "collections": ') });
    await importSection.getByRole("button", { name: "Check first" }).click();
    await expect(importSection.locator("p.text-red-700")).toBeVisible();
  },
  api: async (page) => {
    const token = page.getByRole("form", { name: "Create a token" });
    await token.getByLabel("Token name").fill("Accessibility check");
    await token.getByRole("button", { name: "Create token" }).click();
    await expect(page.getByTestId("api-token-value")).toBeVisible();
  },
};

/** The signed-in views, each scanned in a test of its own (a failure names its view). */
const SIGNED_IN: Array<Omit<View, "path"> & { path: () => string }> = [
  { name: "Today", path: () => "/", ready: chartsDrawn },
  {
    name: "Trends, a cursor on the chart",
    path: () => "/trends?m=sleep.score,readiness.score,resilience.level&range=30d",
    ready: chartsDrawn,
    open: async (p) => {
      await p.getByTestId("trend-panel").locator("[tabindex='0']").first().focus();
      await p.keyboard.press("End");
      await p.keyboard.press("ArrowLeft");
    },
  },
  { name: "Calendar", path: () => "/calendar", ready: chartsDrawn },
  { name: "Correlations", path: () => "/correlations?x=activity.steps&y=sleep.score&lag=0&range=all", ready: chartsDrawn },
  {
    name: "Day, every chart's table open",
    path: () => `/day/${days!.chartDay}`,
    ready: shown("[data-testid=day-heart-rate-chart][data-chart-ready]"),
    open: openTables,
  },
  { name: "Notes", path: () => `/notes?day=${days!.noteDays[0]}`, ready: shown("[data-testid=tag-comparison]") },
  {
    name: "Cycle, an entry's edit open",
    path: () => "/cycle",
    ready: shown("[data-testid=cycle-temperature-chart][data-chart-ready]"),
    open: async (p) => {
      await p.getByTestId("cycle-entry").first().locator("summary").click();
      await openTables(p);
    },
  },
  {
    name: "Trends of the cycle's markers, shaded",
    path: () => "/trends?m=readiness.temperature_deviation,night.lowest_heart_rate,night.average_hrv,night.average_breath&range=30d",
    ready: chartsDrawn,
  },
  { name: "Workouts, one open", path: () => "/workouts", ready: shown("[data-testid=workout-detail] h2"), open: openWorkoutWithHeartRate },
  { name: "Sync", path: () => "/sync", ready: shown("[data-testid=sync-page]") },
  // Settings: the list (on a desktop with the first section beside it), then each section with its forms open
  {
    name: "Settings, the list",
    path: () => "/settings",
    ready: async (p) => {
      await p.getByRole("link", { name: "Your cycle" }).waitFor();
      await p.waitForLoadState("networkidle");
    },
  },
  ...SETTINGS_SECTIONS.map((s) => ({
    name: `Settings, ${s.title}${SETTINGS_OPEN[s.slug] ? ", its forms open" : ""}`,
    path: () => `/settings/${s.slug}`,
    ready: shown(`[data-testid=${SETTINGS_TESTIDS[s.slug]}]`),
    open: SETTINGS_OPEN[s.slug],
  })),
  { name: "Setup (the owner's checks)", path: () => "/setup", ready: shown("[data-testid=setup-checks]") },
  { name: "Signals explained", path: () => "/docs/signals", ready: shown("h1") },
  { name: "A page that does not exist", path: () => "/no-such-page" },
];

// one signed-in page for every view: its scripts and styles load and compile once, not once a view
let viewer: { context: BrowserContext; page: Page } | null = null;
test.afterAll(async () => {
  await viewer?.context.close();
  viewer = null;
});

for (const view of SIGNED_IN) {
  test(`[A11Y] signed in: ${view.name}, light and dark, 320 px and 1280 px, has no WCAG 2.1 A/AA violation`, async ({ browser }) => {
    // a deadline stops a hang: the Day view with every table open took over 120 s on a 2-core
    // machine running four other suites (66 s inside npm test)
    test.setTimeout(240_000);
    viewer ??= await signedInPage(browser);
    const { violations, overflows } = await scanViews(viewer.page, [{ ...view, path: view.path() }]);
    expect.soft(overflows, overflows.join("\n")).toEqual([]);
    expect(violations, report(violations)).toEqual([]);
  });
}

test("[A11Y] signed out: sign-in, invite, setup and error pages have no WCAG 2.1 A/AA violation", async ({ browser }) => {
  test.setTimeout(240_000);
  // an invite link from the owner, followed in a browser that is not signed in
  const owner = await signedInPage(browser);
  await owner.page.goto("/settings/household");
  await owner.page.getByRole("button", { name: "Create invite link" }).click();
  const link = (await owner.page.getByTestId("invite-link").textContent())!.trim();
  await owner.context.close();

  const context = await browser.newContext({ baseURL: E2E_APP_URL, reducedMotion: "reduce" });
  const page = await context.newPage();
  const views: View[] = [
    { name: "Sign-in", path: "/sign-in" },
    { name: "Sign-in after disconnecting", path: "/sign-in?disconnected=1" },
    { name: "Sign-in, connecting did not start", path: "/sign-in?error=Configuration" },
    { name: "Setup (signed out)", path: "/setup" },
    { name: "Error: the app's user limit", path: "/sign-in/error?error=user_limit" },
    { name: "Error: consent denied", path: "/sign-in/error?error=denied&detail=access_denied" },
    { name: "Error: an unusable invite", path: "/sign-in/error?error=invite_invalid" },
    // last: following the invite leaves its cookie, and the sign-in page then shows the invite note
    { name: "Sign-in with an invite", path: new URL(link).pathname, ready: shown("[data-testid=invite-note]") },
  ];
  const { violations, overflows } = await scanViews(page, views);
  await context.close();
  expect.soft(overflows, overflows.join("\n")).toEqual([]);
  expect(violations, report(violations)).toEqual([]);
});

/** Opens every "Show as table" of the page (their tables are built on opening). */
async function openTables(page: Page) {
  const tables = page.getByTestId("chart-table");
  for (let i = 0; i < (await tables.count()); i++) {
    await tables.nth(i).locator("summary").click();
    await expect(tables.nth(i).locator("table")).toBeVisible();
  }
}

/** The newest workout may have no heart rate yet: open the first one that draws its curve. */
async function openWorkoutWithHeartRate(page: Page) {
  const rows = page.getByTestId("workout-row");
  for (let i = 0; i < Math.min(6, await rows.count()); i++) {
    await rows.nth(i).click();
    const detail = page.getByTestId("workout-detail");
    await expect(detail).toHaveAttribute("aria-busy", "false");
    if (await page.getByTestId("workout-curve").count()) {
      await page.locator("[data-testid=workout-curve][data-chart-ready]").waitFor();
      return;
    }
  }
  throw new Error("none of the newest workouts has heart-rate samples");
}

/**
 * Settings with every form in its open state: a channel and a rule added (so their lists and
 * a failed test show), an invite link and a token created (shown once), the disconnect choice,
 * the delete confirmation, a custom export range, the import's error and an alert's details.
 */
