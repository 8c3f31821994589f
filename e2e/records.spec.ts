// Everything the ring records, end to end: a person's history (documents, heart rate, battery)
// synced from the emulator by the app, then Day, Workouts, Today and Notes & tags walked in light
// and dark at phone and desktop widths (screenshots with E2E_SCREENSHOTS=1), the numbers
// shown against the emulator's documents and samples, and a tag from the ring app in a
// tagged-versus-untagged comparison.
import { clock } from "@/lib/clock";
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { screenshot, setTheme, shownNumber } from "./dashboard-support";
import { E2E_APP_URL, E2E_EMULATOR_URL } from "./support/ports";
import { tagTypeName } from "@/lib/metrics/ring-tags";
import { activityName } from "@/lib/metrics/workouts";

test.describe.configure({ mode: "serial" });

type Doc = Record<string, unknown>;
type StorageState = Awaited<ReturnType<BrowserContext["storageState"]>>;

let auth: StorageState | null = null;
let ringUserId = "";
/** Before the app's backfill began: every battery reading the emulator had by then, the app has. */
let beforeSync = new Date(0);
const cache = new Map<string, Doc[]>();

async function docsOf(emulator: { documents: (u: string, c: string) => Promise<Doc[]> }, collection: string): Promise<Doc[]> {
  if (!cache.has(collection)) cache.set(collection, await emulator.documents(ringUserId, collection));
  return cache.get(collection)!;
}

/** The emulator's samples of a series in a window (its control API, inclusive date-times). */
async function samples(series: string, start: string, end: string): Promise<Doc[]> {
  const q = new URLSearchParams({ start, end });
  const res = await fetch(`${E2E_EMULATOR_URL}/_emulator/users/${encodeURIComponent(ringUserId)}/documents/${series}?${q}`);
  return ((await res.json()) as { data: Doc[] }).data;
}

async function signedIn(browser: Browser, width: number, theme: "light" | "dark"): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: E2E_APP_URL,
    storageState: auth ?? undefined,
    viewport: { width, height: 900 },
    reducedMotion: "reduce",
  });
  await setTheme(context, theme);
  return { context, page: await context.newPage() };
}

async function checkLayout(page: Page, name: string, theme: "light" | "dark", width: number) {
  expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(theme === "dark");
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${name} at ${width}px overflows`).toBeLessThanOrEqual(0);
  const unnamed = await page.locator('[role="img"]:not([aria-label]), [role="img"][aria-label=""]').count();
  expect(unnamed, `${name}: role=img without a name`).toBe(0);
  await screenshot(page, `records-${name}-${theme}-${width}`);
}

test("[RECORDS] a person's history, heart rate and battery synced from the emulator", async ({ page, emulator, login }) => {
  test.setTimeout(180_000);
  // this spec's own person (a session row and cookie; the OAuth round trip has its own specs),
  // backfilled by the app: every collection, the time series included
  beforeSync = clock.date();
  const who = await login({ role: "member" });
  ringUserId = who.ringUserId;
  auth = await page.context().storageState();
  expect((await docsOf(emulator, "workout")).length).toBeGreaterThan(5);
  expect((await docsOf(emulator, "enhanced_tag")).length).toBeGreaterThan(5);
});

test("[RECORDS] Day: the whole day's heart rate by source, workouts on the timeline, ring-app tags, bedtime", async ({ browser, emulator }) => {
  test.setTimeout(240_000);
  const workouts = await docsOf(emulator, "workout");
  const activity = await docsOf(emulator, "daily_activity");
  // a recent day with a workout and an activity document (its timestamp carries the person's offset)
  const w = [...workouts].reverse().find((x) => activity.some((a) => a.day === x.day) && String(x.day) < String(activity.at(-1)!.day))!;
  const day = String(w.day);
  const offset = String(activity.find((a) => a.day === day)!.timestamp).slice(19) || "+00:00";
  const want = await samples("heartrate", `${day}T00:00:00${offset}`, `${day}T23:59:59${offset}`);
  const tags = (await docsOf(emulator, "enhanced_tag")).filter((t) => t.start_day === day);
  const bedtime = (await docsOf(emulator, "sleep_time")).find((b) => b.day === day);
  for (const theme of ["light", "dark"] as const) {
    for (const width of [390, 1280]) {
      const { context, page } = await signedIn(browser, width, theme);
      await page.goto(`/day/${day}`);
      await expect(page.getByRole("heading", { level: 1, name: /\d{4}$/ })).toBeVisible();
      const hr = page.getByTestId("day-heart-rate");
      await expect(hr.getByTestId("day-heart-rate-chart")).toHaveAttribute("data-chart-ready", "true");
      // every sample of the local day, counted by source
      const counts = await hr.getByRole("list", { name: "Samples by source" }).locator("li").allTextContents();
      expect(counts.reduce((a, t) => a + shownNumber(t), 0)).toBe(want.length);
      await expect(hr.locator('[data-source="workout"]')).toBeVisible();
      // the workout on the activity timeline and in the list
      await expect(page.locator('rect[data-event="workout"]').first()).toBeAttached();
      await expect(
        page
          .getByTestId("day-workout")
          .filter({ hasText: activityName(String(w.activity)) })
          .first(),
      ).toBeVisible();
      // the ring app's tags of the day, and that evening's bedtime guidance
      const ringTags = page.getByTestId("day-ring-tags");
      if (tags.length) for (const t of tags) await expect(ringTags).toContainText(t.custom_name ? String(t.custom_name) : tagTypeName(String(t.tag_type_code)));
      else await expect(ringTags).toContainText("None that day");
      if (bedtime) await expect(page.getByTestId("bedtime")).not.toContainText("No guidance");
      await page.waitForLoadState("networkidle");
      await checkLayout(page, "day", theme, width);
      await context.close();
    }
  }
});

test("[RECORDS] Workouts: the list, its filters, the weekly chart and a workout's heart-rate curve", async ({ browser, emulator }) => {
  test.setTimeout(240_000);
  const workouts = await docsOf(emulator, "workout");
  const counts = new Map<string, number>();
  for (const w of workouts) counts.set(String(w.activity), (counts.get(String(w.activity)) ?? 0) + 1);
  const [topActivity, topCount] = [...counts].sort((a, b) => b[1] - a[1])[0]!;
  const byStart = [...workouts].sort((a, b) => String(b.start_datetime).localeCompare(String(a.start_datetime)));
  const newest = byStart[0]!;
  // The emulator lists today's workouts for the whole day; heart rate was synced up to the
  // connect, so the curves looked at are of workouts that ended well before it.
  const [lived, livedBefore] = byStart.filter((w) => Date.parse(String(w.end_datetime)) < clock.now() - 3_600_000);
  expect(lived && livedBefore, "two workouts that ended over an hour ago").toBeTruthy();
  for (const theme of ["light", "dark"] as const) {
    for (const width of [390, 1280]) {
      const { context, page } = await signedIn(browser, width, theme);
      await page.goto(`/workouts?range=all&w=${encodeURIComponent(String(lived!.id))}`);
      await expect(page.getByRole("heading", { level: 1, name: "Workouts" })).toBeVisible();
      await expect(page.getByTestId("total-count")).toHaveText(String(workouts.length));
      await expect(page.getByTestId("weekly-workouts-chart")).toHaveAttribute("data-chart-ready", "true");
      const rows = page.getByTestId("workout-row");
      await expect(rows.first()).toHaveAttribute("data-workout-id", String(newest.id));
      // the chosen workout's heart-rate curve is shown; picking another shows its own
      await expect(page.locator(`[data-testid="workout-row"][data-workout-id="${String(lived!.id)}"]`)).toHaveAttribute("aria-pressed", "true");
      await expect(page.getByTestId("workout-curve")).toHaveAttribute("data-chart-ready", "true");
      const second = page.locator(`[data-testid="workout-row"][data-workout-id="${String(livedBefore!.id)}"]`);
      const secondId = String(livedBefore!.id);
      await second.click();
      await expect(second).toHaveAttribute("aria-pressed", "true");
      await expect(page).toHaveURL(new RegExp(`w=${secondId}`));
      await expect(page.getByTestId("workout-detail").getByRole("group", { name: /Heart rate during/ })).toBeVisible();
      // filtering by activity
      await page.getByTestId("filter-activity").selectOption(topActivity);
      await expect(page.getByTestId("total-count")).toHaveText(String(topCount));
      await page.getByRole("radiogroup", { name: "Group by" }).getByRole("radio", { name: "Intensity" }).click();
      await page.getByRole("radiogroup", { name: "Measure" }).getByRole("radio", { name: "Calories" }).click();
      await expect(page.getByRole("heading", { name: "Weekly calories by intensity" })).toBeVisible();
      await page.waitForLoadState("networkidle");
      await checkLayout(page, "workouts", theme, width);
      await context.close();
    }
  }
});

test("[RECORDS] Today: heart rate, workouts and sessions, bedtime, VO2 max, battery and firmware", async ({ browser, emulator }) => {
  test.setTimeout(240_000);
  const rings = await docsOf(emulator, "ring_configuration");
  const ring = [...rings].sort((a, b) => String(b.set_up_at).localeCompare(String(a.set_up_at)))[0]!;
  const vo2 = (await docsOf(emulator, "vO2_max")).at(-1)!;
  // the emulator's clock runs on: a reading may come after the app's last sync, so the reading
  // shown is checked against the emulator's at its own instant, and as new as any it had before
  const threeDaysBefore = new Date(beforeSync.getTime() - 3 * 86_400_000).toISOString();
  const newestBeforeSync = (await samples("ring_battery_level", threeDaysBefore, beforeSync.toISOString())).at(-1)!;
  for (const theme of ["light", "dark"] as const) {
    for (const width of [390, 1280]) {
      const { context, page } = await signedIn(browser, width, theme);
      await page.goto("/");
      await expect(page.getByTestId("today")).toHaveAttribute("data-chart-ready", "true");
      await expect(page.getByTestId("ring-firmware")).toContainText(String(ring.firmware_version));
      const at = (await page.getByTestId("ring-battery").getAttribute("data-at"))!;
      expect(Date.parse(at)).toBeGreaterThanOrEqual(Date.parse(String(newestBeforeSync.timestamp)));
      const [reading] = await samples("ring_battery_level", at, at);
      expect(shownNumber(await page.getByTestId("ring-battery").textContent())).toBe(Number(reading!.level));
      expect(shownNumber(await page.getByTestId("value-vo2max.vo2_max").textContent())).toBe(Number(vo2.vo2_max));
      await expect(page.getByTestId("value-heartrate.daytime_mean")).toContainText("bpm");
      await expect(page.getByTestId("value-night.lowest_heart_rate")).toContainText("bpm");
      await expect(page.getByTestId("workouts-sessions")).toBeVisible();
      await expect(page.getByTestId("bedtime")).toBeVisible();
      await page.waitForLoadState("networkidle");
      await checkLayout(page, "today", theme, width);
      await context.close();
    }
  }
});

test("[RECORDS] Notes & tags: the ring app's tags are read-only tags from the ring, and compare tagged with untagged days", async ({ browser, emulator }) => {
  test.setTimeout(240_000);
  const entries = (await docsOf(emulator, "enhanced_tag")).filter((e) => e.tag_type_code && e.tag_type_code !== "custom");
  const byCode = new Map<string, Set<string>>();
  for (const e of entries) byCode.set(String(e.tag_type_code), (byCode.get(String(e.tag_type_code)) ?? new Set()).add(String(e.start_day)));
  const [code, days] = [...byCode].sort((a, b) => b[1].size - a[1].size)[0]!;
  const name = tagTypeName(code);
  for (const theme of ["light", "dark"] as const) {
    for (const width of [390, 1280]) {
      const { context, page } = await signedIn(browser, width, theme);
      await page.goto("/notes");
      await expect(page.getByRole("heading", { level: 1, name: "Notes & tags" })).toBeVisible();
      const ringList = page.getByTestId("ring-tag-list");
      const item = ringList.locator(`[data-tag-id="ring:${code}"]`);
      await expect(item).toContainText(`#${name}`);
      await expect(item).toContainText("from the ring");
      expect(shownNumber(await item.textContent())).toBe(days.size);
      // read-only: no rename, colour or delete for it
      await expect(item.getByRole("button")).toHaveCount(0);
      // the tagged days in the list carry it, marked
      await expect(page.getByTestId("notes-list").getByTestId("ring-tag-chip").first()).toBeVisible();
      // in a comparison
      await page.locator("#cmp-tag").selectOption(`ring:${code}`);
      const cmp = page.getByTestId("tag-comparison");
      await expect(cmp).toContainText(`#${name} (from the ring)`);
      await expect(page.getByTestId("tag-difference")).not.toHaveText("");
      await page.waitForLoadState("networkidle");
      await checkLayout(page, "notes", theme, width);
      await context.close();
    }
  }
});
