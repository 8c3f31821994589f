// Helpers shared by the dashboard specs: take themed screenshots, wait for charts,
// read CSV and shown numbers. (Signing in and waiting for the backfill: e2e/fixtures.)
import fs from "node:fs";
import path from "node:path";
import type { BrowserContext, Locator, Page } from "@playwright/test";
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

/**
 * Keeps a picture of what the page (or one part of it) shows, in e2e/test-results/screenshots,
 * when E2E_SCREENSHOTS=1: for a person looking over the pages, not for an assertion. Off by
 * default: a full-page PNG of a long page is rasterised and encoded by the browser, and the
 * specs' 45 pictures cost every run that CPU (measured in docs/testing.md).
 */
export async function screenshot(target: Page | Locator, name: string): Promise<string | null> {
  if (process.env.E2E_SCREENSHOTS !== "1") return null;
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  if ("goto" in target) await target.screenshot({ path: file, fullPage: true, animations: "disabled" });
  else await target.screenshot({ path: file, animations: "disabled" });
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
