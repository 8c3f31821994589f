// Helpers shared by the dashboard and perf specs: sign in through the real connect flow,
// wait for the backfill, take themed screenshots, read CSV.
import fs from "node:fs";
import path from "node:path";
import type Database from "better-sqlite3";
import type { BrowserContext, Page } from "@playwright/test";
import { connectRing, expect, uniqueEmail } from "./fixtures";
import { E2E_APP_URL, E2E_EMULATOR_URL } from "./support/ports";

export const SCREENSHOT_DIR = path.resolve("e2e/test-results/screenshots");

type UserRow = { id: string; email: string | null; ringUserId: string | null };

/**
 * Signs the page in as this instance's owner (the first person to connect, or the existing
 * owner again, whichever spec ran first) and returns the app's user id.
 */
export async function signInAsOwner(page: Page, db: Database.Database): Promise<{ email: string; ringUserId: string; userId: string }> {
  const owner = db.prepare(`SELECT id, email, ringUserId FROM "User" WHERE role = 'owner'`).get() as UserRow | undefined;
  let email = owner?.email ?? null;
  if (owner && !email) {
    const res = await fetch(`${E2E_EMULATOR_URL}/_emulator/users`);
    const { users } = (await res.json()) as { users: Array<{ user_id: string; email: string }> };
    email = users.find((u) => u.user_id === owner.ringUserId)?.email ?? null;
  }
  const connected = await connectRing(page, { email: email ?? uniqueEmail("owner") });
  await expect(page).toHaveURL(`${E2E_APP_URL}/`);
  const user = db.prepare(`SELECT id FROM "User" WHERE ringUserId = ?`).get(connected.ringUserId) as { id: string };
  return { ...connected, userId: user.id };
}

/** Waits until every collection's backfill is done and nothing is running for the person. */
export async function waitForBackfill(db: Database.Database, userId: string, collections = 8, timeout = 120_000) {
  await expect
    .poll(
      () =>
        Number(
          (
            db
              .prepare(`SELECT COUNT(*) AS n FROM sync_state WHERE userId = ? AND backfillDoneAt IS NOT NULL AND status IN ('idle', 'not_shared')`)
              .get(userId) as { n: number }
          ).n,
        ),
      { timeout, intervals: [250, 500, 1000] },
    )
    .toBeGreaterThanOrEqual(collections);
}

/** Sets the theme the way the app does (cookie read by theme-script.tsx before first paint). */
export async function setTheme(context: BrowserContext, theme: "light" | "dark") {
  await context.addCookies([{ name: "ringside-theme", value: theme, url: E2E_APP_URL }]);
}

/** Waits for the first chart of the page to be drawn (data-chart-ready). */
export async function waitForChart(page: Page, selector = "[data-chart-ready]") {
  await page.locator(selector).first().waitFor({ state: "attached", timeout: 20_000 });
}

export async function screenshot(page: Page, name: string) {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true, animations: "disabled" });
  return file;
}

/** RFC 4180 CSV → rows of strings (quotes, doubled quotes, commas and newlines in fields). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += c;
  }
  if (field || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/** The digits of a shown number ("8,012 steps" → 8012, "−3" → -3). */
export function shownNumber(text: string | null): number {
  const m = /[−-]?\d[\d,]*(\.\d+)?/.exec((text ?? "").replace("−", "-"));
  return m ? Number(m[0].replaceAll(",", "")) : Number.NaN;
}
