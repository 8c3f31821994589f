#!/usr/bin/env node
// `npm test`: every test runner, then one closing line with the totals of all of them:
// `N passed, M failed`.
//
//   hygiene     TypeScript, ESLint, knip, Prettier (one test each)
//   vitest      unit, integration (real emulator, SQLite and a private PostgreSQL), conformance
//   build       the production build, once, into a folder of its own (RINGSIDE_BUILD_DIR)
//   playwright  the UI in Debian's Chromium, against that build
//   chaos       the fault-and-abuse suite against that build (quick form; --chaos: full form)
//
// The runners run side by side (hygiene and vitest beside the build; playwright and chaos
// once it is done), each in a process group of its own with its output in
// e2e/test-results/logs/<runner>.log, on ports chosen now. One clock and one seed hold for the
// whole run (lib/test/suite-env.mjs), printed first and last so that a red run can be replayed.
// Ctrl-C or SIGTERM stops every process the run started.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { findPostgresBinDir } from "../lib/test/postgres-server.mjs";
import { findMosquitto } from "../lib/test/mosquitto.mjs";
import { applySuiteEnv, replayLine } from "../lib/test/suite-env.mjs";
import { exited, freePorts, spawnGroup, stopGroupsOnExit } from "../lib/test/processes.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.chdir(root);
const args = process.argv.slice(2);
const withChaos = args.includes("--chaos");
const bin = (/** @type {string} */ name) => path.join(root, "node_modules/.bin", name);
const results = path.join(root, "e2e/test-results");
const logs = path.join(results, "logs");
const started = Date.now();
stopGroupsOnExit();

// 1. What the runners need: a browser, a PostgreSQL server, poppler and an MQTT broker, never skipped silently.
const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
const hasApt = fs.existsSync("/usr/bin/apt-get");
/** @param {string[]} pkgs */
async function aptInstall(pkgs) {
  await exited(spawnGroup("apt-get", ["update", "-qq"], { stdio: "inherit" }));
  await exited(spawnGroup("apt-get", ["install", "-y", "-qq", ...pkgs], { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } }));
}
const findChromium = () => [process.env.CHROMIUM_PATH, "/usr/bin/chromium"].find((c) => c && fs.existsSync(c)) ?? null;
let chromium = findChromium();
if (!chromium && isRoot && hasApt) {
  console.log("Chromium not found: installing Debian's chromium package (apt-get install -y chromium) for the UI tests.");
  await aptInstall(["chromium"]);
  chromium = findChromium();
}
if (!chromium) {
  console.error("No Chromium for the UI tests: install Debian's package (sudo apt-get install -y chromium) or set CHROMIUM_PATH to a Chromium binary.");
  process.exit(1);
}
if (!findPostgresBinDir() && isRoot && hasApt) {
  console.log("PostgreSQL not found: installing Debian's postgresql package (apt-get install -y postgresql) for the PostgreSQL suites.");
  await aptInstall(["postgresql"]);
}
if (!findPostgresBinDir()) {
  console.error("No PostgreSQL for the PostgreSQL suites: install Debian's package (sudo apt-get install -y postgresql) or set PG_BIN_DIR to its bin folder.");
  process.exit(1);
}
// The report's PDF tests open each PDF with poppler's pdftoppm and read its text with pdftotext.
const hasPoppler = () => ["pdftotext", "pdftoppm"].every((b) => (process.env.PATH ?? "").split(":").some((d) => d && fs.existsSync(path.join(d, b))));
if (!hasPoppler() && isRoot && hasApt) {
  console.log("pdftotext/pdftoppm not found: installing Debian's poppler-utils package (apt-get install -y poppler-utils) for the report's PDF tests.");
  await aptInstall(["poppler-utils"]);
}
if (!hasPoppler()) {
  console.error("No pdftotext/pdftoppm for the report's PDF tests: install Debian's package (sudo apt-get install -y poppler-utils).");
  process.exit(1);
}
// The Home Assistant tests start a private MQTT broker (lib/test/mosquitto.mjs).
if (!findMosquitto() && isRoot && hasApt) {
  console.log("mosquitto not found: installing Debian's mosquitto package (apt-get install -y mosquitto) for the Home Assistant tests.");
  await aptInstall(["mosquitto"]);
}
if (!findMosquitto()) {
  console.error("No MQTT broker for the Home Assistant tests: install Debian's package (sudo apt-get install -y mosquitto) or set MOSQUITTO_BIN.");
  process.exit(1);
}

// 2. The run's clock, seed, build folder and ports, inherited by every runner and server.
applySuiteEnv();
const buildDir = process.env.RINGSIDE_BUILD_DIR || "e2e/.build";
const [e2eApp, e2eEmulator, restored, other, fresh, demoApp, demoEmulator, smtp, mqtt, chaosApp, chaosEmulator] = await freePorts(11);
/** @type {Record<string, string>} */
const runEnv = {
  CHROMIUM_PATH: chromium,
  NEXT_TELEMETRY_DISABLED: "1",
  RINGSIDE_BUILD_DIR: buildDir,
  E2E_APP_PORT: String(e2eApp),
  E2E_EMULATOR_PORT: String(e2eEmulator),
  E2E_RESTORED_PORT: String(restored),
  E2E_OTHER_PORT: String(other),
  E2E_FRESH_PORT: String(fresh),
  E2E_DEMO_APP_PORT: String(demoApp),
  E2E_DEMO_EMULATOR_PORT: String(demoEmulator),
  E2E_SMTP_PORT: String(smtp),
  E2E_MQTT_PORT: String(mqtt),
  CHAOS_APP_PORT: String(chaosApp),
  CHAOS_EMULATOR_PORT: String(chaosEmulator),
  CHAOS_FULL: withChaos ? "1" : "",
};
Object.assign(process.env, runEnv);
console.log(`Test run on Node.js ${process.version}: ${replayLine()}`);
fs.rmSync(results, { recursive: true, force: true });
fs.mkdirSync(logs, { recursive: true });

/** @typedef {{ passed: number, failed: number, skipped: number, seconds: number, failures: string[] }} Tally */
/** @type {Record<string, Tally>} */
const tallies = {};
const tally = () => ({ passed: 0, failed: 0, skipped: 0, seconds: 0, failures: /** @type {string[]} */ ([]) });

// The runners off the run's longest path (the build, then the browser specs) yield to it: they
// run at a lower CPU priority, so the browser specs are not stretched by every other runner
// while those fill the cores the path leaves (one runner alone on the machine at the end wasted
// a third of it). Each runner is a session of its own, and Linux shares the CPU between
// sessions first (autogroups), so the priority is set on the runner's session (its autogroup's
// nice value) and on its process (where there are no autogroups). Nothing in them is timed: a
// test waits for what it needs (lib/test/wait.ts), and a test's deadline only stops a hang.
const YIELDING = new Set(["hygiene", "vitest"]);
const YIELD_NICE = 3;
/** @param {number | undefined} pid */
function yieldCpu(pid) {
  if (!pid) return;
  try {
    fs.writeFileSync(`/proc/${pid}/autogroup`, String(YIELD_NICE));
  } catch {
    // no autogroups (another kernel, another system): the process's own priority below
  }
  try {
    os.setPriority(pid, YIELD_NICE);
  } catch {
    // not allowed here: the runner keeps its priority
  }
}

/**
 * Runs one command in its own process group, its output into the runner's log.
 * @param {string} runner
 * @param {string} cmd
 * @param {string[]} cmdArgs
 * @param {Record<string, string>} [env]
 */
async function runLogged(runner, cmd, cmdArgs, env = {}) {
  const out = fs.openSync(path.join(logs, `${runner}.log`), "a");
  const child = spawnGroup(cmd, cmdArgs, { stdio: ["ignore", out, out], env: { ...process.env, ...env } });
  if (YIELDING.has(runner)) yieldCpu(child.pid);
  const code = await exited(child);
  fs.closeSync(out);
  return code;
}

/** The last lines of a runner's log (for a failure that wrote no report). */
function tail(runner, lines = 40) {
  try {
    return fs
      .readFileSync(path.join(logs, `${runner}.log`), "utf8")
      .split("\n")
      .slice(-lines)
      .join("\n");
  } catch {
    return "";
  }
}

/**
 * A Vitest JSON report's counts and failures.
 * @param {string} file
 * @param {Tally} t
 */
function readVitest(file, t) {
  const v = JSON.parse(fs.readFileSync(file, "utf8"));
  t.passed += v.numPassedTests ?? 0;
  t.failed += v.numFailedTests ?? 0;
  t.skipped += (v.numPendingTests ?? 0) + (v.numTodoTests ?? 0);
  for (const f of v.testResults ?? []) {
    for (const a of f.assertionResults ?? [])
      if (a.status === "failed")
        t.failures.push(
          `${path.relative(root, f.name)} › ${a.fullName ?? a.title}\n    ${String(a.failureMessages?.[0] ?? "")
            .split("\n")
            .slice(0, 6)
            .join("\n    ")}`,
        );
    if (f.status === "failed" && !(f.assertionResults ?? []).some((/** @type {{status: string}} */ a) => a.status === "failed")) {
      // a file that failed as a whole (it did not load, a hook threw): one failure
      t.failed += 1;
      t.failures.push(
        `${path.relative(root, f.name)}: ${String(f.message ?? "failed to run")
          .split("\n")
          .slice(0, 6)
          .join("\n    ")}`,
      );
    }
  }
}

async function hygiene() {
  const t = (tallies.hygiene = tally());
  const t0 = Date.now();
  // tsc is incremental (tsconfig.json), and ESLint and Prettier keep a cache of their verdicts in
  // node_modules/.cache keyed by each file's content and the tool's configuration: a run in the same
  // clone checks again only the files that changed (ESLint 2 CPU-s instead of 39, Prettier 2 instead
  // of 20); a fresh clone checks them all
  const cache = (/** @type {string} */ tool) => ["--cache", "--cache-strategy", "content", "--cache-location", path.join(root, "node_modules/.cache", tool)];
  for (const [name, cmd, cmdArgs] of /** @type {Array<[string, string, string[]]>} */ ([
    ["tsc --noEmit", bin("tsc"), ["--noEmit", "-p", "."]],
    ["eslint", bin("eslint"), [...cache("eslint/"), "."]],
    ["knip", bin("knip"), []],
    ["prettier --check", bin("prettier"), ["--check", "--log-level", "warn", ...cache("prettier/.prettier-cache"), "."]],
  ])) {
    if ((await runLogged("hygiene", cmd, cmdArgs)) === 0) t.passed += 1;
    else {
      t.failed += 1;
      t.failures.push(`${name} failed:\n${tail("hygiene", 30)}`);
    }
  }
  t.seconds = (Date.now() - t0) / 1000;
}

/**
 * @param {string} runner
 * @param {string} config
 * @param {string[]} extra
 */
async function vitest(runner, config, extra = []) {
  const t = (tallies[runner] = tally());
  const t0 = Date.now();
  const json = path.join(results, `${runner}.json`);
  await runLogged(runner, bin("vitest"), ["run", "--config", config, "--reporter=default", "--reporter=json", `--outputFile=${json}`, ...extra]);
  try {
    readVitest(json, t);
  } catch {
    t.failed += 1;
    t.failures.push(`${runner} wrote no results:\n${tail(runner)}`);
  }
  // an error no test caught (an 'error' event nobody listened to) fails the run too: in the
  // server it would have stopped the process
  const log = fs.readFileSync(path.join(logs, `${runner}.log`), "utf8");
  const uncaught = /Vitest caught (\d+) unhandled errors?/.exec(log);
  if (uncaught) {
    t.failed += 1;
    const origin = /This error originated in "(?:\x1b\[[\d;]*m)*([^"\x1b]+)/.exec(log)?.[1] ?? "see the log";
    t.failures.push(`${runner}: ${uncaught[1]} unhandled errors (${origin})`);
  }
  t.seconds = (Date.now() - t0) / 1000;
}

async function build() {
  const t = (tallies.build = tally());
  const t0 = Date.now();
  fs.rmSync(path.join(root, buildDir), { recursive: true, force: true });
  // the suite's build: no type check (the hygiene runner's tsc does it), no build cache (next.config.mjs)
  const code = await runLogged("build", bin("next"), ["build"], { NODE_ENV: "production", RINGSIDE_TEST_BUILD: "1" });
  t.seconds = (Date.now() - t0) / 1000;
  if (code === 0) return true;
  t.failed += 1;
  t.failures.push(`next build failed: the UI and fault suites cannot run:\n${tail("build")}`);
  return false;
}

async function playwright() {
  const t = (tallies.playwright = tally());
  const t0 = Date.now();
  const json = path.join(results, "playwright.json");
  await runLogged("playwright", bin("playwright"), ["test", "-c", "e2e"], { PLAYWRIGHT_JSON_OUTPUT_NAME: json });
  try {
    const p = JSON.parse(fs.readFileSync(json, "utf8"));
    t.passed += (p.stats?.expected ?? 0) + (p.stats?.flaky ?? 0);
    t.failed += p.stats?.unexpected ?? 0;
    t.skipped += p.stats?.skipped ?? 0;
    /** @param {any} suite @param {string[]} trail */
    const walk = (suite, trail) => {
      for (const s of suite.suites ?? []) walk(s, [...trail, s.title]);
      for (const spec of suite.specs ?? [])
        for (const test of spec.tests ?? [])
          if (test.status === "unexpected") {
            const browser = [...(test.annotations ?? []), ...(test.results?.at(-1)?.annotations ?? [])].find((a) => a.type === "browser")?.description;
            const lines = [
              ...String(test.results?.at(-1)?.error?.message ?? "")
                .split("\n")
                .slice(0, 6),
              ...(browser ? ["in the browser:", ...browser.split("\n").slice(0, 8)] : []),
            ];
            t.failures.push(`${[...trail, spec.title].filter(Boolean).join(" › ")}\n    ${lines.join("\n    ")}`);
          }
    };
    walk(p, []);
    if ((p.errors ?? []).length > 0 && !(p.stats?.unexpected > 0)) {
      t.failed += 1;
      t.failures.push(
        `Playwright: ${String(p.errors[0]?.message ?? "error")
          .split("\n")
          .slice(0, 8)
          .join("\n    ")}`,
      );
    }
  } catch {
    t.failed += 1;
    t.failures.push(`Playwright wrote no results:\n${tail("playwright")}`);
  }
  t.seconds = (Date.now() - t0) / 1000;
}

// How busy the machine was (all its cores, whatever ran on them), every 5 s into
// logs/cpu.log and on average in the summary: a slow run on an idle machine is the suite's
// own waiting; on a busy one, its work or a neighbour's.
/** @returns {{ busy: number, total: number } | null} */
function cpuTicks() {
  try {
    const f = fs.readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
    const idle = (f[3] ?? 0) + (f[4] ?? 0);
    const total = f.reduce((a, b) => a + b, 0);
    return { busy: total - idle, total };
  } catch {
    return null;
  }
}
const cpuStart = cpuTicks();
let cpuLast = cpuStart;
const cpuLog = path.join(logs, "cpu.log");
fs.writeFileSync(cpuLog, "seconds\tbusy %\n");
const cpuTimer = setInterval(() => {
  const now = cpuTicks();
  if (!now || !cpuLast || now.total === cpuLast.total) return;
  fs.appendFileSync(cpuLog, `${Math.round((Date.now() - started) / 1000)}\t${Math.round((100 * (now.busy - cpuLast.busy)) / (now.total - cpuLast.total))}\n`);
  cpuLast = now;
}, 5_000);
cpuTimer.unref();

const lanes = [
  hygiene(),
  vitest("vitest", "lib/vitest.config.ts"),
  build().then((ok) => (ok ? Promise.all([playwright(), vitest("chaos", "e2e/chaos/vitest.config.ts")]) : undefined)),
];
await Promise.all(lanes);

// 3. The totals: each runner's line, every failure, the replay line, then the closing line.
const totals = { passed: 0, failed: 0, skipped: 0 };
console.log("");
for (const [runner, t] of Object.entries(tallies)) {
  totals.passed += t.passed;
  totals.failed += t.failed;
  totals.skipped += t.skipped;
  console.log(
    `${runner.padEnd(11)} ${String(t.passed).padStart(5)} passed, ${t.failed} failed${t.skipped ? `, ${t.skipped} skipped` : ""}  (${Math.round(t.seconds)} s; log e2e/test-results/logs/${runner}.log)`,
  );
}
const failures = Object.entries(tallies).flatMap(([runner, t]) => t.failures.map((f) => `[${runner}] ${f}`));
if (failures.length > 0) {
  console.log("\nFailed:");
  for (const f of failures) console.log(`- ${f}`);
  console.log(`\nThis run: ${replayLine()}`);
}
const cpuEnd = cpuTicks();
const busy = cpuStart && cpuEnd && cpuEnd.total > cpuStart.total ? Math.round((100 * (cpuEnd.busy - cpuStart.busy)) / (cpuEnd.total - cpuStart.total)) : null;
console.log(
  `\nWhole run: ${Math.round((Date.now() - started) / 1000)} s on Node.js ${process.version}${busy === null ? "" : `; the machine's ${os.availableParallelism()} cores were ${busy}% busy (e2e/test-results/logs/cpu.log)`}.`,
);
console.log(`${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ""}`);
process.exit(totals.failed > 0 ? 1 : 0);
