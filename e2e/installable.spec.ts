// Installable: Chromium finds the web app manifest, parses it with no errors and reports the
// app installable; every icon loads; /favicon.ico and the Apple touch icon exist; no service
// worker caches anything; and no page a person visits logs a console error or gets a 404.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type Page, type Response } from "@playwright/test";
import { connectRing, expect, test } from "./fixtures";
import { E2E_APP_URL } from "./support/ports";

function pngSize(body: Buffer): { width: number; height: number } {
  expect(body.subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
  return { width: body.readUInt32BE(16), height: body.readUInt32BE(20) };
}

/** Records console errors and failed (4xx/5xx) answers of a page. */
function watch(page: Page) {
  const problems: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(`console: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  page.on("response", (r: Response) => {
    if (r.status() >= 400) problems.push(`${r.status()} ${r.url()}`);
  });
  return problems;
}

test("[PWA] the manifest parses, every icon loads, and Chromium reports the app installable", async ({ page, request }) => {
  const problems = watch(page);
  await page.goto("/sign-in");
  const href = await page.locator('link[rel="manifest"]').getAttribute("href");
  expect(href).toBe("/manifest.webmanifest");

  const res = await request.get(href!);
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toMatch(/application\/manifest\+json/);
  const manifest = (await res.json()) as {
    name: string;
    short_name: string;
    start_url: string;
    display: string;
    theme_color: string;
    background_color: string;
    icons: Array<{ src: string; sizes: string; type: string; purpose?: string }>;
  };
  expect(manifest).toMatchObject({ name: "Ringside", short_name: "Ringside", start_url: "/", display: "standalone" });
  expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
  for (const want of ["192x192", "512x512"]) {
    expect(manifest.icons.some((i) => i.sizes === want && (i.purpose ?? "any") === "any")).toBe(true);
    expect(manifest.icons.some((i) => i.sizes === want && i.purpose === "maskable")).toBe(true);
  }
  for (const icon of manifest.icons) {
    const r = await request.get(icon.src);
    expect(r.status(), icon.src).toBe(200);
    expect(r.headers()["content-type"]).toBe("image/png");
    const [w, h] = icon.sizes.split("x").map(Number);
    expect(pngSize(await r.body())).toEqual({ width: w, height: h });
  }

  // theme colours for light and dark
  const themes = await page.locator('meta[name="theme-color"]').evaluateAll((els) => els.map((e) => [e.getAttribute("media"), e.getAttribute("content")]));
  expect(themes).toEqual([
    ["(prefers-color-scheme: light)", expect.stringMatching(/^#/)],
    ["(prefers-color-scheme: dark)", expect.stringMatching(/^#/)],
  ]);

  // favicon and Apple touch icon
  const favicon = await request.get("/favicon.ico");
  expect(favicon.status()).toBe(200);
  expect((await favicon.body()).subarray(0, 4).toString("hex")).toBe("00000100");
  const apple = await page.locator('link[rel="apple-touch-icon"]').getAttribute("href");
  expect(apple).toMatch(/^\/apple-icon\.png/);
  const appleRes = await request.get(apple!);
  expect(appleRes.status()).toBe(200);
  expect(pngSize(await appleRes.body())).toEqual({ width: 180, height: 180 });

  // what Chromium itself says
  const cdp = await page.context().newCDPSession(page);
  const parsed = (await cdp.send("Page.getAppManifest")) as { url: string; errors: unknown[] };
  expect(parsed.url).toMatch(/\/manifest\.webmanifest$/);
  expect(parsed.errors).toEqual([]);

  // Installability is not judged in an incognito-like context (Playwright's): ask a browser with a profile.
  const launch = test.info().project.use.launchOptions ?? {};
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "ringside-pwa-"));
  const browser = await chromium.launchPersistentContext(profile, { headless: true, executablePath: launch.executablePath, args: launch.args });
  try {
    const p = await browser.newPage();
    await p.goto(`${E2E_APP_URL}/sign-in`);
    const session = await browser.newCDPSession(p);
    await expect
      .poll(async () => ((await session.send("Page.getInstallabilityErrors")) as { installabilityErrors: Array<{ errorId: string }> }).installabilityErrors, {
        timeout: 60_000,
      })
      .toEqual([]);
  } finally {
    await browser.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }

  // no service worker: nothing of a person's data is cached on the device
  expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length)).toBe(0);
  expect(problems).toEqual([]);
});

test("[PWA] no page logs a console error or a 404", async ({ page }) => {
  await connectRing(page, {}); // through the emulator's consent page, which is not Ringside's
  const problems = watch(page);
  for (const path of ["/", "/trends", "/workouts", "/calendar", "/correlations", "/notes", "/sync", "/settings"]) {
    await page.goto(path);
    await page.waitForLoadState("networkidle");
  }
  // the browser's own requests for icons (tab icon, touch icon) are among the answers watched
  expect(problems).toEqual([]);
});
