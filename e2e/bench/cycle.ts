// `npm run bench:cycle`: the cycle step of the benchmark on its own (e2e/bench/cycle-measure.ts),
// against an emulator and the production build it starts (ports chosen at run time, each in a
// process group of its own; data in e2e/bench/.data-cycle). Writes the `cycle` block into
// e2e/bench/results/latest.json and leaves the other figures as they are. RINGSIDE_CYCLE_SEED
// changes the people.
import fs from "node:fs";
import path from "node:path";
import { CYCLE_BENCH_SEED, measureCycle } from "./cycle-measure";
import { cycleMet } from "./cycle-score";
import { freePorts, stopGroupsOnExit } from "../../lib/test/processes.mjs";
import { benchAppEnv, buildIsStale, runBenchMain, runBuild, startAppProcess, startEmulatorProcess, useBenchBuildDir, type Running } from "./servers";
import { LATEST_RESULTS, readLatestResults, writeResultsFile } from "./results-file";

const ROOT = process.cwd();
const DATA = path.join(ROOT, "e2e/bench/.data-cycle");
const [APP_PORT, EMULATOR_PORT] = (await freePorts(2)) as [number, number];
useBenchBuildDir();
stopGroupsOnExit();
const PUBLIC_APP_URL = `http://localhost:${APP_PORT}`;
const CLIENT = { client_id: "ringside-bench", client_secret: "ringside-bench-secret-0123456789", approved: true };
const log = (msg: string) => process.stdout.write(`[bench:cycle] ${msg}\n`);

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
    const cycle = await measureCycle({ appUrl: app.url, emulatorUrl: emulator.url, seed: CYCLE_BENCH_SEED, women: 12, men: 12, log });
    process.stdout.write(`\n${JSON.stringify({ cycle }, null, 2)}\n\n`);
    process.stdout.write(`${cycleMet(cycle) ? "Every cycle target met." : "Cycle targets NOT met."}\n`);
    const previous = (readLatestResults() ?? {}) as Record<string, unknown>;
    writeResultsFile(LATEST_RESULTS, { ...previous, cycle });
    process.stdout.write(`Wrote the cycle figures into ${path.relative(ROOT, LATEST_RESULTS)}\n`);
  } finally {
    if (app) fs.writeFileSync(path.join(DATA, "app.log"), app.lines.join("\n") + "\n");
    await app?.stop().catch(() => undefined);
    await emulator?.stop().catch(() => undefined);
  }
}

runBenchMain("bench:cycle", main);
