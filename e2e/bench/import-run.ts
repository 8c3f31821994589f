// `npm run bench:import`: the import step of the benchmark on its own (e2e/bench/import.ts),
// against an emulator and the production build it starts (ports chosen at run time, each in a
// process group of its own; data in e2e/bench/.data-import), then the import's guard
// (e2e/bench/import-guard.ts). Writes the `import` and `guard` figures into
// e2e/bench/results/latest.json and leaves the other figures as they are.
import fs from "node:fs";
import path from "node:path";
import { measureImport } from "./import";
import { measureGuard } from "./import-guard";
import { checkTargets, formatTable, isBenchResult, type BenchResult } from "./report";
import { freePorts, stopGroupsOnExit } from "../../lib/test/processes.mjs";
import { benchAppEnv, buildIsStale, runBenchMain, runBuild, startAppProcess, startEmulatorProcess, useBenchBuildDir, type Running } from "./servers";
import { LATEST_RESULTS, readLatestResults, writeResultsFile } from "./results-file";

const ROOT = process.cwd();
const DATA = path.join(ROOT, "e2e/bench/.data-import");
const [APP_PORT, EMULATOR_PORT] = (await freePorts(2)) as [number, number];
useBenchBuildDir();
stopGroupsOnExit();
const APP_URL = `http://127.0.0.1:${APP_PORT}`;
const PUBLIC_APP_URL = `http://localhost:${APP_PORT}`;
const CLIENT = { client_id: "ringside-bench", client_secret: "ringside-bench-secret-0123456789", approved: true };
const log = (msg: string) => process.stdout.write(`[bench:import] ${msg}\n`);

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
    emulator = await startEmulatorProcess(ROOT, {
      RING_EMULATOR_PORT: String(EMULATOR_PORT),
      RING_EMULATOR_HOST: "127.0.0.1",
      RING_EMULATOR_WEBHOOK_DELAY_MS: "1000",
    });
    const registered = await fetch(`${emulator.url}/_emulator/clients`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ...CLIENT, redirect_uris: [`${PUBLIC_APP_URL}/api/auth/callback/ring`] }),
    });
    if (!registered.ok) throw new Error(`emulator client: ${registered.status}`);
    const dataDir = path.join(DATA, "app");
    app = await startAppProcess(ROOT, { port: APP_PORT, dataDir, env: benchAppEnv({ port: APP_PORT, dataDir, emulatorUrl: emulator.url, client: CLIENT }) });
    log(`app on ${app.url} (server pid ${app.serverPid})`);
    const figures = await measureImport({ appUrl: APP_URL, serverPid: app.serverPid, emulatorUrl: emulator.url, dir: DATA, log });
    const guard = await measureGuard({ appUrl: APP_URL, serverPid: app.serverPid, emulatorUrl: emulator.url, log });
    const previous = readLatestResults();
    if (isBenchResult(previous)) {
      const merged: BenchResult = { ...previous, import: figures, guard };
      writeResultsFile(LATEST_RESULTS, merged);
      process.stdout.write(
        `\n${formatTable(checkTargets(merged).filter((c) => c.measure.startsWith("Import")))}\n\nWrote the import and guard figures into ${path.relative(ROOT, LATEST_RESULTS)}\n`,
      );
    } else
      process.stdout.write(`\n${JSON.stringify({ import: figures, guard }, null, 2)}\n(no complete ${path.relative(ROOT, LATEST_RESULTS)} to add them to)\n`);
  } finally {
    if (app) fs.writeFileSync(path.join(DATA, "app.log"), app.lines.join("\n") + "\n");
    await app?.stop().catch(() => undefined);
    await emulator?.stop().catch(() => undefined);
  }
}

runBenchMain("bench:import", main);
