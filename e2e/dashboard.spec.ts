// The dashboard end to end, on data that came through the real connect flow and sync from the
// emulator: every page in light and dark at phone and desktop widths (screenshots with
// E2E_SCREENSHOTS=1 in e2e/test-results/screenshots), the numbers shown equal the emulator's documents, keyboard
// reading of charts, tags round-trip onto the charts, CSV export equals the stored rows,
// preferences, and "delete all my data" for one person only.
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { expect, signIn, test } from "./fixtures";
import { settle } from "./a11y-support";
import { parseCsv, screenshot, setTheme, shownNumber, waitForChart } from "./dashboard-support";
import { E2E_APP_URL } from "./support/ports";
import { CHARTED_COLLECTIONS } from "@/lib/metrics/catalog";

test.describe.configure({ mode: "serial" });

type Doc = Record<string, unknown> & { day: string };
type StorageState = Awaited<ReturnType<BrowserContext["storageState"]>>;

let auth: StorageState | null = null;
let person: { ringUserId: string; userId: string } | null = null;
const docs = new Map<string, Doc[]>();

async function emulatorDocs(emulator: { documents: (u: string, c: string) => Promise<Doc[]> }, collection: string): Promise<Doc[]> {
  if (!docs.has(collection)) docs.set(collection, (await emulator.documents(person!.ringUserId, collection)) as Doc[]);
  return docs.get(collection)!;
}

const latest = (list: Doc[]) => list.reduce((a, b) => (b.day > a.day ? b : a));
const byDay = (list: Doc[], day: string) => list.find((d) => d.day === day);
const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

async function signedIn(browser: Browser, opts: { width?: number; theme?: "light" | "dark" } = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: E2E_APP_URL,
    storageState: auth ?? undefined,
    viewport: { width: opts.width ?? 1280, height: 900 },
    reducedMotion: "reduce",
  });
  if (opts.theme) await setTheme(context, opts.theme);
  return { context, page: await context.newPage() };
}

test("[DASHBOARD] a person's history synced from the emulator, then Today shows the emulator's latest documents", async ({ page, emulator, login }) => {
  test.setTimeout(180_000);
  // this spec's own owner (signed in by a session row; the OAuth round trip has its own specs)
  const signedInAs = await login({ role: "owner" });
  person = { ringUserId: signedInAs.ringUserId, userId: signedInAs.userId };
  auth = await page.context().storageState();

  await page.goto("/");
  const today = page.getByTestId("today");
  await expect(today).toHaveAttribute("data-chart-ready", "true");
  await expect(page.getByTestId("demo-badge")).toBeVisible();
  await expect(page.getByTestId("freshness-chips").locator("li")).toHaveCount(CHARTED_COLLECTIONS.length);

  const sleep = latest(await emulatorDocs(emulator, "daily_sleep"));
  const readiness = latest(await emulatorDocs(emulator, "daily_readiness"));
  const activity = latest(await emulatorDocs(emulator, "daily_activity"));
  const spo2 = latest(await emulatorDocs(emulator, "daily_spo2"));
  const stress = latest(await emulatorDocs(emulator, "daily_stress"));
  const resilience = latest(await emulatorDocs(emulator, "daily_resilience"));
  const cardio = latest(await emulatorDocs(emulator, "daily_cardiovascular_age"));
  const expectShown = async (testId: string, expected: unknown) => {
    const text = await page.getByTestId(testId).first().textContent();
    if (expected === null || expected === undefined) expect(text).toContain("—");
    else expect(shownNumber(text), testId).toBe(Number(expected));
  };
  await expectShown("value-sleep.score", sleep.score);
  await expectShown("value-readiness.score", readiness.score);
  await expectShown("value-activity.score", activity.score);
  await expectShown("value-activity.steps", activity.steps);
  await expectShown("value-activity.active_calories", activity.active_calories);
  await expectShown("value-spo2.breathing_disturbance_index", spo2.breathing_disturbance_index);
  await expectShown("value-cardio.vascular_age", cardio.vascular_age);
  const spo2Avg = (spo2.spo2_percentage as { average?: number } | null)?.average ?? null;
  if (spo2Avg !== null) await expect(page.getByTestId("value-spo2.spo2_average")).toHaveText(`${spo2Avg.toFixed(1)}%`);
  const summary = stress.day_summary as string | null;
  if (summary) await expect(page.getByTestId("value-stress.day_summary")).toHaveText(new RegExp(summary, "i"));
  await expect(page.getByTestId("value-resilience.level")).toHaveText(new RegExp(String(resilience.level), "i"));
  // contributors: the readiness card's bars carry the document's numbers
  const contributors = readiness.contributors as Record<string, number | null>;
  const card = page.locator('[data-metric="readiness.score"]');
  await expect(card.getByText("HRV balance")).toBeVisible();
  const hrv = await card.locator("li", { hasText: "HRV balance" }).textContent();
  expect(shownNumber(hrv)).toBe(contributors.hrv_balance ?? Number.NaN);
});

const PAGES: Array<{ name: string; path: (day: string) => string; ready?: string; heading: RegExp }> = [
  { name: "today", path: () => "/", heading: /^Today$/ },
  { name: "trends", path: () => "/trends?m=sleep.score,readiness.score,resilience.level&range=90d", heading: /^Trends$/ },
  { name: "calendar", path: () => "/calendar", heading: /^Calendar$/ },
  { name: "day", path: (day) => `/day/${day}`, heading: /\d{4}$/ },
  { name: "correlations", path: () => "/correlations", heading: /^Correlations$/ },
  { name: "notes", path: () => "/notes", heading: /^Notes & tags$/, ready: "[data-testid=notes-list], [data-testid=notes-empty]" },
  { name: "settings", path: () => "/settings/preferences", heading: /^Settings$/, ready: "[data-testid=preferences-section]" },
];

test("[DASHBOARD] every page in light and dark, at phone and desktop widths", async ({ browser, emulator }) => {
  test.setTimeout(240_000);
  const day = addDays(latest(await emulatorDocs(emulator, "daily_sleep")).day, -1);
  for (const theme of ["light", "dark"] as const) {
    // each page loads once a theme, at the phone's width, and is then widened in place (its
    // charts measure again and draw): two loads a page, not four
    const { context, page } = await signedIn(browser, { width: 390, theme });
    for (const p of PAGES) {
      await page.setViewportSize({ width: 390, height: 900 });
      await page.goto(p.path(day));
      await expect(page.getByRole("heading", { level: 1, name: p.heading })).toBeVisible();
      if (p.ready) await page.locator(p.ready).first().waitFor({ timeout: 60_000 });
      else await waitForChart(page);
      await page.waitForLoadState("networkidle");
      // the theme came from the cookie before the first paint
      expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(theme === "dark");
      for (const width of [390, 1280]) {
        if (width !== 390) {
          await page.setViewportSize({ width, height: 900 });
          await settle(page);
        }
        // nothing wider than the screen
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${p.name} at ${width}px overflows`).toBeLessThanOrEqual(0);
        // every chart has an accessible name
        const unnamed = await page.locator('[role="img"]:not([aria-label]), [role="img"][aria-label=""]').count();
        expect(unnamed, `${p.name}: role=img without a name`).toBe(0);
        await screenshot(page, `${p.name}-${theme}-${width}`);
      }
    }
    await context.close();
  }
});

test("[DASHBOARD] day view, trends and calendar show the documents' numbers", async ({ browser, emulator }) => {
  const sleepDocs = await emulatorDocs(emulator, "daily_sleep");
  const activityDocs = await emulatorDocs(emulator, "daily_activity");
  const periods = await emulatorDocs(emulator, "sleep");
  const last = latest(sleepDocs).day;
  // a day with a main sleep and a sleep score
  let day = addDays(last, -1);
  for (let i = 1; i < 30 && !(byDay(sleepDocs, day)?.score && periods.some((p) => p.day === day && p.type === "long_sleep")); i++) day = addDays(last, -i);
  const { context, page } = await signedIn(browser);

  await page.goto(`/day/${day}`);
  await expect(page.getByTestId("day-value-sleep.score")).toHaveText(String(byDay(sleepDocs, day)!.score));
  const act = byDay(activityDocs, day);
  if (act) await expect(page.getByTestId("day-value-activity.steps")).toHaveText(`${Number(act.steps).toLocaleString("en-US")} steps`);
  const main = page.getByTestId("main-sleep");
  await expect(main.getByRole("img", { name: /Sleep stages/ })).toBeVisible();
  await expect(main.locator("[data-chart-ready]").first()).toBeAttached();
  const longSleep = periods
    .filter((p) => p.day === day && p.type === "long_sleep")
    .sort((a, b) => Number(b.total_sleep_duration) - Number(a.total_sleep_duration))[0]!;
  const h = Math.floor(Math.round(Number(longSleep.total_sleep_duration) / 60) / 60);
  const m = Math.round(Number(longSleep.total_sleep_duration) / 60) % 60;
  await expect(main).toContainText(`${h} h ${String(m).padStart(2, "0")} min`);
  const naps = periods.filter((p) => p.day === day && (p.type === "sleep" || p.type === "late_nap")).length;
  await expect(page.getByTestId("sleep-period").and(page.locator('[data-role="nap"]'))).toHaveCount(naps);

  // Trends, 7 days: the period mean is the mean of the documents' scores on those days
  const lastDay = [...(await Promise.all(["daily_activity", "daily_sleep", "daily_readiness", "sleep"].map((c) => emulatorDocs(emulator, c))))]
    .flat()
    .reduce((a, d) => (d.day > a ? d.day : a), "");
  const week = sleepDocs.filter((d) => d.day > addDays(lastDay, -7) && d.day <= lastDay && typeof d.score === "number");
  const mean = week.reduce((s, d) => s + Number(d.score), 0) / week.length;
  await page.goto("/trends?m=sleep.score&range=7d");
  await waitForChart(page);
  await expect(page.getByTestId("period-mean")).toHaveText(Number(mean.toFixed(2)).toFixed(0));
  await expect(page.getByTestId("chart-summary")).toContainText(`over ${week.length} of 7 days`);

  // Calendar: the day's cell names its score
  await page.goto("/calendar?m=sleep.score");
  await waitForChart(page);
  const cell = page.locator(`[data-day="${day}"]`);
  await expect(cell).toHaveAttribute("data-status", "value");
  // (", tagged" when the ring app has a tag on that day)
  await expect(cell).toHaveAttribute("aria-label", new RegExp(`: ${byDay(sleepDocs, day)!.score}(, tagged)?$`));
  await cell.focus();
  await page.keyboard.press("ArrowLeft");
  await expect(page.locator(`[data-day="${addDays(day, -1)}"]`)).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/day/${addDays(day, -1)}$`));
  await context.close();
});

test("[DASHBOARD] correlations draw the pair's days, and data answers are revalidated, not sent again", async ({ browser, emulator }) => {
  const sleepDocs = await emulatorDocs(emulator, "daily_sleep");
  const activityDocs = await emulatorDocs(emulator, "daily_activity");
  const { context, page } = await signedIn(browser);
  await page.goto("/correlations?x=activity.steps&y=sleep.score&lag=0&range=all");
  await waitForChart(page);
  // one dot per day with both values: the scatter names as many days as the emulator has
  const sleepDays = new Set(sleepDocs.filter((d) => typeof d.score === "number").map((d) => d.day));
  const both = activityDocs.filter((d) => typeof d.steps === "number" && sleepDays.has(d.day)).length;
  await expect(page.getByRole("group", { name: /^Scatter of Steps against/ })).toHaveAttribute("aria-label", new RegExp(`, ${both} days$`));
  await expect(page.getByTestId("strongest-list")).toBeVisible();

  // the answers carry an ETag; asking again with it gets 304 and no body, until the data changes
  const url = `/api/correlations?x=activity.steps&y=sleep.score&lag=0&from=${latest(sleepDocs).day}&to=${latest(sleepDocs).day}`;
  const first = await context.request.get(url);
  expect(first.status()).toBe(200);
  const etag = first.headers()["etag"]!;
  expect(etag).toMatch(/^W\//);
  const again = await context.request.get(url, { headers: { "if-none-match": etag } });
  expect(again.status()).toBe(304);
  expect((await again.body()).length).toBe(0);
  const day = addDays(latest(sleepDocs).day, -2);
  const put = await context.request.put(`/api/notes/${day}`, { data: { text: "etag check", tags: [] }, headers: { origin: E2E_APP_URL } });
  expect(put.status()).toBe(200);
  expect((await context.request.get(url, { headers: { "if-none-match": etag } })).status()).toBe(200);
  await context.request.delete(`/api/notes/${day}`, { headers: { origin: E2E_APP_URL } });
  await context.close();
});

test("[DASHBOARD] charts are readable with the keyboard", async ({ browser, emulator }) => {
  const sleepDocs = await emulatorDocs(emulator, "daily_sleep");
  const { context, page } = await signedIn(browser);
  await page.goto("/trends?m=sleep.score&range=30d");
  await waitForChart(page);
  const chart = page.getByTestId("trend-panel").locator("[tabindex='0']").first();
  await chart.focus();
  await page.keyboard.press("End");
  const live = page.getByTestId("trend-panel").locator("[aria-live=polite]").first();
  await expect(live).not.toHaveText("");
  const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  const score = new Map(sleepDocs.map((d) => [d.day, typeof d.score === "number" ? d.score : null]));
  // step back through the days: each one the live region reads equals that day's document
  // (a day without a score reads "—", a gap, never 0)
  for (let i = 0; i < 5; i++) {
    await page.keyboard.press("ArrowLeft");
    const text = (await live.textContent()) ?? "";
    const m = /^\w{3} (\d{1,2}) (\w{3}) (\d{4}): ([^,]+)/.exec(text);
    expect(m, `live region said "${text}"`).toBeTruthy();
    const iso = `${m![3]}-${String(MONTHS.indexOf(m![2]!) + 1).padStart(2, "0")}-${m![1]!.padStart(2, "0")}`;
    const expected = score.get(iso) ?? null;
    if (expected === null) expect(m![4]).toBe("—");
    else expect(shownNumber(m![4]!), text).toBe(expected);
  }
  await expect(
    page
      .getByTestId("trend-panel")
      .getByText(/7-day mean/)
      .first(),
  ).toBeVisible();
  await context.close();
});

test("[DASHBOARD] tags round-trip and show on the charts", async ({ browser, appDb, emulator }) => {
  test.setTimeout(90_000);
  const sleepDocs = await emulatorDocs(emulator, "daily_sleep");
  const score = new Map(sleepDocs.filter((d) => typeof d.score === "number").map((d) => [d.day, Number(d.score)]));
  // Tagged days whose next day has a sleep score (the comparison needs at least 3 of them;
  // a generated person does not wear the ring every night).
  const scoredNext = (d: string) => score.has(addDays(d, 1));
  let day = addDays(latest(sleepDocs).day, -3);
  while (!scoredNext(day)) day = addDays(day, -1);
  const extraDays: string[] = [];
  for (let d = addDays(day, -7); extraDays.length < 2; d = addDays(d, -1)) if (scoredNext(d)) extraDays.push(d);
  const { context, page } = await signedIn(browser);
  await page.goto(`/notes?day=${day}`);
  const editor = page.getByTestId("day-note-editor");
  await editor.getByLabel(/Tags for/).fill("Alcohol");
  await editor.getByLabel(/Tags for/).press("Enter");
  await editor.getByRole("button", { name: "+ travel" }).click();
  await editor.getByLabel("Note").fill("Wedding, late night");
  await editor.getByRole("button", { name: "Save" }).click();
  await expect(editor.getByRole("status")).toHaveText("Saved.");

  const rows = appDb
    .prepare(`SELECT t.name AS name FROM day_tag dt JOIN tag t ON t.id = dt.tagId WHERE dt.userId = ? AND dt.day = ? ORDER BY t.name`)
    .all(person!.userId, day) as Array<{ name: string }>;
  expect(rows.map((r) => r.name)).toEqual(["alcohol", "travel"]);
  expect((appDb.prepare(`SELECT text FROM day_note WHERE userId = ? AND day = ?`).get(person!.userId, day) as { text: string }).text).toBe(
    "Wedding, late night",
  );

  // back from the server after a reload, in the list and in the day view
  await page.reload();
  await expect(page.getByTestId("day-note-editor").getByTestId("tag-chip")).toHaveText(["#alcohol×", "#travel×"]);
  await expect(page.getByTestId("notes-list")).toContainText("Wedding, late night");
  await page.goto(`/day/${day}`);
  await expect(page.getByTestId("day-note-editor").getByTestId("tag-chip")).toHaveCount(2);

  // a marker on the trend chart, a dot in the calendar
  await page.goto("/trends?m=sleep.score&range=30d");
  await waitForChart(page);
  // the day's own mark (the ring's own tags can give another day the same names: the emulator
  // tags alcohol and travel too, and those days get marks of their own)
  // (and the ring may have tagged the day as well: its names join the mark's title)
  const mark = page.locator(`svg path[data-tag-day="${day}"] title`);
  await expect(mark).toHaveText(/\balcohol\b/);
  await expect(mark).toHaveText(/\btravel\b/);
  await page.goto("/calendar?m=sleep.score");
  await waitForChart(page);
  await expect(page.locator(`[data-day="${day}"]`)).toHaveAttribute("aria-label", /tagged$/);

  // tagged against untagged, with n: two more #alcohol days through the API, then the
  // comparison (sleep score the day after) equals one computed from the documents
  for (const d of extraDays) {
    const res = await page.request.put(`/api/notes/${d}`, { data: { text: "", tags: ["alcohol"] }, headers: { origin: E2E_APP_URL } });
    expect(res.status()).toBe(200);
  }
  const tagged = new Set([day, ...extraDays]);
  // over the person's whole range as the app knows it (the first to the last day of any collection,
  // the heart-rate series' UTC days included)
  const overview = (await (await page.request.get("/api/metrics")).json()) as { firstDay: string; lastDay: string };
  let taggedSum = 0;
  let taggedN = 0;
  let untaggedN = 0;
  for (let d = overview.firstDay; d <= overview.lastDay; d = addDays(d, 1)) {
    const next = score.get(addDays(d, 1));
    if (next === undefined) continue;
    if (tagged.has(d)) {
      taggedSum += next;
      taggedN++;
    } else untaggedN++;
  }
  await page.goto("/notes");
  const cmp = page.getByTestId("tag-comparison");
  await expect(cmp).toContainText(`n=${taggedN}`);
  await expect(cmp.getByRole("img")).toHaveAttribute(
    "aria-label",
    new RegExp(`averages ${Math.round(taggedSum / taggedN)} \\(n = ${taggedN}\\).*\\(n = ${untaggedN}\\)`),
  );
  await expect(cmp.getByTestId("tag-difference")).not.toHaveText("—");

  // removing a tag removes it everywhere
  await page.goto(`/notes?day=${day}`);
  await page.getByRole("button", { name: "Remove tag travel" }).click();
  await page.getByTestId("day-note-editor").getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("day-note-editor").getByRole("status")).toHaveText("Saved.");
  const after = appDb.prepare(`SELECT COUNT(*) AS n FROM day_tag WHERE userId = ? AND day = ?`).get(person!.userId, day) as { n: number };
  expect(after.n).toBe(1);
  await context.close();
});

test("[DASHBOARD] CSV and JSON exports equal the stored rows", async ({ browser, appDb }) => {
  const { context, page } = await signedIn(browser);
  for (const [collection, table] of [
    ["daily_sleep", "daily_sleep"],
    ["daily_activity", "daily_activity"],
    ["sleep", "sleep_period"],
  ] as const) {
    const res = await page.request.get(`/api/export?collection=${collection}&format=csv`);
    expect(res.status()).toBe(200);
    expect(res.headers()["content-type"]).toContain("text/csv");
    const [header, ...rows] = parseCsv(await res.text());
    const stored = appDb.prepare(`SELECT * FROM ${table} WHERE userId = ? ORDER BY day, id`).all(person!.userId) as Array<Record<string, unknown>>;
    expect(rows.length).toBe(stored.length);
    expect(header).not.toContain("raw");
    expect(header).not.toContain("userId");
    for (let i = 0; i < stored.length; i++) {
      for (const [j, col] of header!.entries()) {
        const v = stored[i]![col];
        const expected = v === null || v === undefined ? "" : String(v);
        expect(rows[i]![j], `${collection} row ${i} ${col}`).toBe(expected);
      }
    }
  }
  // a range
  const first = (appDb.prepare(`SELECT min(day) AS d FROM daily_readiness WHERE userId = ?`).get(person!.userId) as { d: string }).d;
  const to = addDays(first, 9);
  const ranged = parseCsv(await (await page.request.get(`/api/export?collection=daily_readiness&format=csv&from=${first}&to=${to}`)).text());
  const n = (
    appDb.prepare(`SELECT COUNT(*) AS n FROM daily_readiness WHERE userId = ? AND day BETWEEN ? AND ?`).get(person!.userId, first, to) as { n: number }
  ).n;
  expect(ranged.length - 1).toBe(n);
  // everything at once, as JSON: every document, as sent
  const all = (await (await page.request.get(`/api/export?collection=all&format=json`)).json()) as {
    collections: Record<string, unknown[]>;
    notes: unknown[];
  };
  const count = (t: string) => (appDb.prepare(`SELECT COUNT(*) AS n FROM ${t} WHERE userId = ?`).get(person!.userId) as { n: number }).n;
  expect(all.collections.daily_sleep?.length).toBe(count("daily_sleep"));
  expect(all.collections.sleep?.length).toBe(count("sleep_period"));
  expect(all.notes.length).toBeGreaterThan(0);
  const raw = appDb.prepare(`SELECT raw FROM daily_stress WHERE userId = ? ORDER BY day, id LIMIT 1`).get(person!.userId) as { raw: string };
  expect(all.collections.daily_stress?.[0]).toEqual(JSON.parse(raw.raw));
  // the settings page offers the same download
  await page.goto("/settings/data");
  await page.getByTestId("export-collection").selectOption("daily_spo2");
  await page.getByRole("radio", { name: "CSV" }).click();
  const download = page.waitForEvent("download");
  await page.getByTestId("export-link").click();
  expect((await download).suggestedFilename()).toBe("ringside-daily_spo2.csv");
  await context.close();
});

test("[DASHBOARD] preferences: units and theme", async ({ browser, appDb, emulator }) => {
  const activity = latest(await emulatorDocs(emulator, "daily_activity"));
  const { context, page } = await signedIn(browser);
  await page.goto("/settings/preferences");
  const prefs = page.getByTestId("preferences-section");
  await prefs.getByRole("radio", { name: /Imperial/ }).click();
  await prefs.getByRole("radio", { name: "Dark" }).click();
  await expect(page.locator("html")).toHaveClass(/dark/);
  await expect.poll(() => appDb.prepare(`SELECT units, theme FROM "User" WHERE id = ?`).get(person!.userId)).toEqual({ units: "imperial", theme: "dark" });
  await page.goto(`/day/${activity.day}`);
  await expect(page.locator("html")).toHaveClass(/dark/);
  const miles = (Number(activity.equivalent_walking_distance) / 1609.344).toFixed(Number(activity.equivalent_walking_distance) / 1609.344 < 10 ? 2 : 1);
  await expect(page.getByTestId("day-value-activity.equivalent_walking_distance")).toHaveText(`${miles} mi`);
  // back to the defaults for the other specs
  await page.goto("/settings/preferences");
  await page
    .getByTestId("preferences-section")
    .getByRole("radio", { name: /Metric/ })
    .click();
  await page.getByTestId("preferences-section").getByRole("radio", { name: "System" }).click();
  await expect.poll(() => appDb.prepare(`SELECT units, theme FROM "User" WHERE id = ?`).get(person!.userId)).toEqual({ units: "metric", theme: "system" });
  await context.close();
});

test("[DASHBOARD] delete all my data removes one person's data only", async ({ browser, appDb }) => {
  const ownerBefore = (appDb.prepare(`SELECT COUNT(*) AS n FROM daily_sleep WHERE userId = ?`).get(person!.userId) as { n: number }).n;

  // a second person of the household, with 30 days of their own
  const member = await browser.newContext({ baseURL: E2E_APP_URL });
  const memberId = (await signIn(member, appDb, { historyDays: 30 })).userId;
  const page = await member.newPage();
  await page.goto(`/notes`);
  await page.getByTestId("day-note-editor").getByRole("button", { name: "+ sick" }).click();
  await page.getByTestId("day-note-editor").getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("day-note-editor").getByRole("status")).toHaveText("Saved.");

  // Nothing of the member's sync still in flight: a job or a webhook fetch finishing after the delete would store its
  // page again (the connection stays, so syncing goes on), which is not what this test asks about.
  const inFlight = appDb.prepare(
    `SELECT (SELECT COUNT(*) FROM job WHERE userId = ? AND status = 'running')
          + (SELECT COUNT(*) FROM webhook_event WHERE status = 'queued' AND ringUserId = (SELECT ringUserId FROM "User" WHERE id = ?)) AS n`,
  );
  await expect.poll(() => (inFlight.get(memberId, memberId) as { n: number }).n, { timeout: 60_000 }).toBe(0);
  await page.goto("/settings/data");
  await page.getByRole("button", { name: "Delete all my data…" }).click();
  await expect(page.getByTestId("delete-all")).toBeDisabled();
  await page.getByTestId("delete-confirm").fill("DELETE");
  await page.getByTestId("delete-all").click();
  await expect(page.getByTestId("delete-done")).toBeVisible();
  for (const t of ["daily_sleep", "daily_activity", "sleep_period", "day_tag", "day_note", "tag", "sync_state"]) {
    const n = (appDb.prepare(`SELECT COUNT(*) AS n FROM ${t} WHERE userId = ?`).get(memberId) as { n: number }).n;
    expect(n, t).toBe(0);
  }
  // the member is still signed in and sees an empty dashboard; the owner's data is untouched
  await page.goto("/");
  await expect(page.getByTestId("today")).toBeVisible();
  expect((appDb.prepare(`SELECT COUNT(*) AS n FROM daily_sleep WHERE userId = ?`).get(person!.userId) as { n: number }).n).toBe(ownerBefore);
  await member.close();
});
