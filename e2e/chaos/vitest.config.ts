import path from "node:path";
import { defineConfig } from "vitest/config";
import { freePortsSync } from "../../lib/test/processes.mjs";
import { applySuiteEnv } from "../../lib/test/suite-env.mjs";
import { BaseSequencer, type InlineConfig, type TestSpecification } from "vitest/node";
import { baseTest, resolve } from "../../lib/test/vitest-base";

// One clock and one seed for the whole run, inherited by every test process (lib/test/suite-env.mjs).
applySuiteEnv();
// The build the cases run (npm test makes it once; alone: RINGSIDE_BUILD_DIR=e2e/.build npm run build).
process.env.RINGSIDE_BUILD_DIR ||= "e2e/.build";
// The suite's own ports, chosen now unless npm test chose them (its test processes inherit them).
if (!process.env.CHAOS_APP_PORT || !process.env.CHAOS_EMULATOR_PORT) {
  const [app, emulator] = freePortsSync(2);
  process.env.CHAOS_APP_PORT = String(app);
  process.env.CHAOS_EMULATOR_PORT = String(emulator);
}

/** Files in name order, the secrets case last: it scans every log line the others captured. */
class ChaosSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const last = (f: TestSpecification) => (f.moduleId.endsWith("/secrets.test.ts") ? 1 : 0);
    return [...files].sort((a, b) => last(a) - last(b) || a.moduleId.localeCompare(b.moduleId));
  }
}

// The fault-and-abuse suite (e2e/chaos/*.test.ts). Quick form inside `npm test`; full form with
// CHAOS_FULL=1 (`npm run test:chaos`). Files run one after another: several of them start the
// production build on the suite's own ports (chosen at run time).
//   npx vitest run --config e2e/chaos/vitest.config.ts
//   CHAOS_FULL=1 npx vitest run --config e2e/chaos/vitest.config.ts
const full = process.env.CHAOS_FULL === "1";

const shared: InlineConfig = {
  ...baseTest,
  testTimeout: full ? 600_000 : 120_000,
  hookTimeout: 240_000,
  env: { NODE_ENV: "test", LOG_LEVEL: "debug" },
};

// Two projects, one file at a time across both: every case on SQLite ("chaos"), and the token
// race and the deletes in flight again on PostgreSQL ("chaos-postgres": each file a migrated
// database of its own on a private server, its reader and deleter processes on the same database).
export default defineConfig({
  test: {
    fileParallelism: false,
    maxWorkers: 1,
    sequence: { sequencer: ChaosSequencer },
    projects: [
      {
        resolve,
        test: {
          ...shared,
          name: "chaos",
          include: ["e2e/chaos/**/*.test.ts"],
          setupFiles: [path.resolve("lib/test/setup.ts"), path.resolve("e2e/chaos/support/setup.ts")],
          globalSetup: [path.resolve("e2e/chaos/support/global-setup.ts")],
        },
      },
      {
        resolve,
        test: {
          ...shared,
          name: "chaos-postgres",
          include: ["e2e/chaos/token-race.test.ts", "e2e/chaos/delete-race.test.ts"],
          setupFiles: [path.resolve("lib/test/setup.ts"), path.resolve("lib/test/setup-postgres.ts"), path.resolve("e2e/chaos/support/setup.ts")],
          globalSetup: [path.resolve("e2e/chaos/support/global-setup.ts"), path.resolve("lib/test/postgres-global-setup.ts")],
        },
      },
    ],
  },
});
