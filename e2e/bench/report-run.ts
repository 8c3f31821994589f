// `npm run bench:report`: the report step of the benchmark on its own (e2e/bench/report-pdf.ts),
// against an emulator and the production build it starts (ports chosen at run time, each in a
// process group of its own; data in e2e/bench/.data-report): a person with five years of history
// connects through the real OAuth flow, the backfill is waited for, a quiet spell, then the 90-day
// and the year's report are downloaded. Writes the `report` figures into
// e2e/bench/results/latest.json and leaves the other figures as they are (the small box's
// figures come from `npm run bench`).
import fs from "node:fs";
import path from "node:path";
import { connectThroughOAuth, waitForBackfill } from "./backfill";
import { measureReport } from "./report-pdf";
import { checkTargets, formatTable, isBenchResult, type BenchResult } from "./report";
import { LATEST_RESULTS, readLatestResults, writeResultsFile } from "./results-file";
import { freePorts, stopGroupsOnExit } from "../../lib/test/processes.mjs";
import {
  benchAppEnv,
  benchEmulatorSettings,
  buildIsStale,
  runBenchMain,
  runBuild,
  startAppProcess,
  startEmulatorProcess,
  useBenchBuildDir,
  type Running,
} from "./servers";

const ROOT = process.cwd();
const DATA = path.join(ROOT, "e2e/bench/.data-report");
const HISTORY_DAYS = 1826;
const REST_WAIT_MS = 30_000;
const [APP_PORT, EMULATOR_PORT] = (await freePorts(2)) as [number, number];
useBenchBuildDir();
stopGroupsOnExit();
const APP_URL = `http://127.0.0.1:${APP_PORT}`;
const PUBLIC_APP_URL = `http://localhost:${APP_PORT}`;
const CLIENT = { client_id: "ringside-bench", client_secret: "ringside-bench-secret-0123456789", approved: true };
const log = (msg: string) => process.stdout.write(`[bench:report] ${msg}\n`);

async function post<T>(url: string, body: unknown): Promise<T> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`POST ${new URL(url).pathname} → ${res.status}`);
  return (await res.json()) as T;
}

async function main(): Promise<void> {
  let emulator: Running | null = null;
  let app: (Running & { serverPid: number }) | null = null;
  try {
    const stale = buildIsStale(ROOT);
    if (stale) {
      log(`building (${stale}) …`);
      runBuild(ROOT, path.join(DATA, "build.log"));
    }
    fs.mkdirSync(DATA, { recursive: true });
    emulator = await startEmulatorProcess(ROOT, benchEmulatorSettings(EMULATOR_PORT, HISTORY_DAYS, { RING_EMULATOR_WEBHOOK_DELAY_MS: "1000" }));
    await post(`${emulator.url}/_emulator/clients`, { ...CLIENT, redirect_uris: [`${PUBLIC_APP_URL}/api/auth/callback/ring`] });
    const dataDir = path.join(DATA, "app");
    app = await startAppProcess(ROOT, { port: APP_PORT, dataDir, env: benchAppEnv({ port: APP_PORT, dataDir, emulatorUrl: emulator.url, client: CLIENT }) });
    log(`app on ${app.url} (server pid ${app.serverPid})`);

    const email = `bench-report-${Date.now().toString(36)}@bench.example.test`;
    const user = await post<{ user_id: string; last_day: string }>(`${emulator.url}/_emulator/users`, { email, history_days: HISTORY_DAYS });
    const connected = await connectThroughOAuth(APP_URL, email);
    await waitForBackfill(path.join(dataDir, "ringside.db"), email, { timeoutMs: 300_000, pollMs: 100 });
    log(`five years backfilled; ${REST_WAIT_MS / 1000} s quiet …`);
    await new Promise((r) => setTimeout(r, REST_WAIT_MS));
    const report = await measureReport({ appUrl: APP_URL, serverPid: app.serverPid, cookie: connected.jar.header(), lastDay: user.last_day, log });

    const previous = readLatestResults();
    if (isBenchResult(previous)) {
      const merged: BenchResult = { ...previous, report };
      writeResultsFile(LATEST_RESULTS, merged);
      const rows = checkTargets(merged).filter((c) => c.measure.startsWith("Report"));
      process.stdout.write(`\n${formatTable(rows)}\n\nWrote the report figures into ${path.relative(ROOT, LATEST_RESULTS)}\n`);
    } else process.stdout.write(`\n${JSON.stringify({ report }, null, 2)}\n(no complete ${path.relative(ROOT, LATEST_RESULTS)} to add them to)\n`);
  } finally {
    if (app) fs.writeFileSync(path.join(DATA, "app.log"), app.lines.join("\n") + "\n");
    await app?.stop().catch(() => undefined);
    await emulator?.stop().catch(() => undefined);
  }
}

runBenchMain("bench:report", main);
