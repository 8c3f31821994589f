// `npm run bench`: measures Ringside against its limits and publishes the figures.
//
// Starts its own ring emulator (no rate limit, 5 years of history, page size 100) and the
// production build through `node lib/server/start.mjs` (data in e2e/bench/.data), each on a
// port chosen at run time and in a process group of its own, building first into
// e2e/bench/.build when that build is missing or older than the sources. Then, in one run: connect a person through the real OAuth flow and time the
// backfill (and the time until Today has its newest day of everything); the fetch floor of the same collections, the app idle
// (e2e/bench/floor.ts); trends API vs raw SQLite; pages in Chromium; signed webhooks under load; memory;
// the report's PDF from rest (e2e/bench/report-pdf.ts).
// Then the small box (e2e/bench/small-box.ts): that app stopped, a fresh one (data in
// e2e/bench/.data/app-small) pinned to one CPU under a 256 MB memory ceiling, a new person on
// the same emulator, and the same backfill, pages, report PDF and webhook load; killed, it says so and why.
// Prints a table and writes e2e/bench/results/latest.json. Exit code 0 when it measured
// (targets missed, and a small box killed for memory, are reported, not failures); 1 when it
// could not measure.
// `npm run bench` then runs this file again with --wire-pass: the backfill and its floor only,
// every data request 50 ms late, their figures into latest.json's floor block as `wire`.
import { spawn, type ChildProcess } from "node:child_process";
import Database from "better-sqlite3";
import { z } from "zod";
import fs from "node:fs";
import { countCpu } from "./cpu";
import os from "node:os";
import path from "node:path";
import {
  BENCH_COLLECTION_NAMES,
  connectThroughOAuth,
  countListRequests,
  createSchemaDatabase,
  emulatorDocuments,
  ingestFromLog,
  minimumRequests,
  rawUpsertBaseline,
  todayTargets,
  waitForBackfill,
  waitForToday,
  type BenchCollection,
  type CookieJar,
  type Doc,
  type TodayTarget,
} from "./backfill";
import { floorBlock, floorRequests, readBackfillRange, runFloorProcess, wireBlock, wireLines, withWireBlock } from "./floor";
import { SERIES_COLLECTIONS, type SyncCollection } from "@/lib/resources";
import { compareLayouts, countSeriesRequests, emulatorHeartRate, measureDayReads, rawSampleInsert, seriesIngestFromLog } from "./heart-rate";
import { measureImport } from "./import";
import { CYCLE_BENCH_SEED, measureCycle } from "./cycle-measure";
import { measureSleepNeed } from "./sleep-need-measure";
import { measureGuard } from "./import-guard";
import { readRssMb, sampleGroup, sampleRss } from "./memory";
import { measureReport } from "./report-pdf";
import { launchChromium, measurePageSet } from "./pages";
import { checkTargets, formatTable, isBenchResult, type BenchResult, type SmallBoxResult } from "./report";
import { LATEST_RESULTS, readLatestResults, writeResultsFile } from "./results-file";
import { createCeiling, pinToOneCpu, requestedCeiling } from "./small-box";
import { freePorts, signalGroup, stopGroupsOnExit } from "../../lib/test/processes.mjs";
import {
  BENCH_PERSON,
  benchAppEnv,
  benchEmulatorSettings,
  buildIsStale,
  runBenchMain,
  runBuild,
  startAppProcess,
  startEmulatorProcess,
  useBenchBuildDir,
  type CommandWrapper,
  type Running,
} from "./servers";
import { median, ratio, round } from "./stats";
import { addDays, type answerBytes, type TrendFigures } from "./trends";
import type { WebhookFigures } from "./webhooks";
import type { WorkerJob } from "./worker";
import type { MqttFigures } from "./mqtt";

const ROOT = process.cwd();
const BENCH_DIR = path.join(ROOT, "e2e/bench");
const DATA = path.join(BENCH_DIR, ".data");

// Ports chosen now (BENCH_APP_PORT / BENCH_EMULATOR_PORT to fix them; the small box's app has
// a port of its own), the bench's own build folder, and every server it starts stopped (and the
// small box's cgroup removed) when it ends or is interrupted.
const [APP_PORT, EMULATOR_PORT, SMALL_APP_PORT] = (
  process.env.BENCH_APP_PORT && process.env.BENCH_EMULATOR_PORT
    ? [
        Number(process.env.BENCH_APP_PORT),
        Number(process.env.BENCH_EMULATOR_PORT),
        (await freePorts(3)).find((p) => p !== Number(process.env.BENCH_APP_PORT) && p !== Number(process.env.BENCH_EMULATOR_PORT)),
      ]
    : await freePorts(3)
) as [number, number, number];
useBenchBuildDir();
stopGroupsOnExit();
// What Auth.js puts in redirect_uri (it names the host "localhost" whatever AUTH_URL's host is: benchAppEnv).
const callbackUri = (port: number) => `http://localhost:${port}/api/auth/callback/ring`;
const YEARS = 5;
// the bench person (servers.ts BENCH_PERSON: the same five years in every run, and in peer.ts's side by side)
const { historyDays: HISTORY_DAYS, dataKey: BENCH_PERSON_KEY, pageSize: PAGE_SIZE, seriesPageSize: SERIES_PAGE_SIZE } = BENCH_PERSON;
const CLIENT = { client_id: "ringside-bench", client_secret: "ringside-bench-secret-0123456789", approved: true };
const TREND_METRIC = { id: "sleep.score", table: "daily_sleep", column: "score" };
/** the fetch floor's runs (each: every collection, then heart rate alone); its figure is their median */
const FLOOR_RUNS = 3;
const WEBHOOK_CONNECTIONS = 10;
const WEBHOOK_SECONDS = 10;
const PAGE_RUNS = 9;
const PAGES = { today: "/", trends: "/trends", correlations: "/correlations" } as const;
/** the small box: one CPU, this memory ceiling */
const SMALL_BOX_MB = 256;
// the main pass (about two minutes, more on a busy machine), the small box (about two more)
const TIME_LIMIT_MS = 15 * 60_000;
const REST_WAIT_MS = 30_000;
/** the small box's quiet spell before the report's PDF (the backfill's and pages' garbage collected) */
const REPORT_REST_WAIT_MS = 10_000;

// BENCH_PROFILE_DIR (with BENCH_SERVER_NODE_OPTIONS="--cpu-prof --cpu-prof-dir=<the same>"): every
// line below is also written there with the monotonic clock's microseconds, the clock of V8's CPU
// profiles, so a server profile can be cut into the bench's steps.
const PROFILE_DIR = process.env.BENCH_PROFILE_DIR;
const log = (msg: string) => {
  process.stdout.write(`[bench] ${msg}\n`);
  if (PROFILE_DIR) fs.appendFileSync(path.join(PROFILE_DIR, "bench-log.jsonl"), JSON.stringify({ us: Number(process.hrtime.bigint() / 1000n), msg }) + "\n");
};

/** Polls the app's database until a collection's backfill of a person (by e-mail) is done; the moment it was seen. */
async function waitForSeries(dbFile: string, email: string, collection: string, timeoutMs: number): Promise<number> {
  const deadline = performance.now() + timeoutMs;
  let db: Database.Database | null = null;
  try {
    for (;;) {
      if (!db && fs.existsSync(dbFile)) {
        db = new Database(dbFile, { readonly: true, fileMustExist: true });
        db.pragma("busy_timeout = 5000");
      }
      const row = db
        ?.prepare(`SELECT s.backfillDoneAt, s.status FROM sync_state s JOIN "User" u ON u.id = s.userId WHERE lower(u.email) = lower(?) AND s.collection = ?`)
        .get(email, collection) as { backfillDoneAt: string | null; status: string } | undefined;
      if (row?.backfillDoneAt) return performance.now();
      if (row && ["error", "not_shared", "expired", "paused"].includes(row.status)) throw new Error(`${collection} backfill stopped: ${row.status}`);
      if (performance.now() > deadline) throw new Error(`${collection} backfill not done within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    db?.close();
  }
}

async function json<T>(url: string, init?: RequestInit): Promise<T> {
  const res = await fetch(url, init);
  const text = await res.text();
  if (!res.ok) throw new Error(`${init?.method ?? "GET"} ${new URL(url).pathname} → ${res.status}: ${text.slice(0, 200)}`);
  return JSON.parse(text) as T;
}

/** One measure in its own process (e2e/bench/worker.ts), like a separate client; `signal` stops it. */
async function runWorker<T>(job: WorkerJob, signal?: AbortSignal): Promise<T> {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(BENCH_DIR, "worker.ts"), JSON.stringify(job)], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "inherit"],
    signal,
  });
  child.on("error", () => undefined); // aborted: the exit below says so
  let out = "";
  child.stdout!.on("data", (c: Buffer) => (out += c.toString()));
  const code = await new Promise<number | null>((r) => child.once("exit", r));
  if (code !== 0) throw new Error(`the ${job.kind} measure exited (${code})`);
  return JSON.parse(out.trim().split("\n").at(-1)!) as T;
}

/** The Home Assistant publisher's latency (e2e/bench/mqtt.ts), in a process of its own that runs the app's server code. */
async function measureMqtt(): Promise<MqttFigures> {
  const child = spawn(process.execPath, ["--import", "tsx", "--conditions=react-server", path.join(BENCH_DIR, "mqtt.ts")], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  child.stdout!.on("data", (c: Buffer) => (out += c.toString()));
  const code = await new Promise<number | null>((r) => child.once("exit", r));
  const line = out.split("\n").find((l) => l.startsWith("MQTT_BENCH "));
  if (code !== 0 || !line) throw new Error(`the mqtt measure exited (${code})`);
  return JSON.parse(line.slice("MQTT_BENCH ".length)) as MqttFigures;
}

const post = (body: unknown): RequestInit => ({ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * A new person at the emulator with five years of history. The emulator generates it on first
 * use: done here (keeping the documents for the minimum request count and the raw baseline, and
 * the heart-rate samples), so a timed backfill is the app's work. The emulator's request log is
 * emptied after.
 */
async function addPerson(emu: string) {
  const email = `bench-${Date.now().toString(36)}@bench.example.test`;
  // the same five years in every run (the emulator's data from a key, not the e-mail): runs compare
  const user = await json<{ user_id: string; first_day: string; last_day: string }>(
    `${emu}/_emulator/users`,
    post({ email, history_days: HISTORY_DAYS, data_key: BENCH_PERSON_KEY }),
  );
  const docs = new Map<BenchCollection, Doc[]>();
  for (const c of BENCH_COLLECTION_NAMES) docs.set(c, await emulatorDocuments(emu, user.user_id, c));
  const documents = [...docs.values()].reduce((n, d) => n + d.length, 0);
  // the heart-rate samples (the raw baseline's and the layouts' input; the emulator generates
  // a time series per requested day, so this warms nothing the backfill will ask for)
  const heart = await emulatorHeartRate(emu, user.user_id);
  await fetch(`${emu}/_emulator/requests`, { method: "DELETE" });
  return { email, user, docs, documents, heart };
}

/**
 * Connects `email` through the real OAuth round trip and waits for every backfill (the
 * documents', heart rate's and the other time series', each one's end seen when it happens),
 * timed from *Allow*. `today`: also the moment every collection Today shows has its newest day
 * stored (the whole backfill's end when one never has before it).
 */
async function timeBackfill(appUrl: string, dbFile: string, email: string, documents: number, today: readonly TodayTarget[] = []) {
  const connected = await connectThroughOAuth(appUrl, email);
  const heartWait = waitForSeries(dbFile, email, "heartrate", 180_000);
  const others = SERIES_COLLECTIONS.filter((c) => c !== "heartrate");
  const otherSeries = others.map((c) => waitForSeries(dbFile, email, c, 180_000));
  // awaited below, after the documents
  for (const w of [heartWait, ...otherSeries]) w.catch(() => undefined);
  const ended = new AbortController();
  const landed = new Map<SyncCollection, number>();
  const todayWait = today.length > 0 ? waitForToday(dbFile, email, today, { pollMs: 20, signal: ended.signal, landed }) : Promise.resolve(null);
  todayWait.catch(() => undefined);
  const waited = (async () => {
    const { doneAt, state } = await waitForBackfill(dbFile, email, { timeoutMs: 180_000, pollMs: 20 });
    return { doneAt, state, heartDoneAt: await heartWait, seriesDoneAt: await Promise.all(otherSeries) };
  })();
  const { doneAt, state, heartDoneAt, seriesDoneAt } = await waited.finally(() => ended.abort());
  if (state.documents !== documents) throw new Error(`stored ${state.documents} documents, the emulator has ${documents}`);
  const wholeDoneAt = Math.max(doneAt, heartDoneAt, ...seriesDoneAt);
  const todayAt = Math.min((await todayWait) ?? wholeDoneAt, wholeDoneAt);
  const since = (t: number) => (t - connected.allowedAt) / 1000;
  // the last of Today's collections to have their newest day stored, latest first
  const todayLast = [...landed].sort((a, b) => b[1] - a[1]).map(([c, t]) => `${c} ${round(since(t), 2)} s`);
  const batteryAt = seriesDoneAt[others.indexOf("ring_battery_level")];
  return {
    connected,
    state,
    wallS: since(doneAt),
    heartWallS: since(heartDoneAt),
    batteryWallS: batteryAt === undefined ? null : since(batteryAt),
    wholeWallS: since(wholeDoneAt),
    todayS: since(todayAt),
    todayLast,
  };
}

/** Today, Trends and Correlations in Chromium (e2e/bench/pages.ts), each with the person's session. */
async function measurePages(appUrl: string, jar: CookieJar) {
  const browser = await launchChromium();
  try {
    const cookies = jar.forPlaywright(appUrl);
    const figures = await measurePageSet(browser, appUrl, cookies, PAGES, PAGE_RUNS);
    const { today, trends, correlations } = figures;
    const encodings = new Set([today, trends, correlations].flatMap((p) => p.runs.flatMap((r) => r.encodings)));
    log(
      `pages: ${Object.entries(figures)
        .map(([name, p]) => `${name} ${p.charts_ms} ms ${p.js_gzip_kb} kB`)
        .join(", ")} (script encodings: ${[...encodings].join(", ")}; after ${today.settled.waited_ms} ms for a quiet machine)`,
    );
    return {
      today: { charts_ms: today.charts_ms, js_gzip_kb: today.js_gzip_kb },
      trends: { charts_ms: trends.charts_ms, js_gzip_kb: trends.js_gzip_kb },
      correlations: { charts_ms: correlations.charts_ms, js_gzip_kb: correlations.js_gzip_kb },
    } satisfies BenchResult["pages"];
  } finally {
    await browser.close();
  }
}

/** Signed webhooks under load (its own process): every one acknowledged, or it throws. */
async function webhookLoad(appUrl: string, signal?: AbortSignal): Promise<WebhookFigures> {
  const hooks = await runWorker<WebhookFigures>(
    {
      kind: "webhooks",
      url: `${appUrl}/api/webhooks/ring`,
      secret: CLIENT.client_secret,
      // a ring user this Ringside does not hold: acknowledged like any other, settled without fetching
      userId: "bench-load-unknown-user",
      connections: WEBHOOK_CONNECTIONS,
      durationS: WEBHOOK_SECONDS,
    },
    signal,
  );
  if (hooks.errors > 0 || hooks.non2xx > 0) throw new Error(`webhook load: ${hooks.non2xx} non-2xx answers, ${hooks.errors} errors`);
  return hooks;
}

const webhooksResult = (h: WebhookFigures): BenchResult["webhooks"] => ({
  acks_per_s: h.acks_per_s,
  p99_ms: h.p99_ms,
  concurrency: h.concurrency,
  duration_s: h.duration_s,
});

/** The production app on `port` with a fresh `dataDir` (benchAppEnv); `opts` as startAppProcess's. */
async function startBenchApp(port: number, dataDir: string, emu: string, opts: { wrap?: CommandWrapper; onSpawn?: (child: ChildProcess) => void } = {}) {
  const app = await startAppProcess(ROOT, { port, dataDir, env: benchAppEnv({ port, dataDir, emulatorUrl: emu, client: CLIENT }), ...opts });
  log(`app on ${app.url} (server pid ${app.serverPid})`);
  return app;
}

/** Stops an app and keeps its output (ids and counts only: the app's logger) for a look afterwards. */
async function stopBenchApp(app: Running | null, logFile: string): Promise<void> {
  if (!app) return;
  fs.writeFileSync(logFile, app.lines.join("\n") + "\n");
  await app.stop().catch(() => undefined);
}

/** BENCH_ONLY=backfill: the main pass ends after the fetch floor */
class BackfillOnly extends Error {}

/**
 * --wire-pass (`npm run bench` runs it after the main pass): the backfill and its floor only, as
 * BENCH_ONLY=backfill, with the emulator WIRE_PASS_MS away (BENCH_WIRE_MS sets another delay);
 * their figures go into the floor block of results/latest.json as `wire` (floor.ts WireFloor).
 */
const WIRE_PASS = process.argv.includes("--wire-pass");
const WIRE_PASS_MS = 50;
const BACKFILL_ONLY = WIRE_PASS || process.env.BENCH_ONLY === "backfill";

/**
 * BENCH_WIRE_MS (with BENCH_ONLY=backfill or --wire-pass): the emulator answers every data request
 * that many milliseconds late, the backfill's and the floor's, as a ring service across the
 * internet would.
 */
const wireMs = z.coerce
  .number()
  .int()
  .min(0)
  .max(2_000)
  .default(WIRE_PASS ? WIRE_PASS_MS : 0)
  .safeParse(process.env.BENCH_WIRE_MS || undefined);
if (!wireMs.success) throw new Error(`BENCH_WIRE_MS must be a whole number of milliseconds from 0 to 2000, not ${JSON.stringify(process.env.BENCH_WIRE_MS)}`);
const WIRE_MS = wireMs.data;
if (WIRE_MS > 0 && !BACKFILL_ONLY) throw new Error("BENCH_WIRE_MS is for a backfill-only run: set BENCH_ONLY=backfill too");
if (WIRE_PASS && WIRE_MS === 0) throw new Error("--wire-pass measures with the emulator away: BENCH_WIRE_MS must not be 0");

/** Every data request of the emulator answered `ms` late (its fault control: a delay and no status). */
async function wireDelay(emu: string, ms: number): Promise<void> {
  const res = await fetch(`${emu}/_emulator/faults`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ delay_ms: ms, count: 1_000_000, path_prefix: "/v2/usercollection/" }),
  });
  if (!res.ok) throw new Error(`the emulator's wire delay: ${res.status} ${(await res.text()).slice(0, 200)}`);
}

/** The main pass: the app on the whole machine, every measure. */
async function mainPass(emu: string, emulatorPgid: number): Promise<BenchResult> {
  let app: (Running & { serverPid: number }) | null = null;
  try {
    const dataDir = path.join(DATA, "app");
    app = await startBenchApp(APP_PORT, dataDir, emu);
    const appUrl = app.url;
    const dbFile = path.join(dataDir, "ringside.db");
    await fetch(`${appUrl}/sign-in`).then((r) => r.text());
    await sleep(2_000);
    const idleAtStartMb = readRssMb(app.serverPid) ?? 0;
    const wholeRun = sampleRss(app.serverPid, 50);

    // ---------------------------------------------------------------- 1. Backfill
    const { email, user, docs, documents, heart } = await addPerson(emu);
    const minRequests = minimumRequests(
      [...docs.values()].map((d) => d.length),
      PAGE_SIZE,
    );
    const minSeriesRequests = Math.ceil(heart.length / SERIES_PAGE_SIZE);
    // what Today shows, each collection with its newest day at the emulator (the time to Today)
    const todayNeeds = todayTargets(docs, { heartrate: heart });
    if (WIRE_MS > 0) await wireDelay(emu, WIRE_MS);
    log(`backfilling ${documents} documents (${user.first_day} … ${user.last_day})${WIRE_MS > 0 ? `, every data request ${WIRE_MS} ms away` : ""} …`);

    const rss = sampleRss(app.serverPid, 50);
    const backfillCpu = countCpu({ app: app.child.pid!, emulator: emulatorPgid });
    const { connected, state, wallS, heartWallS, batteryWallS, wholeWallS, todayS, todayLast } = await timeBackfill(
      appUrl,
      dbFile,
      email,
      documents,
      todayNeeds,
    );
    const peak = rss.stop();
    const cpuFigures = backfillCpu();
    const cpu = cpuFigures ? { cores: cpuFigures.cores, app: cpuFigures.seconds.app ?? 0, emulator: cpuFigures.seconds.emulator ?? 0 } : null;
    const requests = await countListRequests(emu, user.user_id);
    const userId = state.userId!;
    // the engine logs its own ingest time per collection once that collection is done
    let ingest = ingestFromLog(app.lines, userId);
    for (let i = 0; i < 100 && ingest.collections < BENCH_COLLECTION_NAMES.length; i++) {
      await new Promise((r) => setTimeout(r, 20));
      ingest = ingestFromLog(app.lines, userId);
    }
    if (ingest.collections < BENCH_COLLECTION_NAMES.length) throw new Error(`found ${ingest.collections} "backfill finished" log lines, expected 8`);
    const rawRuns: number[] = [];
    for (let i = 0; i < 3; i++) {
      const file = path.join(DATA, "raw-baseline.db");
      await createSchemaDatabase(file);
      rawRuns.push(rawUpsertBaseline(file, userId, docs).ms);
    }
    const rawMs = median(rawRuns);
    docs.clear(); // 20,000 parsed documents: not kept through the measures that follow
    log(
      `backfill: ${round(wallS, 2)} s, ${requests.total} requests (minimum ${minRequests}), ingest ${round(ingest.ingestMs)} ms (map ${round(ingest.mapMs)} ms) vs raw ${round(rawMs)} ms, peak RSS ${round(peak.peakMb, 0)} MB`,
    );

    // ---------------------------------------------------------------- 1b. Heart rate
    const heartStored = (() => {
      const db = new Database(dbFile, { readonly: true, fileMustExist: true });
      try {
        return Number((db.prepare(`SELECT COALESCE(SUM(count), 0) AS n FROM heart_rate WHERE userId = ?`).get(userId) as { n: number }).n);
      } finally {
        db.close();
      }
    })();
    if (heartStored !== heart.length) throw new Error(`stored ${heartStored} heart-rate samples, the emulator has ${heart.length}`);
    const heartRequests = await countSeriesRequests(emu, user.user_id);
    let heartIngest = seriesIngestFromLog(app.lines, userId, "heartrate");
    for (let i = 0; i < 100 && !heartIngest; i++) {
      await new Promise((r) => setTimeout(r, 20));
      heartIngest = seriesIngestFromLog(app.lines, userId, "heartrate");
    }
    if (!heartIngest) throw new Error(`no "backfill finished" log line for heart rate`);
    const rawHeartFile = path.join(DATA, "raw-heart-rate.db");
    const rawHeartRuns: number[] = [];
    for (let i = 0; i < 3; i++) rawHeartRuns.push(rawSampleInsert(rawHeartFile, userId, heart).ms);
    const rawHeartMs = median(rawHeartRuns);
    const heartDays = [...new Set(heart.map((r) => r.timestamp.slice(0, 10)))];
    const dayReads = measureDayReads({ appDb: dbFile, rawDb: rawHeartFile, userId, days: heartDays, warmup: 100, iterations: 1000 });
    const layouts = compareLayouts(DATA, userId, heart);
    heart.length = 0;
    log(
      `heart rate: ${heartStored} samples in ${round(heartWallS, 2)} s, ${heartRequests} requests (minimum ${minSeriesRequests}), ingest ${round(heartIngest.ingestMs)} ms vs raw insert ${round(rawHeartMs)} ms; ` +
        `a day's curve p95 ${dayReads.p95_ms} ms vs raw ${dayReads.raw_p95_ms} ms; layouts: rows ${JSON.stringify(layouts.rows)}, packed ${JSON.stringify(layouts.packed)}`,
    );

    // ---------------------------------------------------------------- 1c. The fetch floor (e2e/bench/floor.ts)
    // the app idle (its backfill done, the baselines above measured): every page of the same
    // collections fetched from the same emulator as the engine fetches them, nothing stored; the
    // emulator's request log emptied after
    const floorFigures = await runFloorProcess({
      emulatorUrl: emu,
      clientId: CLIENT.client_id,
      ringUserId: user.user_id,
      range: readBackfillRange(dbFile, userId),
      runs: FLOOR_RUNS,
      emulatorPgid,
    });
    const floor = floorBlock(floorFigures, { timeToTodayS: todayS, wallS: wholeWallS, heartRateWallS: heartWallS, batteryWallS, cpu });
    const floorCount = floorRequests(floorFigures);
    const heartFloorRequests = floorFigures.requests.heartrate ?? 0;
    log(
      `floor: every page of ${floorFigures.collections} collections in ${floor.floor_s} s (${floorCount.total} requests, ${floorFigures.in_flight} in flight; ` +
        `runs ${floorFigures.floor_runs_s.join(", ")} s); backfill ${floor.backfill_wall_s} s = ${floor.floor_ratio}x the floor; ` +
        `heart rate ${round(heartWallS, 2)} s = ${floor.heart_rate_floor_ratio}x its floor (${round(floorFigures.heart_rate_floor_s, 2)} s alone); ` +
        (batteryWallS !== null && floorFigures.battery_floor_s !== null
          ? `battery ${round(batteryWallS, 2)} s = ${floor.battery_floor_ratio}x its floor (${round(floorFigures.battery_floor_s, 2)} s alone)`
          : "the battery not shared"),
    );
    log(
      `  floor requests: documents ${floorCount.documents} (${floorCount.documents === minRequests ? "the minimum" : `the minimum is ${minRequests}`}; the backfill made ${requests.total}), ` +
        `heart rate ${heartFloorRequests} (the backfill made ${heartRequests}), time series ${floorCount.series}; ` +
        `Today (${todayNeeds.map((t) => t.collection).join(", ")}) whole ${floor.time_to_today_s} s after consent (the last: ${todayLast.slice(0, 3).join(", ") || "none seen"})`,
    );
    if (floor.cpu)
      log(
        `  CPU: the backfill's app ${floor.cpu.backfill_app_s} s + emulator ${floor.cpu.backfill_emulator_s} s on ${floor.cpu.cores} cores ` +
          `(at least ${floor.cpu.bound_ratio}x the floor, spread perfectly); one floor's client ${floor.cpu.floor_client_s} s + emulator ${floor.cpu.floor_emulator_s ?? "?"} s; ` +
          `of the backfill's, V8's helper threads (garbage collection, compiling): app ${cpuFigures?.v8_helper_seconds.app ?? "?"} s, emulator ${cpuFigures?.v8_helper_seconds.emulator ?? "?"} s`,
      );

    if (BACKFILL_ONLY) {
      wholeRun.stop();
      if (WIRE_PASS) {
        // the main pass wrote the results just before: its floor block gets these figures as `wire`
        const wire = wireBlock(floor, WIRE_MS);
        for (const line of wireLines(wire)) log(line);
        const next = withWireBlock(readLatestResults(), wire);
        if (!isBenchResult(next)) throw new Error(`${path.relative(ROOT, LATEST_RESULTS)} with the wire pass's figures does not have the published shape`);
        writeResultsFile(LATEST_RESULTS, next);
        log(
          `wrote the floor's wire block (${WIRE_MS} ms) into ${path.relative(ROOT, LATEST_RESULTS)}; peak RSS ${round(peak.peakMb, 0)} MB during the backfill`,
        );
      } else {
        // for working on the sync engine: the backfill and its floor only, nothing written
        log(`BENCH_ONLY=backfill: peak RSS ${round(peak.peakMb, 0)} MB during the backfill; stopping here`);
      }
      throw new BackfillOnly();
    }

    // ---------------------------------------------------------------- 2. Trends API
    const to = user.last_day;
    const from = addDays(to, -(HISTORY_DAYS - 1));
    const warmFrom = addDays(from, -Math.max(90, HISTORY_DAYS)); // lib/metrics/series.ts warmupFrom
    const cookie = connected.jar.header();
    const trends = await runWorker<
      TrendFigures & { context: Record<string, string>; bytes: ReturnType<typeof answerBytes> & { wire: number; wire_encoding: string } }
    >({
      kind: "trends",
      appUrl,
      cookie,
      metric: TREND_METRIC.id,
      dbFile,
      table: TREND_METRIC.table,
      column: TREND_METRIC.column,
      userId,
      from,
      to,
      readFrom: warmFrom,
      warmup: 30,
      iterations: 300,
      // what any request costs before the read, for the README's explanation
      context: [
        { label: "/api/health (no session)", path: "/api/health" },
        { label: "the same series for 7 days", path: `/api/metrics/${TREND_METRIC.id}?from=${addDays(to, -6)}&to=${to}` },
        { label: "5 years without gzip", path: `/api/metrics/${TREND_METRIC.id}?from=${from}&to=${to}`, headers: { "accept-encoding": "identity" } },
      ],
    });
    log(
      `trends: p50 ${trends.p50_ms} ms, p95 ${trends.p95_ms} ms vs raw p95 ${trends.raw_p95_ms} ms (${trends.rows} rows); /api/health p95 ${trends.also_p95_ms.health} ms; 304 p95 ${trends.also_p95_ms.notModified} ms; ` +
        `answer ${trends.bytes.json} B (gzip ${trends.bytes.gzip} B, ${trends.bytes.wire} B ${trends.bytes.wire_encoding} on the wire) vs ${trends.bytes.json_before} B (gzip ${trends.bytes.gzip_before} B) before`,
    );
    log(
      `  for comparison: ${Object.entries(trends.context)
        .map(([k, v]) => `${k} ${v}`)
        .join("; ")}`,
    );

    // ---------------------------------------------------------------- 3. Pages
    const pages = await measurePages(appUrl, connected.jar);

    // ---------------------------------------------------------------- 4. Webhooks
    const hookRss = sampleRss(app.serverPid, 100);
    const hooks = await webhookLoad(appUrl);
    const hookPeak = hookRss.stop();
    log(
      `webhooks: ${hooks.acks_per_s}/s, p50 ${hooks.p50_ms} ms, p99 ${hooks.p99_ms} ms (${hooks.acked} acknowledged; peak RSS ${round(hookPeak.peakMb, 0)} MB)`,
    );

    // ---------------------------------------------------------------- 5. Memory at rest
    // At rest: 30 s without a request. V8's memory reducer (compacting collections once
    // allocation has stopped, which hand pages back) starts about 8 s after the last busy
    // spell; the 5 s this waited before measured the heap of the webhook load instead.
    await sleep(5_000);
    const after5sMb = readRssMb(app.serverPid) ?? 0;
    await sleep(REST_WAIT_MS - 5_000);
    const idleAtEndMb = readRssMb(app.serverPid) ?? 0;
    const runPeak = wholeRun.stop();
    log(
      `memory: idle ${round(idleAtStartMb, 0)} MB at start, ${round(idleAtEndMb, 0)} MB at rest after the run (${REST_WAIT_MS / 1000} s quiet; ` +
        `${round(after5sMb, 0)} MB after 5 s), peak ${round(runPeak.peakMb, 0)} MB`,
    );

    // ---------------------------------------------------------------- 5b. The report's PDF (e2e/bench/report-pdf.ts)
    // from rest (just measured): the 90-day and the year's report of the five-year person
    const report = await measureReport({ appUrl, serverPid: app.serverPid, cookie, lastDay: to, log });

    // ---------------------------------------------------------------- 6. Import (e2e/bench/import.ts)
    const imported = await measureImport({ appUrl, serverPid: app.serverPid, emulatorUrl: emu, dir: DATA, log });
    // ---------------------------------------------------------------- 7. The import's guard (e2e/bench/import-guard.ts)
    const guard = await measureGuard({ appUrl, serverPid: app.serverPid, emulatorUrl: emu, log });
    // ---------------------------------------------------------------- 8. The cycle (e2e/bench/cycle-measure.ts)
    const cycle = await measureCycle({ appUrl, emulatorUrl: emu, seed: CYCLE_BENCH_SEED, women: 12, men: 12, log });
    // ---------------------------------------------------------------- 9. The sleep need (e2e/bench/sleep-need-measure.ts)
    const sleepNeed = await measureSleepNeed({ appUrl, emulatorUrl: emu, log });
    // ---------------------------------------------------------------- 10. Home Assistant over MQTT (e2e/bench/mqtt.ts)
    const mqtt = await measureMqtt();
    log(
      `mqtt: ${mqtt.people} people syncing at once (${mqtt.sync_wall_s} s): data version → state at the broker p50 ${mqtt.publish_p50_ms} ms, ` +
        `p95 ${mqtt.publish_p95_ms} ms, max ${mqtt.publish_max_ms} ms`,
    );

    return {
      date: new Date().toISOString(),
      node: process.version,
      cores: os.availableParallelism?.() ?? os.cpus().length,
      backfill: {
        years: YEARS,
        documents,
        wall_s: round(wallS, 2),
        requests: requests.total,
        min_requests: minRequests,
        ingest_s: round(ingest.ingestMs / 1000, 3),
        raw_ingest_s: round(rawMs / 1000, 3),
        ingest_ratio: ratio(ingest.ingestMs, rawMs, 2),
      },
      trends: {
        p50_ms: trends.p50_ms,
        p95_ms: trends.p95_ms,
        raw_p95_ms: trends.raw_p95_ms,
        ratio: trends.ratio,
        health_p95_ms: trends.also_p95_ms.health!,
        not_modified_p95_ms: trends.also_p95_ms.notModified!,
      },
      trends_answer: {
        json_bytes: trends.bytes.json,
        gzip_bytes: trends.bytes.gzip,
        json_bytes_before: trends.bytes.json_before,
        gzip_bytes_before: trends.bytes.gzip_before,
        wire_bytes: trends.bytes.wire,
      },
      heart_rate: {
        years: YEARS,
        samples: heartStored,
        wall_s: round(heartWallS, 2),
        requests: heartRequests,
        min_requests: minSeriesRequests,
        ingest_s: round(heartIngest.ingestMs / 1000, 3),
        raw_ingest_s: round(rawHeartMs / 1000, 3),
        ingest_ratio: ratio(heartIngest.ingestMs, rawHeartMs, 2),
        day_read_p95_ms: dayReads.p95_ms,
        raw_day_read_p95_ms: dayReads.raw_p95_ms,
        day_read_ratio: ratio(dayReads.p95_ms, dayReads.raw_p95_ms, 2),
      },
      heart_rate_layouts: layouts,
      webhooks: webhooksResult(hooks),
      pages,
      memory: { idle_mb: round(idleAtStartMb, 0), rest_mb: round(idleAtEndMb, 0), peak_mb: round(runPeak.peakMb, 0), peak_backfill_mb: round(peak.peakMb, 0) },
      import: imported,
      guard,
      report,
      cycle,
      sleep_need: sleepNeed,
      mqtt: { people: mqtt.people, publish_p95_ms: mqtt.publish_p95_ms },
      floor,
    };
  } finally {
    await stopBenchApp(app, path.join(DATA, "app.log"));
  }
}

/** The app went away during the small box (its launcher's exit). */
class AppGone extends Error {}

/**
 * The small box: a fresh app pinned to one CPU (taskset) under a SMALL_BOX_MB memory ceiling
 * (small-box.ts), a new person on the same emulator, the same backfill, pages and webhook load.
 * When the app goes away, the figures measured until then and why (killed: true), not a failure.
 */
async function smallPass(emu: string): Promise<SmallBoxResult> {
  const ceiling = createCeiling(SMALL_BOX_MB, requestedCeiling());
  const pin = pinToOneCpu();
  const box = { ceiling: ceiling.method, ceiling_mb: SMALL_BOX_MB, cpus: pin ? 1 : os.availableParallelism(), pinned: pin !== null };
  log(`small box: ${pin ? `CPU ${pin.cpu} (taskset)` : "taskset missing: not pinned"}, ${SMALL_BOX_MB} MB (${ceiling.method}: ${ceiling.where})`);
  const wrap: CommandWrapper = (cmd, args) => (pin ? ceiling.command(pin.prefix[0]!, [...pin.prefix.slice(1), cmd, ...args]) : ceiling.command(cmd, args));

  // the person before the app starts: the emulator's generating is none of the small box's work
  const { email, user, documents } = await addPerson(emu);
  const dataDir = path.join(DATA, "app-small");
  const logFile = path.join(DATA, "app-small.log");
  let app: (Running & { serverPid: number }) | null = null;
  // set as soon as the app's group exists: its exit, and its memory (the largest process's RSS: the server's)
  const seen: { child?: ChildProcess; exit?: Promise<string>; memory?: ReturnType<typeof sampleGroup> } = {};
  const stopLoad = new AbortController();
  const measured: Pick<SmallBoxResult, "backfill" | "pages" | "webhooks" | "report"> = {};
  const memory: SmallBoxResult["memory"] = { peak_mb: 0, group_peak_mb: 0 };
  let killedReason: string | null = null;
  try {
    app = await startBenchApp(SMALL_APP_PORT, dataDir, emu, {
      wrap,
      onSpawn(child) {
        seen.child = child;
        ceiling.watch(child.pid!);
        seen.memory = sampleGroup(child.pid!, 50);
        seen.exit = new Promise((r) => child.once("exit", (code, signal) => r(`the app exited (${signal ?? `code ${code}`})`)));
      },
    });
    // every measure below stops when the app goes away
    const gone = seen.exit!.then((why) => Promise.reject(new AppGone(why)));
    gone.catch(() => undefined);
    const step = <T>(p: Promise<T>) => Promise.race([p, gone]);
    await step(fetch(`${app.url}/sign-in`).then((r) => r.text()));

    log(`small box: backfilling ${documents} documents (${user.first_day} … ${user.last_day}) …`);
    const backfill = await step(timeBackfill(app.url, path.join(dataDir, "ringside.db"), email, documents));
    measured.backfill = { years: YEARS, documents, wall_s: round(backfill.wallS, 2), heart_rate_wall_s: round(backfill.heartWallS, 2) };
    log(`small box: backfill ${measured.backfill.wall_s} s, heart rate ${measured.backfill.heart_rate_wall_s} s`);
    measured.pages = await step(measurePages(app.url, backfill.connected.jar));
    // the report's PDF from rest (e2e/bench/report-pdf.ts): a quiet spell first, then the 90-day and the year's report
    await step(sleep(REPORT_REST_WAIT_MS));
    const smallLog = (msg: string) => log(`small box: ${msg}`);
    measured.report = await step(
      measureReport({ appUrl: app.url, serverPid: app.serverPid, cookie: backfill.connected.jar.header(), lastDay: user.last_day, log: smallLog }),
    );
    const hooks = await step(webhookLoad(app.url, stopLoad.signal));
    measured.webhooks = webhooksResult(hooks);
    log(`small box: webhooks ${hooks.acks_per_s}/s, p50 ${hooks.p50_ms} ms, p99 ${hooks.p99_ms} ms (${hooks.acked} acknowledged)`);
    // a kill that no measure noticed (the launcher still there, or gone just now) counts too
    const late = ceiling.killedReason() ?? (app.child.exitCode !== null || app.child.signalCode !== null ? await seen.exit! : null);
    if (late) throw new AppGone(late);
  } catch (err) {
    // a measure that failed because the app went away (or was going): its exit, a moment later at most
    const exited = seen.exit ? await Promise.race([seen.exit, sleep(3_000).then(() => null)]) : null;
    const why = ceiling.killedReason() ?? (exited ? `${exited}, the ceiling counting no kill` : null);
    if (!why) throw err;
    // an app that never answered has no Running to keep its output: the error carries its last lines
    if (!app) fs.writeFileSync(logFile, `${(err as Error).message}\n`);
    killedReason = `${why}; its output is in ${path.relative(ROOT, logFile)}`;
    log(`small box: KILLED: ${killedReason}`);
  } finally {
    stopLoad.abort();
    const peaks = seen.memory?.stop();
    memory.peak_mb = round(peaks?.largestMb ?? 0, 0);
    memory.group_peak_mb = round(peaks?.togetherMb ?? 0, 0);
    await stopBenchApp(app, logFile);
    // an app that never answered: its group stopped all the same
    if (!app && seen.child && seen.child.exitCode === null && seen.child.signalCode === null) {
      signalGroup(seen.child.pid!, "SIGKILL");
      await seen.exit;
    }
    const charged = ceiling.peakMb();
    const pressure = ceiling.pressure();
    try {
      ceiling.remove();
    } catch (e) {
      process.stderr.write(`[bench] the small box's ceiling (${ceiling.method}) could not be removed: ${(e as Error).message}\n`);
    }
    if (charged !== null)
      log(
        `small box: the ceiling (${ceiling.method}) counted at most ${round(charged, 0)} MB${ceiling.method === "watchdog" ? "" : " (page cache included: the kernel reclaims it first)"}${pressure ? `; ${pressure}` : ""}`,
      );
  }
  log(`small box: RSS peak ${memory.peak_mb} MB (server); launcher and server together ${memory.group_peak_mb} MB (their own memory, the Node binary once)`);
  return { ...box, killed: killedReason !== null, ...(killedReason !== null ? { killed_reason: killedReason } : {}), ...measured, memory };
}

let emulator: Running | null = null;

async function main(): Promise<void> {
  // over the limit: the exit stops every process group this run started and removes the cgroup
  const watchdog = setTimeout(() => {
    process.stderr.write(`[bench] over the ${TIME_LIMIT_MS / 60_000}-minute limit: stopping\n`);
    process.exit(1);
  }, TIME_LIMIT_MS);
  watchdog.unref();

  try {
    const stale = buildIsStale(ROOT);
    if (stale) {
      log(`building (${stale}): next build …`);
      const t = performance.now();
      runBuild(ROOT, path.join(DATA, "build.log"));
      log(`built in ${round((performance.now() - t) / 1000, 0)} s`);
    } else log("production build is current");

    fs.mkdirSync(DATA, { recursive: true });
    emulator = await startEmulatorProcess(
      ROOT,
      benchEmulatorSettings(EMULATOR_PORT, HISTORY_DAYS, {
        RING_EMULATOR_PAGE_SIZE: String(PAGE_SIZE),
        RING_EMULATOR_TIMESERIES_PAGE_SIZE: String(SERIES_PAGE_SIZE),
        RING_EMULATOR_WEBHOOK_DELAY_MS: "1000",
      }),
    );
    const emu = emulator.url;
    await json(`${emu}/_emulator/clients`, post({ ...CLIENT, redirect_uris: [callbackUri(APP_PORT), callbackUri(SMALL_APP_PORT)] }));
    log(`emulator on ${emu}`);

    const result = await mainPass(emu, emulator.child.pid!).catch((e: unknown) => {
      if (e instanceof BackfillOnly) return null;
      throw e;
    });
    if (!result) return;
    result.small = await smallPass(emu);
    if (!isBenchResult(result)) throw new Error("the result does not have the published shape");
    writeResultsFile(LATEST_RESULTS, result);

    const checks = checkTargets(result);
    process.stdout.write(
      `\nRingside benchmark — ${result.date}, Node ${result.node}, ${result.cores} cores, load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")}\n\n`,
    );
    process.stdout.write(formatTable(checks) + "\n\n");
    const missed = checks.filter((c) => !c.ok);
    process.stdout.write(missed.length === 0 ? "Every target met.\n" : `Targets not met: ${missed.map((c) => c.measure).join("; ")}\n`);
    process.stdout.write(`Wrote ${path.relative(ROOT, LATEST_RESULTS)}\n`);
  } finally {
    // the emulator's own output, for a look afterwards
    if (emulator) fs.writeFileSync(path.join(DATA, "emulator.log"), emulator.lines.join("\n") + "\n");
    await emulator?.stop().catch(() => undefined);
    clearTimeout(watchdog);
  }
}

runBenchMain("bench", main);
