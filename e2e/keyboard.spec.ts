// Keyboard only, no mouse: a person signs in ("Connect your ring", the ring's consent page),
// reads Today, moves the Trends chart's cursor and hears each day's value from its live
// region, opens a day from the Calendar and writes a note, all with page.keyboard. Every stop
// on the way shows a focus ring. (Navigation goes through links and buttons, never page.goto,
// after the first page; the one page.reload waits for the backfill the connect started.)
import type { Locator, Page } from "@playwright/test";
import { expect, test, uniqueEmail, waitForBackfill } from "./fixtures";
import { addDays } from "./a11y-support";
import { E2E_APP_URL, E2E_EMULATOR_URL } from "./support/ports";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** The focused element, described, and whether it shows a focus indicator (its own or its field's). */
async function focusState(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { what: "body", visible: false, ringed: false };
    const ringed = (e: Element | null) => {
      if (!e) return false;
      const s = getComputedStyle(e);
      return (s.outlineStyle !== "none" && parseFloat(s.outlineWidth) > 0) || s.boxShadow !== "none";
    };
    const r = el.getBoundingClientRect();
    const name = el.getAttribute("aria-label") ?? el.textContent?.trim().slice(0, 40) ?? "";
    return {
      what: `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""} "${name}"`,
      visible: r.width > 1 && r.height > 1,
      // a field inside a styled box (the tag input) shows its ring on the box (focus-within)
      ringed: ringed(el) || ringed(el.parentElement),
    };
  });
}

/**
 * Presses Tab (Shift+Tab with `back`) until `target` has the focus, at most `max` times. On the
 * app's own pages every element the focus passes shows a focus indicator and is on screen.
 */
async function tabTo(page: Page, target: Locator, { back = false, max = 60 } = {}) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(back ? "Shift+Tab" : "Tab");
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
    if (page.url().startsWith(E2E_APP_URL)) {
      const f = await focusState(page);
      if (f.what === "body") continue; // past the last element: the next Tab starts at the top again
      expect(f.visible, `${f.what} has the focus but cannot be seen`).toBe(true);
      expect(f.ringed, `${f.what} has the focus but no focus ring`).toBe(true);
    }
  }
  throw new Error(`${max} Tab presses did not reach ${target}`);
}

test("[A11Y] keyboard only: sign in, Today, the Trends cursor read aloud, a day from the Calendar, a note", async ({ browser, appDb, emulator }) => {
  test.setTimeout(180_000);
  const email = uniqueEmail("keyboard");
  // a planted person: every day worn (so every day of the walk has a score), 45 days
  const ring = await emulator.createUser(email, { history_days: 45, data_key: "keyboard-person", wear: "always" });
  const context = await browser.newContext({ baseURL: E2E_APP_URL, reducedMotion: "reduce", viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();

  // Sign in: Tab to "Connect your ring", Enter; on the ring's consent page, the e-mail, Enter (Allow)
  await page.goto("/sign-in");
  await tabTo(page, page.getByRole("button", { name: "Connect your ring" }));
  await page.keyboard.press("Enter");
  await page.waitForURL((u) => u.href.startsWith(E2E_EMULATOR_URL));
  await tabTo(page, page.getByLabel(/Emulated account/));
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.type(email);
  await page.keyboard.press("Enter");
  await page.waitForURL(`${E2E_APP_URL}/`);
  const user = appDb.prepare(`SELECT id FROM "User" WHERE email = ?`).get(email) as { id: string } | undefined;
  expect(user, "signed in as the person").toBeTruthy();
  await waitForBackfill(appDb, user!.id);
  await page.reload();

  // Today: the skip link first, then the page; on to Trends by its link in the main navigation
  await expect(page.getByRole("heading", { level: 1, name: "Today" })).toBeVisible();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Skip to content" })).toBeFocused();
  await tabTo(page, page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Trends" }));
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/trends/);

  // Trends: the sleep score chart's cursor, day by day from the last, each value read aloud
  const panel = page.locator('[data-testid=trend-panel][data-metric="sleep.score"]');
  const chart = panel.getByRole("group", { name: /^Sleep score/ });
  await tabTo(page, chart);
  await page.keyboard.press("End");
  const live = panel.getByTestId("chart-live");
  await expect(live).not.toHaveText("");
  const sleep = new Map((await emulator.documents<{ day: string; score: number | null }>(ring.user_id, "daily_sleep")).map((d) => [d.day, d.score]));
  const heard: string[] = [];
  for (let i = 0; i < 4; i++) {
    const before = (await live.textContent()) ?? "";
    await page.keyboard.press("ArrowLeft");
    await expect(live).not.toHaveText(before);
    const text = (await live.textContent()) ?? "";
    const m = /^\w{3} (\d{1,2}) (\w{3}) (\d{4}): ([^,]+)/.exec(text);
    expect(m, `the live region said "${text}"`).toBeTruthy();
    const day = `${m![3]}-${String(MONTHS.indexOf(m![2]!) + 1).padStart(2, "0")}-${m![1]!.padStart(2, "0")}`;
    heard.push(day);
    // (a day without a score reads "—": a gap, never 0)
    const expected = sleep.get(day) ?? null;
    if (expected === null) expect(m![4], text).toBe("—");
    else expect(Number(m![4]), text).toBe(expected);
  }
  // one day at a time, backwards
  for (let i = 1; i < heard.length; i++) expect(heard[i]).toBe(addDays(heard[i - 1]!, -1));
  // the visible tooltip follows the keyboard too: it names the day the live region read
  const lastHeard = ((await live.textContent()) ?? "").split(":")[0]!;
  await expect(panel.getByText(lastHeard, { exact: true })).toBeVisible();

  // A day: Calendar by the main navigation, into the year (one Tab stop), a day back, Enter
  await page.keyboard.press("Escape");
  await expect(live).toHaveText("");
  await tabTo(page, page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Calendar" }), { back: true });
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/calendar/);
  const cell = page.locator("[data-day][tabindex='0']");
  await expect(cell).toHaveCount(1);
  await tabTo(page, cell);
  const focusedDay = (await cell.getAttribute("data-day"))!;
  await page.keyboard.press("ArrowLeft");
  const day = addDays(focusedDay, -1);
  await expect(page.locator(`[data-day="${day}"]`)).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/day/${day}$`));
  await expect(page.getByTestId("day-value-sleep.score")).toHaveText(String(sleep.get(day) ?? "no score"));

  // A note: the tags field (type, Enter), the note (type), Save (Enter)
  const editor = page.getByTestId("day-note-editor");
  await tabTo(page, editor.getByLabel(/^Tags for/));
  await page.keyboard.type("alcohol");
  await page.keyboard.press("Enter");
  await expect(editor.getByTestId("tag-chip")).toHaveText(["#alcohol×"]);
  await tabTo(page, editor.getByLabel("Note"));
  await page.keyboard.type("Written without a mouse");
  await tabTo(page, editor.getByRole("button", { name: "Save" }));
  await page.keyboard.press("Enter");
  await expect(editor.getByRole("status")).toHaveText("Saved.");
  const note = appDb.prepare(`SELECT text FROM day_note WHERE userId = ? AND day = ?`).get(user!.id, day) as { text: string } | undefined;
  expect(note?.text).toBe("Written without a mouse");
  const tags = appDb
    .prepare(`SELECT t.name AS name FROM day_tag dt JOIN tag t ON t.id = dt.tagId WHERE dt.userId = ? AND dt.day = ?`)
    .all(user!.id, day) as Array<{ name: string }>;
  expect(tags.map((t) => t.name)).toEqual(["alcohol"]);
  await context.close();
});
