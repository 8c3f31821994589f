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
  await page.evaluate((dark) => {
    // colours switch at once, with no transition between the themes: a scan once read the dark
    // theme's text colour on the light theme's background (the Signals page at 320 px, in one
    // full run of four), a colour not yet switched, which no person sees after the switch
    if (!document.getElementById("a11y-no-transitions")) {
      const style = document.createElement("style");
      style.id = "a11y-no-transitions";
      style.textContent = "*, ::before, ::after { transition: none !important; }";
      document.head.append(style);
    }
    document.documentElement.classList.toggle("dark", dark);
  }, theme === "dark");
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
  include?: string,
): Promise<Violation[]> {
  // only the violations in full (axe then skips detailing every passing node, a good part of
  // its time); options() first, as it replaces what withTags() and disableRules() set
  const all = new AxeBuilder({ page }).options({ resultTypes: ["violations"] });
  if (include) all.include(include);
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

/**
 * Marks what the page shows differently at its current width from what it showed when
 * `rememberLayout` ran (at another width): an element shown now and not then, or whose text
 * size, weight or colours changed (a phone's own links, a section list shown only on a phone,
 * a chart's other ticks). Returns the selector of the marked elements, or null when nothing
 * differs. The colour rules then read only these in the other theme (colours do not change
 * with the width; what the width shows does).
 */
export async function markChangedLayout(page: Page): Promise<{ selector: string | null; marked: number }> {
  const marked = await page.evaluate(() => {
    const w = window as unknown as { __a11yLayout?: WeakMap<Element, string> };
    const before = w.__a11yLayout ?? new WeakMap<Element, string>();
    let n = 0;
    for (const el of Array.from(document.body.querySelectorAll("*"))) {
      el.removeAttribute("data-a11y-changed");
      const cs = getComputedStyle(el);
      const shown = el.getClientRects().length > 0 && cs.visibility !== "hidden";
      if (!shown) continue;
      const now = [cs.fontSize, cs.fontWeight, cs.color, cs.backgroundColor, cs.opacity].join("|");
      // only the outermost element that changed: axe reads its whole subtree
      if (before.get(el) !== now && !el.parentElement?.closest("[data-a11y-changed]")) {
        el.setAttribute("data-a11y-changed", "");
        n++;
      }
    }
    return n;
  });
  return { selector: marked > 0 ? "[data-a11y-changed]" : null, marked };
}

/** Remembers what each element shows at the current width and theme (see `markChangedLayout`). */
export async function rememberLayout(page: Page) {
  await page.evaluate(() => {
    const layout = new WeakMap<Element, string>();
    for (const el of Array.from(document.body.querySelectorAll("*"))) {
      const cs = getComputedStyle(el);
      if (el.getClientRects().length > 0 && cs.visibility !== "hidden")
        layout.set(el, [cs.fontSize, cs.fontWeight, cs.color, cs.backgroundColor, cs.opacity].join("|"));
    }
    (window as unknown as { __a11yLayout?: WeakMap<Element, string> }).__a11yLayout = layout;
  });
}

/**
 * The WCAG 2.1 A/AA scan of one view as it is now, in both themes at both widths, for three
 * full scans' cost instead of four: at 1280 px every rule in light and the colour rules in dark
 * (a theme changes colours alone); at 320 px every rule in light, and in dark the colour rules
 * over what the phone shows differently from the desktop (`markChangedLayout`: its own links
 * and lists, its text sizes, its charts' ticks), the rest having been read in dark at 1280 px.
 * Also no sideways scrolling at either width. Leaves the page at 320 px in light.
 */
/** Above this many changed parts, the phone's dark scan reads the whole page (see scanBothThemesAndWidths). */
const MAX_CHANGED_PARTS = 150;

export async function scanBothThemesAndWidths(
  page: Page,
  view: string,
  exceptions: Exception[] = [],
): Promise<{ violations: Violation[]; overflows: string[] }> {
  const [phone, desktop] = WIDTHS;
  const violations: Violation[] = [];
  const overflows: string[] = [];
  const overflowAt = async (width: number) => {
    const over = await horizontalOverflow(page);
    if (over > 0) overflows.push(`${view} at ${width}px: ${over}px too wide (${(await overflowingElements(page)).join(", ")})`);
  };
  await page.setViewportSize({ width: desktop, height: 800 });
  await applyTheme(page, "light");
  await settle(page);
  await overflowAt(desktop);
  violations.push(...(await scan(page, { view, theme: "light", width: desktop }, exceptions)));
  await applyTheme(page, "dark");
  await settle(page);
  violations.push(...(await scan(page, { view, theme: "dark", width: desktop }, exceptions, COLOUR_RULES)));
  await rememberLayout(page);
  await page.setViewportSize({ width: phone, height: 800 });
  await settle(page);
  await overflowAt(phone);
  // many changed parts (a page drawn anew at this width): the colour rules over the whole page,
  // as axe resolves each included part against every other
  const changed = await markChangedLayout(page);
  if (changed.marked > MAX_CHANGED_PARTS) violations.push(...(await scan(page, { view, theme: "dark", width: phone }, exceptions, COLOUR_RULES)));
  else if (changed.selector) violations.push(...(await scan(page, { view, theme: "dark", width: phone }, exceptions, COLOUR_RULES, changed.selector)));
  await applyTheme(page, "light");
  await settle(page);
  violations.push(...(await scan(page, { view, theme: "light", width: phone }, exceptions)));
  return { violations, overflows };
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
