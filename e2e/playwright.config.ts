import { defineConfig, devices } from "@playwright/test";
import {
  E2E_APP_PORT,
  E2E_APP_URL,
  E2E_CLIENT,
  E2E_DATA_DIR,
  E2E_EMULATOR_PORT,
  E2E_EMULATOR_URL,
  E2E_MQTT_PORT,
  E2E_SMTP_PORT,
  E2E_TOKEN_KEY,
} from "./support/ports";

const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
// The build the suite runs: npm test makes it once (e2e/run-all.mjs); alone, make it first with
// `RINGSIDE_BUILD_DIR=e2e/.build npm run build`.
process.env.RINGSIDE_BUILD_DIR ||= "e2e/.build";
const isCI = !!process.env.CI;
/** The longest an assertion or an action waits: a page's hydration under the full run's load, with room. */
const SLOW_PAGE_MS = 45_000;

// Runs against the built app (`next build` first; `npm test` does it) and the ring emulator,
// each on its own port. Specs live in e2e/*.spec.ts.
export default defineConfig({
  testDir: ".",
  testMatch: /.*\.spec\.ts$/,
  testIgnore: ["bench/**", "chaos/**"],
  // its own folder: Playwright empties it at start, and the other runners' reports sit beside it
  outputDir: "test-results/playwright",
  workers: 1,
  fullyParallel: false,
  timeout: 120_000,
  // a page hydrates in well under a second alone; on a 2-core machine running every runner at
  // once it took over 10 s once (Today's readiness mark) and over 20 s once (Settings' first
  // Save, its button disabled until hydration): an assertion or action that holds returns as
  // soon as it does, so the longer wait costs nothing but a failure's report
  expect: { timeout: SLOW_PAGE_MS },
  forbidOnly: isCI,
  // No retries, in CI either: a test that passes only on its second try is a failure to fix.
  retries: 0,
  reporter: [["list"], ["json", { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ?? "test-results/playwright.json" }]],
  globalSetup: "./global-setup.ts",
  use: {
    baseURL: E2E_APP_URL,
    headless: true,
    // a failed test keeps a screenshot, and its browser's script errors, failed requests and 5xx
    // answers (e2e/fixtures); PW_TRACE=1 also records each test's trace (actions, DOM snapshots,
    // network, console), kept when it fails. Recording is off by default: it cost a fifth of the
    // browser specs' CPU (the accessibility spec: 128 → 102 CPU-s, Chromium and the test worker),
    // which every passing run paid. The trace's screencast is left out even then: it had Chromium
    // encode a frame at every paint.
    trace: process.env.PW_TRACE === "1" ? { mode: "retain-on-failure", screenshots: false, snapshots: true, sources: true } : "off",
    screenshot: "only-on-failure",
    contextOptions: { reducedMotion: "reduce" },
    // an action that cannot happen (a disabled button) fails with its name, not at the test timeout
    actionTimeout: SLOW_PAGE_MS,
    launchOptions: {
      executablePath: chromium,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], channel: undefined } }],
  webServer: [
    {
      command: "exec node --import tsx lib/emulator/main.ts",
      cwd: "..",
      url: `${E2E_EMULATOR_URL}/_emulator/health`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: "ignore",
      stderr: "pipe",
      env: {
        // the emulator exits when Playwright's runner is gone, however it ended (lib/process.mjs)
        RINGSIDE_PARENT_PID: String(process.pid),
        RING_EMULATOR_PORT: String(E2E_EMULATOR_PORT),
        RING_EMULATOR_WEBHOOK_DELAY_MS: "200",
        RING_EMULATOR_WEBHOOK_RETRY_MS: "200",
        RING_EMULATOR_PAGE_SIZE: "30",
        RING_EMULATOR_HISTORY_DAYS: "120",
        RING_EMULATOR_CLIENTS: JSON.stringify([E2E_CLIENT]),
      },
    },
    {
      command: "exec node e2e/support/start-app.mjs",
      cwd: "..",
      url: `${E2E_APP_URL}/api/health`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: "ignore",
      stderr: "pipe",
      env: {
        // the app exits when Playwright's runner is gone, however it ended (lib/process.mjs)
        RINGSIDE_PARENT_PID: String(process.pid),
        NODE_ENV: "production",
        // By the end of a run this one server holds about 80 people (every test signs in its
        // own), far more than a home server's household: with the household's default old
        // generation (192 MB, lib/server/start.mjs) its garbage collector took 44% of its CPU
        // (a CPU profile over the dashboard, records, alerts and signals specs), and the
        // dashboard and records specs cost it 46 CPU-s against 14 with 256 MB
        NODE_OPTIONS: "--max-old-space-size=256",
        PORT: String(E2E_APP_PORT),
        DATA_DIR: E2E_DATA_DIR,
        DATABASE_URL: `file:./${E2E_DATA_DIR}/ringside.db`,
        AUTH_URL: E2E_APP_URL,
        AUTH_SECRET: "e2e-auth-secret-not-for-production-0123456789",
        TOKEN_ENCRYPTION_KEY: E2E_TOKEN_KEY,
        WEBHOOK_VERIFICATION_TOKEN: "e2e-webhook-verification-token",
        RING_API_BASE_URL: E2E_EMULATOR_URL,
        RING_CLIENT_ID: E2E_CLIENT.client_id,
        RING_CLIENT_SECRET: E2E_CLIENT.client_secret,
        PUBLIC_URL: E2E_APP_URL,
        SYNC_POLL_MINUTES: "60",
        // demo mode (the demo badge the dashboard spec checks); people are admitted by
        // ALLOWED_EMAILS; e2e/first-owner.spec.ts runs its own non-demo instance for the setup code
        RINGSIDE_DEMO: "1",
        ALLOWED_EMAILS: "*@allowed.example.test",
        // e-mail alerts go to the SMTP server e2e/alerts.spec.ts starts in the test process
        SMTP_HOST: "127.0.0.1",
        SMTP_PORT: String(E2E_SMTP_PORT),
        SMTP_SECURE: "none",
        SMTP_FROM: "Ringside <alerts@ringside.test>",
        // the alert receivers of e2e/alerts.spec.ts listen on this machine
        ALERT_ALLOWED_PRIVATE_HOSTS: "127.0.0.1",
        MQTT_URL: `mqtt://127.0.0.1:${E2E_MQTT_PORT}`,
        LOG_LEVEL: "warn",
        NEXT_TELEMETRY_DISABLED: "1",
      },
    },
  ],
});
