// @ts-check
// The test suite's one "now" and one seed, and how they reach every process it starts.
//
// `npm test` (e2e/run-all.mjs), the Vitest and Playwright configurations and the bench call
// `applySuiteEnv()` first. It pins the clock of every process the run starts (the app's
// RINGSIDE_NOW, the emulator's RING_EMULATOR_NOW, and the tests' own lib/clock.ts) to one
// instant, anchored once (`<instant>@<epoch ms>`), so all of them read the same time to the
// millisecond and the same "today" whatever the machine's clock says; and it fixes the
// emulator's seed. A run is replayed exactly with the two values it prints:
//   RINGSIDE_TEST_NOW=2026-03-15T12:00:00.000Z RING_EMULATOR_SEED=… npm test

/** The suite's default instant: midday UTC, so every time zone's "today" is one date all run. */
export const DEFAULT_TEST_NOW = "2026-03-15T12:00:00.000Z";
/** The emulator's default seed (lib/emulator/config.ts DEFAULT_SEED). */
export const DEFAULT_TEST_SEED = "ringside-emulator-seed-1";

/**
 * Fills in the suite's clock and seed where the environment does not set them, and returns
 * what the run uses. `RINGSIDE_TEST_NOW` chooses another instant; an existing `RINGSIDE_NOW`
 * (a parent run's anchored value) is kept, so nested runners agree.
 * @param {Record<string, string | undefined>} env
 * @param {number} realNow
 */
export function applySuiteEnv(env = process.env, realNow = Date.now()) {
  if (!env.RINGSIDE_NOW) {
    const wanted = env.RINGSIDE_TEST_NOW?.trim() || DEFAULT_TEST_NOW;
    const at = Date.parse(wanted);
    if (Number.isNaN(at)) throw new Error(`RINGSIDE_TEST_NOW must be an ISO instant such as ${DEFAULT_TEST_NOW} (got "${wanted}")`);
    env.RINGSIDE_NOW = `${new Date(at).toISOString()}@${realNow}`;
  }
  env.RING_EMULATOR_NOW ||= env.RINGSIDE_NOW;
  env.RING_EMULATOR_SEED ||= DEFAULT_TEST_SEED;
  return { now: env.RINGSIDE_NOW, seed: env.RING_EMULATOR_SEED, today: suiteToday(env) };
}

/**
 * The UTC date of the suite's instant when the run started ("today" of the emulator and of
 * the app's server-side code).
 * @param {Record<string, string | undefined>} env
 */
export function suiteToday(env = process.env) {
  const instant = (env.RINGSIDE_NOW ?? DEFAULT_TEST_NOW).split("@")[0] ?? DEFAULT_TEST_NOW;
  return new Date(Date.parse(instant)).toISOString().slice(0, 10);
}

/**
 * One line that replays this run's data and days exactly.
 * @param {Record<string, string | undefined>} env
 */
export function replayLine(env = process.env) {
  const instant = (env.RINGSIDE_NOW ?? DEFAULT_TEST_NOW).split("@")[0];
  const seed = JSON.stringify(env.RING_EMULATOR_SEED ?? DEFAULT_TEST_SEED);
  return `seed ${seed}, now ${instant} (today ${suiteToday(env)}); replay: RINGSIDE_TEST_NOW=${instant} RING_EMULATOR_SEED=${seed} npm test`;
}

/**
 * The settings an emulator started inside a test process takes from the run: its clock
 * (pinned like every other process of the run) and its seed.
 * @param {Record<string, string | undefined>} env
 * @returns {{ now?: string, seed?: string }}
 */
export function suiteEmulatorConfig(env = process.env) {
  return { ...(env.RING_EMULATOR_NOW ? { now: env.RING_EMULATOR_NOW } : {}), ...(env.RING_EMULATOR_SEED ? { seed: env.RING_EMULATOR_SEED } : {}) };
}
