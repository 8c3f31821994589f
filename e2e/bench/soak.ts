// `npm run bench:soak`: the production server under the benchmark's webhook and chart load for
// ten minutes (BENCH_SOAK_MINUTES), to see it stay up on this Node.js: no abort, no crash, every
// request answered. Starts its own emulator and the production build (as `npm run bench`),
// connects a person with a year of history through the real OAuth flow, then alternates
// rounds of signed webhook notifications (autocannon, 10 connections) with rounds of chart
// reads (the Trends API for several metrics and ranges, the Today and Trends pages rendered on
// the server, 304 revalidations), checking after each round that the server process is the
// same one and still answers. Writes e2e/bench/results/soak.json; exit code 1 when the server
// died or a request failed.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePorts, stopGroupsOnExit } from "../../lib/test/processes.mjs";
import { connectThroughOAuth, waitForBackfill } from "./backfill";
import { readRssMb } from "./memory";
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
import { round } from "./stats";
import { addDays } from "./trends";
import { measureWebhooks } from "./webhooks";
import { writeResultsFile } from "./results-file";

const ROOT = process.cwd();
const DATA = path.join(ROOT, "e2e/bench/.data/soak");
const RESULTS = path.join(ROOT, "e2e/bench/results/soak.json");
const MINUTES = Number(process.env.BENCH_SOAK_MINUTES ?? 10);
const HISTORY_DAYS = 365;
const CLIENT = { client_id: "ringside-bench-soak", client_secret: "ringside-bench-soak-secret-0123456", approved: true };
const METRICS = ["sleep.score", "readiness.score", "activity.score", "activity.steps", "readiness.temperature_deviation"];
const WEBHOOK_ROUND_S = 20;

const [APP_PORT, EMULATOR_PORT] = (await freePorts(2)) as [number, number];
useBenchBuildDir();
stopGroupsOnExit();

const log = (msg: string) => process.stdout.write(`[bench:soak] ${msg}\n`);
const post = (body: unknown): RequestInit => ({ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

type Tally = { requests: number; failed: number; statuses: Record<string, number> };

/** Chart reads as the pages make them, with revalidation: every answer must be 200 or 304. */
async function chartRound(appUrl: string, cookie: string, from: string, to: string, tally: Tally): Promise<void> {
  const etags = new Map<string, string>();
  const paths = [
    "/",
    "/trends",
    ...METRICS.flatMap((m) => [
      `/api/metrics/${m}?from=${from}&to=${to}`,
      `/api/metrics/${m}?from=${addDays(to, -29)}&to=${to}`,
      `/api/metrics/${m}?from=${addDays(to, -6)}&to=${to}`,
    ]),
  ];
  for (let pass = 0; pass < 3; pass++) {
    for (const p of paths) {
      const headers: Record<string, string> = { cookie };
      const tag = etags.get(p);
      if (tag) headers["if-none-match"] = tag;
      let status: string;
      try {
        const res = await fetch(`${appUrl}${p}`, { headers, redirect: "manual" });
        await res.arrayBuffer();
        status = String(res.status);
        const etag = res.headers.get("etag");
        if (etag) etags.set(p, etag);
      } catch (err) {
        status = `error: ${(err as Error).message}`;
      }
      tally.requests++;
      tally.statuses[status] = (tally.statuses[status] ?? 0) + 1;
      if (status !== "200" && status !== "304") tally.failed++;
    }
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function main(): Promise<void> {
  let emulator: Running | undefined;
  let app: (Running & { serverPid: number }) | undefined;
  try {
    const stale = buildIsStale(ROOT);
    if (stale) {
      log(`building (${stale}): next build …`);
      runBuild(ROOT, path.join(DATA, "build.log"));
    }
    fs.rmSync(DATA, { recursive: true, force: true });
    fs.mkdirSync(DATA, { recursive: true });
    emulator = await startEmulatorProcess(ROOT, benchEmulatorSettings(EMULATOR_PORT, HISTORY_DAYS, { RING_EMULATOR_PAGE_SIZE: "100" }));
    const appUrl = `http://127.0.0.1:${APP_PORT}`;
    await fetch(`${emulator.url}/_emulator/clients`, post({ ...CLIENT, redirect_uris: [`http://localhost:${APP_PORT}/api/auth/callback/ring`] }));
    const dataDir = path.join(DATA, "app");
    app = await startAppProcess(ROOT, { port: APP_PORT, dataDir, env: benchAppEnv({ port: APP_PORT, dataDir, emulatorUrl: emulator.url, client: CLIENT }) });
    const serverPid = app.serverPid;
    log(`emulator on ${emulator.url}, app on ${appUrl} (server pid ${serverPid}), Node.js ${process.version}; ${MINUTES} minutes of load`);

    const email = `soak-${process.pid}@bench.example.test`;
    const user = (await (await fetch(`${emulator.url}/_emulator/users`, post({ email, history_days: HISTORY_DAYS }))).json()) as {
      user_id: string;
      last_day: string;
    };
    const connected = await connectThroughOAuth(appUrl, email);
    await waitForBackfill(path.join(dataDir, "ringside.db"), email, { timeoutMs: 300_000 });
    const cookie = connected.jar.header();
    const to = user.last_day;
    const from = addDays(to, -(HISTORY_DAYS - 1));

    const webhooks = { acked: 0, non2xx: 0, errors: 0, rounds: 0 };
    const charts: Tally = { requests: 0, failed: 0, statuses: {} };
    const rss: number[] = [];
    const started = performance.now();
    const until = started + MINUTES * 60_000;
    let deadAt: string | null = null;
    while (performance.now() < until) {
      const w = await measureWebhooks({
        url: `${appUrl}/api/webhooks/ring`,
        secret: CLIENT.client_secret,
        userId: user.user_id,
        connections: 10,
        durationS: WEBHOOK_ROUND_S,
      });
      webhooks.acked += w.acked;
      webhooks.non2xx += w.non2xx;
      webhooks.errors += w.errors;
      webhooks.rounds++;
      await chartRound(appUrl, cookie, from, to, charts);
      const mb = readRssMb(serverPid);
      if (mb !== null) rss.push(mb);
      if (!alive(serverPid) || app.child.exitCode !== null) {
        deadAt = `${round((performance.now() - started) / 60_000, 1)} min`;
        break;
      }
      log(
        `${round((performance.now() - started) / 60_000, 1)} min: ${webhooks.acked} notifications acknowledged, ${charts.requests} chart reads, RSS ${round(mb ?? 0, 0)} MB`,
      );
    }
    const health = await fetch(`${appUrl}/api/health`)
      .then((r) => r.status)
      .catch(() => 0);
    const aborts = app.lines.filter((l) => /Assertion failed|SIGABRT|FATAL ERROR|Segmentation fault|core dumped/.test(l));
    const result = {
      date: new Date().toISOString(),
      node: process.version,
      cores: os.availableParallelism?.() ?? os.cpus().length,
      minutes: round((performance.now() - started) / 60_000, 1),
      server_alive: deadAt === null && alive(serverPid),
      server_died_at: deadAt,
      health_after: health,
      aborts: aborts.length,
      webhooks,
      charts,
      rss_mb: { min: round(Math.min(...rss), 0), max: round(Math.max(...rss), 0), last: round(rss.at(-1) ?? 0, 0) },
    };
    writeResultsFile(RESULTS, result);
    process.stdout.write(`\n${JSON.stringify(result, null, 2)}\nWrote ${path.relative(ROOT, RESULTS)}\n`);
    const ok = result.server_alive && health === 200 && aborts.length === 0 && webhooks.errors === 0 && webhooks.non2xx === 0 && charts.failed === 0;
    if (!ok) throw new Error("the server did not take the load cleanly (see above)");
  } finally {
    if (app) fs.writeFileSync(path.join(DATA, "app.log"), app.lines.join("\n") + "\n");
    await app?.stop().catch(() => undefined);
    await emulator?.stop().catch(() => undefined);
  }
}

runBenchMain("bench:soak", main);
