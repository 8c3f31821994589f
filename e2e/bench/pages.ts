// Pages: time from navigation start to the first chart drawn ([data-chart-ready], set by the
// chart components once recharts has rendered) and the JavaScript transferred (encoded, i.e.
// gzip as sent), in Chromium via Playwright, a fresh browser context (empty cache) per run.
// Navigation start to the first [data-chart-ready] (components/charts/use-chart-size.ts).
import fs from "node:fs";
import { chromium, type Browser } from "@playwright/test";
import { settle } from "./cpu";
import { median, round } from "./stats";

/** Records when the first [data-chart-ready] appears, in ms since navigation start. */
const OBSERVE_CHART_READY = `(() => {
  const mark = () => { if (window.__chartReadyAt === undefined && document.querySelector("[data-chart-ready]")) { window.__chartReadyAt = performance.now(); performance.mark("chart-ready"); } };
  new MutationObserver(mark).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-chart-ready"] });
})();`;

export type PageRun = { charts_ms: number; js_gzip_kb: number; js_files: number; encodings: string[] };
export type PageFigures = { charts_ms: number; js_gzip_kb: number; runs: PageRun[]; settled: { waited_ms: number; busy_pct: number } };
type Cookie = { name: string; value: string; url: string };

/**
 * CHROMIUM_PATH, else Debian's chromium-headless-shell, else its chromium. The desktop browser
 * run headless still loads its own pages (the address bar's web UI: some 400 requests and a
 * second of CPU seen in one traced visit, at moments of its choosing), which moved a page's figure
 * by hundreds of milliseconds; the shell has none of them.
 */
export async function launchChromium(): Promise<Browser> {
  const shell = "/usr/bin/chromium-headless-shell";
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? (fs.existsSync(shell) ? shell : "/usr/bin/chromium"),
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-dev-shm-usage",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
      "--disable-quic",
    ],
  });
}

async function measureOnce(browser: Browser, baseUrl: string, cookies: Cookie[], path: string, tracePath?: string): Promise<PageRun> {
  const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 900 } });
  try {
    await context.addCookies(cookies);
    await context.addInitScript(OBSERVE_CHART_READY);
    const page = await context.newPage();
    // a Chromium performance trace of this visit (BENCH_PROFILE_DIR): where the time to the first chart went
    if (tracePath)
      await browser.startTracing(page, {
        path: tracePath,
        categories: ["devtools.timeline", "v8.execute", "disabled-by-default-devtools.timeline", "blink.user_timing", "loading", "netlog"],
      });
    const encodings = new Set<string>();
    page.on("response", (r) => {
      if (r.request().resourceType() !== "script") return;
      void r.headerValue("content-encoding").then((v) => encodings.add(v ?? "identity"));
    });
    const res = await page.goto(path);
    if (!res || res.status() !== 200 || new URL(page.url()).pathname !== path) throw new Error(`${path}: ${res?.status()} at ${new URL(page.url()).pathname}`);
    await page.waitForFunction(() => (window as unknown as { __chartReadyAt?: number }).__chartReadyAt !== undefined, null, { timeout: 20_000 });
    await page.waitForLoadState("networkidle");
    if (tracePath) await browser.stopTracing();
    const r = await page.evaluate(() => {
      const scripts = (performance.getEntriesByType("resource") as PerformanceResourceTiming[]).filter(
        (e) => e.initiatorType === "script" || /\.js(\?|$)/.test(e.name),
      );
      return {
        charts: (window as unknown as { __chartReadyAt: number }).__chartReadyAt,
        encoded: scripts.reduce((s, e) => s + e.encodedBodySize, 0),
        files: scripts.length,
      };
    });
    return { charts_ms: Math.round(r.charts), js_gzip_kb: round(r.encoded / 1024, 1), js_files: r.files, encodings: [...encodings] };
  } finally {
    await context.close();
  }
}

/**
 * Each page of `paths` the same way: once the machine is quiet (cpu.ts settle), one warm-up visit
 * each (the server compiles nothing, but loads the route), then `runs` rounds of one visit each,
 * the order turning every round, so no page is always the first after a pause or after another.
 */
export async function measurePageSet<K extends string>(
  browser: Browser,
  baseUrl: string,
  cookies: Cookie[],
  paths: Record<K, string>,
  runs: number,
): Promise<Record<K, PageFigures>> {
  const keys = Object.keys(paths) as K[];
  const settled = await settle();
  for (const k of keys) await measureOnce(browser, baseUrl, cookies, paths[k]);
  const all = Object.fromEntries(keys.map((k) => [k, [] as PageRun[]])) as Record<K, PageRun[]>;
  for (let i = 0; i < runs; i++) {
    for (let j = 0; j < keys.length; j++) {
      const k = keys[(i + j) % keys.length]!;
      all[k].push(await measureOnce(browser, baseUrl, cookies, paths[k]));
    }
  }
  // one more visit each, traced, when profiling (not counted in the figures)
  const dir = process.env.BENCH_PROFILE_DIR;
  if (dir)
    for (const k of keys)
      await measureOnce(browser, baseUrl, cookies, paths[k], `${dir}/trace${paths[k] === "/" ? "-today" : paths[k].replaceAll("/", "-")}.json`);
  return Object.fromEntries(
    keys.map((k) => [
      k,
      { settled, charts_ms: median(all[k].map((r) => r.charts_ms)), js_gzip_kb: Math.max(...all[k].map((r) => r.js_gzip_kb)), runs: all[k] },
    ]),
  ) as Record<K, PageFigures>;
}
