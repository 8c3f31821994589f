#!/usr/bin/env node
// `npm test`: the hygiene checks (TypeScript, ESLint, knip: one test each), then every test
// runner in order — Vitest (unit, integration, conformance; with a private PostgreSQL
// server), the production build, Playwright (UI, in Debian's Chromium) — then one closing
// line with the totals of all runners:
// `N passed, M failed`. The fault-and-abuse suite (e2e/chaos) runs in its
// quick form; `--chaos` runs its full form instead.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { findPostgresBinDir } from "../lib/test/postgres-server.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.chdir(root);
const args = process.argv.slice(2);
const withChaos = args.includes("--chaos");
const bin = (name) => path.join(root, "node_modules/.bin", name);
const totals = { passed: 0, failed: 0, skipped: 0 };

function run(cmd, cmdArgs, env = {}) {
  const r = spawnSync(cmd, cmdArgs, { stdio: "inherit", env: { ...process.env, ...env } });
  return r.status ?? 1;
}

function findChromium() {
  const candidates = [process.env.CHROMIUM_PATH, "/usr/bin/chromium"].filter(Boolean);
  for (const c of candidates) if (fs.existsSync(c)) return c;
  return null;
}

// 1. A browser for the UI tests: never skipped silently.
let chromium = findChromium();
if (!chromium) {
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  const hasApt = fs.existsSync("/usr/bin/apt-get");
  if (isRoot && hasApt) {
    console.log("Chromium not found: installing Debian's chromium package (apt-get install -y chromium) for the UI tests.");
    run("apt-get", ["update", "-qq"]);
    run("apt-get", ["install", "-y", "-qq", "chromium"], { DEBIAN_FRONTEND: "noninteractive" });
    chromium = findChromium();
  }
  if (!chromium) {
    console.error(
      "No Chromium for the UI tests: install Debian's package (sudo apt-get install -y chromium) or set CHROMIUM_PATH to a Chromium binary.",
    );
    process.exit(1);
  }
}

// 1b. A PostgreSQL server for the PostgreSQL suites (started by the Vitest run on a private
// port and data directory): never skipped silently either.
if (!findPostgresBinDir()) {
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (isRoot && fs.existsSync("/usr/bin/apt-get")) {
    console.log("PostgreSQL not found: installing Debian's postgresql package (apt-get install -y postgresql) for the PostgreSQL suites.");
    run("apt-get", ["update", "-qq"]);
    run("apt-get", ["install", "-y", "-qq", "postgresql"], { DEBIAN_FRONTEND: "noninteractive" });
  }
  if (!findPostgresBinDir()) {
    console.error("No PostgreSQL for the PostgreSQL suites: install Debian's package (sudo apt-get install -y postgresql) or set PG_BIN_DIR to its bin folder.");
    process.exit(1);
  }
}

// 2. Generated Prisma client (postinstall does it; cheap to be sure).
if (run(bin("prisma"), ["generate"]) !== 0) process.exit(1);

// 3. Hygiene: the type check, the linter and the unused-code check, each one test.
for (const [name, cmd, cmdArgs] of [
  ["tsc --noEmit", bin("tsc"), ["--noEmit", "-p", "."]],
  ["eslint", bin("eslint"), ["."]],
  ["knip", bin("knip"), []],
]) {
  const status = run(cmd, cmdArgs);
  if (status === 0) totals.passed += 1;
  else {
    console.error(`${name} failed (counted as one failure).`);
    totals.failed += 1;
  }
}

// 4. Vitest: unit, integration against the real emulator and SQLite, conformance.
const vitestJson = path.join(root, "e2e/test-results/vitest.json");
fs.mkdirSync(path.dirname(vitestJson), { recursive: true });
fs.rmSync(vitestJson, { force: true });
run(bin("vitest"), ["run", "--config", "lib/vitest.config.ts", "--reporter=default", "--reporter=json", `--outputFile=${vitestJson}`]);
try {
  const v = JSON.parse(fs.readFileSync(vitestJson, "utf8"));
  totals.passed += v.numPassedTests ?? 0;
  totals.failed += (v.numFailedTests ?? 0) + (v.numTotalTestSuites && v.success === false && !v.numFailedTests ? 1 : 0);
  totals.skipped += (v.numPendingTests ?? 0) + (v.numTodoTests ?? 0);
} catch {
  console.error("Vitest wrote no results: counted as one failure.");
  totals.failed += 1;
}

// 5. The production build the UI tests run against.
const buildStatus = run(bin("next"), ["build"], { NEXT_TELEMETRY_DISABLED: "1" });
if (buildStatus !== 0) {
  console.error("next build failed: the UI tests cannot run (counted as one failure).");
  totals.failed += 1;
} else {
  // 6. Playwright in Debian's Chromium.
  const pwJson = path.join(root, "e2e/test-results/results.json");
  fs.rmSync(pwJson, { force: true });
  run(bin("playwright"), ["test", "-c", "e2e"], { CHROMIUM_PATH: chromium });
  try {
    const p = JSON.parse(fs.readFileSync(pwJson, "utf8"));
    totals.passed += (p.stats?.expected ?? 0) + (p.stats?.flaky ?? 0);
    totals.failed += p.stats?.unexpected ?? 0;
    totals.skipped += p.stats?.skipped ?? 0;
    if ((p.errors ?? []).length > 0 && !(p.stats?.unexpected > 0)) totals.failed += 1;
  } catch {
    console.error("Playwright wrote no results: counted as one failure.");
    totals.failed += 1;
  }
}

// 7. The fault-and-abuse suite (e2e/chaos): the quick form always, the full form with --chaos.
{
  const chaosJson = path.join(root, "e2e/test-results/chaos.json");
  fs.rmSync(chaosJson, { force: true });
  run(bin("vitest"), ["run", "--config", "e2e/chaos/vitest.config.ts", "--reporter=default", "--reporter=json", `--outputFile=${chaosJson}`], {
    CHAOS_FULL: withChaos ? "1" : "",
  });
  try {
    const v = JSON.parse(fs.readFileSync(chaosJson, "utf8"));
    totals.passed += v.numPassedTests ?? 0;
    totals.failed += (v.numFailedTests ?? 0) + (v.success === false && !v.numFailedTests ? 1 : 0);
    totals.skipped += (v.numPendingTests ?? 0) + (v.numTodoTests ?? 0);
  } catch {
    console.error("The fault-and-abuse suite wrote no results: counted as one failure.");
    totals.failed += 1;
  }
}

console.log("");
console.log(`${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ""}`);
process.exit(totals.failed > 0 ? 1 : 0);
