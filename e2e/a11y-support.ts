// Helpers of the accessibility specs (e2e/accessibility.spec.ts, e2e/keyboard.spec.ts): the
// WCAG 2.1 A and AA scan with axe-core, the theme and width switches, and the person the
// specs plant through the emulator's test-person options.
import AxeBuilder from "@axe-core/playwright";
import type { Result } from "axe-core";
import type { BrowserContext, Page } from "@playwright/test";
import { uniqueEmail } from "./fixtures";
import { emulatorControl } from "./support/emulator-control";
import { E2E_APP_URL } from "./support/ports";
import type { TestPerson } from "./support/emulator-control";

/** The rules axe-core runs: every WCAG 2.0 and 2.1 success criterion at levels A and AA. */
export const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
export const THEMES = ["light", "dark"] as const;
/** Phone (the narrowest width WCAG 1.4.10 asks to reflow to) and desktop. */
export const WIDTHS = [320, 1280] as const;
/** A 1280 px window at 200 % zoom: checked for sideways scrolling too (its grids differ from a phone's). */
export const ZOOM_200_WIDTH = 640;
export type Theme = (typeof THEMES)[number];

/** A rule switched off for one view, and why (every exception is written down). */
export type Exception = { rule: string; reason: string };

export type Violation = { view: string; theme: Theme; width: number; rule: string; impact: string | null; targets: string[]; summary: string };

/**
 * The app's own theme switch (components/hooks/use-preferences.ts): the `dark` class on <html>
 * and the cookie the theme script reads on the next page. Charts take their colours from CSS
 * variables, so nothing needs drawing again.
 */
export async function applyTheme(page: Page, theme: Theme) {
  await page.context().addCookies([{ name: "ringside-theme", value: theme, url: E2E_APP_URL }]);
  await page.evaluate((dark) => document.documentElement.classList.toggle("dark", dark), theme === "dark");
}

/** After a resize: the charts measure again (ResizeObserver) and draw; two frames later they have. */
export async function settle(page: Page) {
  await page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
}

/** How far the page is wider than its viewport, in CSS px (0 = no horizontal scroll). */
export async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

/** The elements that stick out past the right edge (for a readable failure). */
export async function overflowingElements(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const w = document.documentElement.clientWidth;
    const out: string[] = [];
    for (const el of Array.from(document.body.querySelectorAll<HTMLElement>("*"))) {
      const r = el.getBoundingClientRect();
      if (r.right > w + 0.5 && r.width > 0) {
        const id = el.id ? `#${el.id}` : "";
        const testId = el.dataset.testid ? `[data-testid=${el.dataset.testid}]` : "";
        out.push(`${el.tagName.toLowerCase()}${id}${testId} right=${Math.round(r.right)}`);
      }
      if (out.length >= 8) break;
    }
    return out;
  });
}

/** The WCAG A/AA rules that read colours: all a theme changes. */
export const COLOUR_RULES = ["color-contrast", "link-in-text-block"];

/** Runs the WCAG 2.1 A/AA rules (or only `rules` of them) over the page as it is now. */
export async function scan(
  page: Page,
  where: { view: string; theme: Theme; width: number },
  exceptions: Exception[] = [],
  rules?: string[],
): Promise<Violation[]> {
  // only the violations in full (axe then skips detailing every passing node, a good part of
  // its time); options() first, as it replaces what withTags() and disableRules() set
  const all = new AxeBuilder({ page }).options({ resultTypes: ["violations"] });
  let builder = rules ? all.withRules(rules) : all.withTags(WCAG_TAGS);
  if (exceptions.length) builder = builder.disableRules(exceptions.map((e) => e.rule));
  const result = await builder.analyze();
  return result.violations.map((v: Result) => ({
    ...where,
    rule: v.id,
    impact: v.impact ?? null,
    targets: v.nodes.slice(0, 6).map((n) => `${n.target.join(" ")}${n.failureSummary ? ` — ${n.failureSummary.split("\n").slice(1).join(" ").trim()}` : ""}`),
    summary: `${v.nodes.length} × ${v.help}`,
  }));
}

export function report(violations: Violation[]): string {
  return violations.map((v) => `${v.view} [${v.theme}, ${v.width}px] ${v.rule} (${v.impact}): ${v.summary}\n    ${v.targets.join("\n    ")}`).join("\n");
}

/**
 * The days a planted person needs relative to the emulator's today: a throwaway account of
 * one day tells the emulator's date (its clock, which the test does not read itself).
 */
export async function emulatorToday(): Promise<string> {
  const probe = await emulatorControl.createUser(uniqueEmail("today-probe"), { history_days: 2 });
  const docs = await emulatorControl.documents<{ day: string }>(probe.user_id, "daily_activity");
  return docs
    .map((d) => d.day)
    .sort()
    .at(-1)!;
}

export const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/**
 * The accessibility specs' person: the same data whatever the e-mail (a data key of their
 * own), worn every day but three (so the calendar shows "not worn" days), 60 days of history.
 */
export function a11yPerson(today: string): { person: TestPerson; historyDays: number; notWorn: string[] } {
  const notWorn = [addDays(today, -4), addDays(today, -11), addDays(today, -25)];
  return { person: { data_key: "accessibility-person", wear: "always", not_worn_days: notWorn }, historyDays: 60, notWorn };
}

/** Plants notes and tags through the app's API (Notes, the tag comparison and the charts' tag marks need them). */
export async function plantNotes(context: BrowserContext, days: string[]) {
  for (const [i, day] of days.entries()) {
    const res = await context.request.put(`${E2E_APP_URL}/api/notes/${day}`, {
      data: { text: i === 0 ? "Late dinner with friends" : "", tags: i % 2 ? ["travel"] : ["alcohol", "late meal"] },
      headers: { origin: E2E_APP_URL },
    });
    if (res.status() !== 200) throw new Error(`PUT /api/notes/${day} → ${res.status()}: ${await res.text()}`);
  }
}
