// Helpers shared by the dashboard specs: take themed screenshots, wait for charts,
// read CSV and shown numbers. (Signing in and waiting for the backfill: e2e/fixtures.)
import fs from "node:fs";
import path from "node:path";
import type { BrowserContext, Page } from "@playwright/test";
import { E2E_APP_URL } from "./support/ports";

export const SCREENSHOT_DIR = path.resolve("e2e/test-results/screenshots");

/** Sets the theme the way the app does (cookie read by theme-script.tsx before first paint). */
export async function setTheme(context: BrowserContext, theme: "light" | "dark") {
  await context.addCookies([{ name: "ringside-theme", value: theme, url: E2E_APP_URL }]);
}

/** Waits for the first chart of the page to be drawn (data-chart-ready). */
export async function waitForChart(page: Page, selector = "[data-chart-ready]") {
  await page.locator(selector).first().waitFor({ state: "attached", timeout: 60_000 });
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
