import os from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";
import { applySuiteEnv } from "./test/suite-env.mjs";
import type { InlineConfig } from "vitest/node";
import { baseTest, resolve } from "./test/vitest-base";

// One clock and one seed for the whole run, inherited by every test process (lib/test/suite-env.mjs).
applySuiteEnv();

// The integration suites that run twice, once on each database: on SQLite (every test file does)
// and again on PostgreSQL (the "postgres" project: lib/test/setup-postgres.ts gives each file a
// database of its own on the run's private server). Sync, webhooks (one that commits late is
// still applied), the import, the dashboard's routes and exports, one person's data kept from
// another (read API, "delete my data"), the household's admission and sign-in (both identity
// providers' flows, invites, disconnect), the alert deliveries' claims under concurrency, the
// explained signals (imported, read, alerted, exported), report share links (views counted, revoked, expired), the
// cycle's own entries and settings (logged once, only the person's own; exported and imported), the
// cycle's privacy (no cycle to a reader without the kind; phases only while tracking), the share
// links' gate (GET and HEAD only, every view counted), the upgrade suite (each database's own
// fixtures, made by older versions), and the Home Assistant publisher (on PostgreSQL the changes
// reach it by LISTEN, from any process).
const BOTH_DATABASES = [
  "lib/sync/backfill.test.ts",
  "lib/sync/incremental.test.ts",
  "lib/sync/everything.test.ts",
  "lib/sync/series-crash.test.ts",
  "lib/sync/scheduler.test.ts",
  "lib/sync/status.test.ts",
  "lib/sync/deletes.test.ts",
  "lib/import/ringside.test.ts",
  "lib/import/vendor-import.test.ts",
  "lib/import/refusals.test.ts",
  "lib/import/bounds.test.ts",
  "lib/sync/webhooks.test.ts",
  "lib/sync/webhook-throughput.test.ts",
  "lib/sync/webhook-watermark.test.ts",
  "app/api/v1/v1-routes.test.ts",
  "app/api/dashboard-routes.test.ts",
  "lib/services/auth/adapter.test.ts",
  "lib/ring/tokens.test.ts",
  "lib/auth/sign-in-flow.test.ts",
  "lib/auth/sign-in-newer-provider.test.ts",
  "lib/db/queries/alerts-claim.test.ts",
  "lib/signals/signals.integration.test.ts",
  "lib/signals/sleep-need.integration.test.ts",
  "app/api/v1/report/report.test.ts",
  "lib/services/report-links.test.ts",
  "lib/services/cycle-entries.test.ts",
  "lib/import/cycle-export.test.ts",
  "e2e/upgrade/upgrade.test.ts",
  "app/api/v1/cycle-privacy.test.ts",
  "app/(share)/r/share-link-routes.test.ts",
  "lib/sync/cycle-phases.test.ts",
  "lib/services/home-assistant-publisher.test.ts",
  "lib/db/data-changes.test.ts",
  "lib/db/queries/daily-columns.test.ts",
  "lib/sync/housekeeping.test.ts",
];

// Unit, integration and conformance tests. Run from the repo root:
//   npx vitest run --config lib/vitest.config.ts                      (both projects)
//   npx vitest run --config lib/vitest.config.ts --project postgres   (the PostgreSQL runs only)
const shared: InlineConfig = {
  ...baseTest,
  exclude: ["node_modules/**", "lib/generated/**", "e2e/**/*.spec.ts", "e2e/chaos/**", "e2e/.build/**", "e2e/bench/.build/**", ".next/**"],
  // one private PostgreSQL server per project for the whole run (lib/test/postgres-global-setup.ts)
  globalSetup: [path.resolve("lib/test/postgres-global-setup.ts")],
  // a deadline stops a hang, it does not time the test: npm test runs this runner at a lower CPU
  // priority beside the browser specs (e2e/run-all.mjs), where a 5-year sync takes several times
  // its time alone (the slowest took half of 120 s in a full run, so 240 s)
  testTimeout: 240_000,
  hookTimeout: 240_000,
  env: { NODE_ENV: "test", LOG_LEVEL: "warn" },
};

export default defineConfig({
  test: {
    // files side by side (each has its own SQLite file, PostgreSQL database and ports): two at
    // least, where Vitest would take one on a 2-core machine (cores − 1), which left the runner a
    // single process's share of the CPU beside the browser and fault suites
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    projects: [
      {
        resolve,
        test: { ...shared, name: "sqlite", include: ["{lib,components,app,e2e,prisma}/**/*.test.{ts,tsx}"], setupFiles: [path.resolve("lib/test/setup.ts")] },
      },
      {
        resolve,
        test: {
          ...shared,
          name: "postgres",
          include: BOTH_DATABASES,
          setupFiles: [path.resolve("lib/test/setup.ts"), path.resolve("lib/test/setup-postgres.ts")],
        },
      },
    ],
  },
});
