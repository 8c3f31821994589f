// `npm run bench:sleep-need`: the sleep need's step of the benchmark on its own
// (e2e/bench/sleep-need-measure.ts), against an emulator and the production build it starts
// (ports chosen at run time, each in a process group of its own; data in
// e2e/bench/.data-sleep-need). Writes the `sleep_need` block into e2e/bench/results/latest.json and
// leaves the other figures as they are.
import fs from "node:fs";
import path from "node:path";
import { measureSleepNeed } from "./sleep-need-measure";
import { sleepNeedMet } from "./sleep-need-score";
import { freePorts, stopGroupsOnExit } from "../../lib/test/processes.mjs";
import { benchAppEnv, buildIsStale, runBenchMain, runBuild, startAppProcess, startEmulatorProcess, useBenchBuildDir, type Running } from "./servers";
import { LATEST_RESULTS, readLatestResults, writeResultsFile } from "./results-file";

const ROOT = process.cwd();
const DATA = path.join(ROOT, "e2e/bench/.data-sleep-need");
const [APP_PORT, EMULATOR_PORT] = (await freePorts(2)) as [number, number];
useBenchBuildDir();
stopGroupsOnExit();
const PUBLIC_APP_URL = `http://localhost:${APP_PORT}`;
const CLIENT = { client_id: "ringside-bench", client_secret: "ringside-bench-secret-0123456789", approved: true };
const log = (msg: string) => process.stdout.write(`[bench:sleep-need] ${msg}\n`);

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
    emulator = await startEmulatorProcess(ROOT, { RING_EMULATOR_PORT: String(EMULATOR_PORT), RING_EMULATOR_HOST: "127.0.0.1" });
    const registered = await fetch(`${emulator.url}/_emulator/clients`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ...CLIENT, redirect_uris: [`${PUBLIC_APP_URL}/api/auth/callback/ring`] }),
    });
    if (!registered.ok) throw new Error(`emulator client: ${registered.status}`);
    const dataDir = path.join(DATA, "app");
    fs.rmSync(dataDir, { recursive: true, force: true });
    app = await startAppProcess(ROOT, { port: APP_PORT, dataDir, env: benchAppEnv({ port: APP_PORT, dataDir, emulatorUrl: emulator.url, client: CLIENT }) });
    log(`app on ${app.url} (server pid ${app.serverPid})`);
    const sleepNeed = await measureSleepNeed({ appUrl: app.url, emulatorUrl: emulator.url, log });
    process.stdout.write(`\n${JSON.stringify({ sleep_need: sleepNeed }, null, 2)}\n\n`);
    process.stdout.write(`${sleepNeedMet(sleepNeed) ? "Every sleep-need target met." : "Sleep-need targets NOT met."}\n`);
    const previous = (readLatestResults() ?? {}) as Record<string, unknown>;
    writeResultsFile(LATEST_RESULTS, { ...previous, sleep_need: sleepNeed });
    process.stdout.write(`Wrote the sleep-need figures into ${path.relative(ROOT, LATEST_RESULTS)}\n`);
  } finally {
    if (app) fs.writeFileSync(path.join(DATA, "app.log"), app.lines.join("\n") + "\n");
    await app?.stop().catch(() => undefined);
    await emulator?.stop().catch(() => undefined);
  }
}

runBenchMain("bench:sleep-need", main);
