// `npm run bench`: measures Ringside against its limits and publishes the figures.
//
// Starts its own ring emulator (no rate limit, 5 years of history, page size 100) and the
// production build through `node lib/server/start.mjs` (data in e2e/bench/.data), each on a
// port chosen at run time and in a process group of its own, building first into
// e2e/bench/.build when that build is missing or older than the sources. Then, in one run: connect a person through the real OAuth flow and time the
// backfill; trends API vs raw SQLite; pages in Chromium; signed webhooks under load; memory.
// Prints a table and writes e2e/bench/results/latest.json. Exit code 0 when it measured
// (targets missed are reported, not failures); 1 when it could not measure.
import { spawn } from "node:child_process";
import Database from "better-sqlite3";
import fs from "node:fs";
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
  waitForBackfill,
  type BenchCollection,
  type Doc,
} from "./backfill";
import { compareLayouts, countSeriesRequests, emulatorHeartRate, measureDayReads, rawSampleInsert, seriesIngestFromLog } from "./heart-rate";
import { measureImport } from "./import";
import { readRssMb, sampleRss } from "./memory";
import { launchChromium, measurePage } from "./pages";
import { checkTargets, formatTable, isBenchResult, type BenchResult } from "./report";
import { freePorts, stopGroupsOnExit } from "../../lib/test/processes.mjs";
import { buildIsStale, runBenchMain, runBuild, startAppProcess, startEmulatorProcess, useBenchBuildDir, type Running } from "./servers";
import { median, ratio, round } from "./stats";
import { addDays, type answerBytes, type TrendFigures } from "./trends";
import type { WebhookFigures } from "./webhooks";
import type { WorkerJob } from "./worker";

const ROOT = process.cwd();
const BENCH_DIR = path.join(ROOT, "e2e/bench");
const DATA = path.join(BENCH_DIR, ".data");
const RESULTS = path.join(BENCH_DIR, "results/latest.json");

// Ports chosen now (BENCH_APP_PORT / BENCH_EMULATOR_PORT to fix them), the bench's own build
// folder, and every server it starts stopped when it ends or is interrupted.
const [APP_PORT, EMULATOR_PORT] = (
  process.env.BENCH_APP_PORT && process.env.BENCH_EMULATOR_PORT ? [Number(process.env.BENCH_APP_PORT), Number(process.env.BENCH_EMULATOR_PORT)] : await freePorts(2)
) as [number, number];
useBenchBuildDir();
stopGroupsOnExit();
const APP_URL = `http://127.0.0.1:${APP_PORT}`;
// What Auth.js puts in redirect_uri (it names the host "localhost" whatever AUTH_URL's host is).
const PUBLIC_APP_URL = `http://localhost:${APP_PORT}`;
const YEARS = 5;
const HISTORY_DAYS = 1826;
const PAGE_SIZE = 100;
/** the emulator's time-series page (RING_EMULATOR_TIMESERIES_PAGE_SIZE, facts §2.2: about 1,000 rows) */
const SERIES_PAGE_SIZE = 1000;
const CLIENT = { client_id: "ringside-bench", client_secret: "ringside-bench-secret-0123456789", approved: true };
const TREND_METRIC = { id: "sleep.score", table: "daily_sleep", column: "score" };
const WEBHOOK_CONNECTIONS = 10;
const WEBHOOK_SECONDS = 10;
const PAGE_RUNS = 5;
const TIME_LIMIT_MS = 9.5 * 60_000;
const REST_WAIT_MS = 30_000;

const log = (msg: string) => process.stdout.write(`[bench] ${msg}\n`);

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
      const row = db?.prepare(`SELECT s.backfillDoneAt, s.status FROM sync_state s JOIN "User" u ON u.id = s.userId WHERE lower(u.email) = lower(?) AND s.collection = ?`).get(email, collection) as
        | { backfillDoneAt: string | null; status: string }
        | undefined;
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

/** One measure in its own process (e2e/bench/worker.ts), like a separate client. */
async function runWorker<T>(job: WorkerJob): Promise<T> {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(BENCH_DIR, "worker.ts"), JSON.stringify(job)], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  child.stdout!.on("data", (c: Buffer) => (out += c.toString()));
  const code = await new Promise<number | null>((r) => child.once("exit", r));
  if (code !== 0) throw new Error(`the ${job.kind} measure exited (${code})`);
  return JSON.parse(out.trim().split("\n").at(-1)!) as T;
}

const post = (body: unknown): RequestInit => ({ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

let emulator: Running | null = null;
let app: (Running & { serverPid: number }) | null = null;

async function main(): Promise<void> {
  const watchdog = setTimeout(() => {
    process.stderr.write(`[bench] over the ${TIME_LIMIT_MS / 60_000}-minute limit: stopping\n`);
    app?.child.kill("SIGTERM");
    emulator?.child.kill("SIGTERM");
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
    emulator = await startEmulatorProcess(ROOT, {
      RING_EMULATOR_PORT: String(EMULATOR_PORT),
      RING_EMULATOR_HOST: "127.0.0.1",
      RING_EMULATOR_RATE_LIMIT: "10000000",
      RING_EMULATOR_APP_RATE_LIMIT: "10000000",
      RING_EMULATOR_HISTORY_DAYS: String(HISTORY_DAYS),
      RING_EMULATOR_PAGE_SIZE: String(PAGE_SIZE),
      RING_EMULATOR_TIMESERIES_PAGE_SIZE: String(SERIES_PAGE_SIZE),
      RING_EMULATOR_WEBHOOK_DELAY_MS: "1000",
    });
    const emu = emulator.url;
    await json(`${emu}/_emulator/clients`, post({ ...CLIENT, redirect_uris: [`${PUBLIC_APP_URL}/api/auth/callback/ring`] }));
    log(`emulator on ${emu}`);

    app = await startAppProcess(ROOT, {
      port: APP_PORT,
      dataDir: path.join(DATA, "app"),
      env: {
        NODE_ENV: "production",
        PORT: String(APP_PORT),
        HOST: "127.0.0.1",
        DATA_DIR: path.join(DATA, "app"),
        DATABASE_URL: `file:${path.join(DATA, "app/ringside.db")}`,
        AUTH_URL: PUBLIC_APP_URL,
        AUTH_SECRET: "bench-auth-secret-not-for-production-0123456789",
        TOKEN_ENCRYPTION_KEY: "6b".repeat(32),
        WEBHOOK_VERIFICATION_TOKEN: "bench-webhook-verification-token",
        RING_API_BASE_URL: emu,
        RING_CLIENT_ID: CLIENT.client_id,
        RING_CLIENT_SECRET: CLIENT.client_secret,
        // the measured person becomes the owner by ALLOWED_EMAILS (no setup code to type)
        ALLOWED_EMAILS: "*@bench.example.test",
        LOG_LEVEL: "info",
        NEXT_TELEMETRY_DISABLED: "1",
        // experiments only (e.g. V8 heap flags); unset in published runs
        ...(process.env.BENCH_SERVER_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_SERVER_NODE_OPTIONS } : {}),
      },
    });
    const dbFile = path.join(DATA, "app/ringside.db");
    log(`app on ${app.url} (server pid ${app.serverPid})`);
    await fetch(`${APP_URL}/sign-in`).then((r) => r.text());
    await new Promise((r) => setTimeout(r, 2_000));
    const idleAtStartMb = readRssMb(app.serverPid) ?? 0;
    const wholeRun = sampleRss(app.serverPid, 50);

    // ---------------------------------------------------------------- 1. Backfill
    const email = `bench-${Date.now().toString(36)}@bench.example.test`;
    const user = await json<{ user_id: string; first_day: string; last_day: string }>(`${emu}/_emulator/users`, post({ email, history_days: HISTORY_DAYS }));
    // The emulator generates the history on first use: do it now (and keep the documents for
    // the minimum request count and the raw baseline), so the timed run is the app's work.
    const docs = new Map<BenchCollection, Doc[]>();
    for (const c of BENCH_COLLECTION_NAMES) docs.set(c, await emulatorDocuments(emu, user.user_id, c));
    const documents = [...docs.values()].reduce((n, d) => n + d.length, 0);
    const minRequests = minimumRequests([...docs.values()].map((d) => d.length), PAGE_SIZE);
    // the heart-rate samples (the raw baseline's and the layouts' input; the emulator generates
    // a time series per requested day, so this warms nothing the backfill will ask for)
    const heart = await emulatorHeartRate(emu, user.user_id);
    const minSeriesRequests = Math.ceil(heart.length / SERIES_PAGE_SIZE);
    await fetch(`${emu}/_emulator/requests`, { method: "DELETE" });
    log(`backfilling ${documents} documents (${user.first_day} … ${user.last_day}) …`);

    const rss = sampleRss(app.serverPid, 50);
    const connected = await connectThroughOAuth(APP_URL, email);
    // both watched at once: each one's end is seen when it happens
    const heartWait = waitForSeries(dbFile, email, "heartrate", 180_000);
    const { doneAt, state } = await waitForBackfill(dbFile, email, { timeoutMs: 180_000, pollMs: 20 });
    const heartDoneAt = await heartWait;
    const peak = rss.stop();
    const wallS = (doneAt - connected.allowedAt) / 1000;
    const heartWallS = (heartDoneAt - connected.allowedAt) / 1000;
    if (state.documents !== documents) throw new Error(`stored ${state.documents} documents, the emulator has ${documents}`);
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
    log(`backfill: ${round(wallS, 2)} s, ${requests.total} requests (minimum ${minRequests}), ingest ${round(ingest.ingestMs)} ms (map ${round(ingest.mapMs)} ms) vs raw ${round(rawMs)} ms, peak RSS ${round(peak.peakMb, 0)} MB`);

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

    // ---------------------------------------------------------------- 2. Trends API
    const to = user.last_day;
    const from = addDays(to, -(HISTORY_DAYS - 1));
    const warmFrom = addDays(from, -Math.max(90, HISTORY_DAYS)); // lib/metrics/series.ts warmupFrom
    const cookie = connected.jar.header();
    const trends = await runWorker<TrendFigures & { context: Record<string, string>; bytes: ReturnType<typeof answerBytes> & { wire: number; wire_encoding: string } }>({
      kind: "trends",
      appUrl: APP_URL,
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
    log(`  for comparison: ${Object.entries(trends.context).map(([k, v]) => `${k} ${v}`).join("; ")}`);

    // ---------------------------------------------------------------- 3. Pages
    const browser = await launchChromium();
    const cookies = connected.jar.forPlaywright(APP_URL);
    const today = await measurePage(browser, APP_URL, cookies, "/", PAGE_RUNS);
    const trendsPage = await measurePage(browser, APP_URL, cookies, "/trends", PAGE_RUNS);
    const correlationsPage = await measurePage(browser, APP_URL, cookies, "/correlations", PAGE_RUNS);
    await browser.close();
    const encodings = new Set([...today.runs, ...trendsPage.runs, ...correlationsPage.runs].flatMap((r) => r.encodings));
    log(
      `pages: today ${today.charts_ms} ms ${today.js_gzip_kb} kB, trends ${trendsPage.charts_ms} ms ${trendsPage.js_gzip_kb} kB, ` +
        `correlations ${correlationsPage.charts_ms} ms ${correlationsPage.js_gzip_kb} kB (script encodings: ${[...encodings].join(", ")})`,
    );

    // ---------------------------------------------------------------- 4. Webhooks
    const hookRss = sampleRss(app.serverPid, 100);
    const hooks = await runWorker<WebhookFigures>({
      kind: "webhooks",
      url: `${APP_URL}/api/webhooks/ring`,
      secret: CLIENT.client_secret,
      // a ring user this Ringside does not hold: acknowledged like any other, settled without fetching
      userId: "bench-load-unknown-user",
      connections: WEBHOOK_CONNECTIONS,
      durationS: WEBHOOK_SECONDS,
    });
    const hookPeak = hookRss.stop();
    if (hooks.errors > 0 || hooks.non2xx > 0) throw new Error(`webhook load: ${hooks.non2xx} non-2xx answers, ${hooks.errors} errors`);
    log(`webhooks: ${hooks.acks_per_s}/s, p50 ${hooks.p50_ms} ms, p99 ${hooks.p99_ms} ms (${hooks.acked} acknowledged; peak RSS ${round(hookPeak.peakMb, 0)} MB)`);

    // ---------------------------------------------------------------- 5. Memory at rest
    // At rest: 30 s without a request. V8's memory reducer (compacting collections once
    // allocation has stopped, which hand pages back) starts about 8 s after the last busy
    // spell; the 5 s this waited before measured the heap of the webhook load instead.
    await new Promise((r) => setTimeout(r, 5_000));
    const after5sMb = readRssMb(app.serverPid) ?? 0;
    await new Promise((r) => setTimeout(r, REST_WAIT_MS - 5_000));
    const idleAtEndMb = readRssMb(app.serverPid) ?? 0;
    const runPeak = wholeRun.stop();
    log(
      `memory: idle ${round(idleAtStartMb, 0)} MB at start, ${round(idleAtEndMb, 0)} MB at rest after the run (${REST_WAIT_MS / 1000} s quiet; ` +
        `${round(after5sMb, 0)} MB after 5 s), peak ${round(runPeak.peakMb, 0)} MB`,
    );

    // ---------------------------------------------------------------- 6. Import (e2e/bench/import.ts)
    const imported = await measureImport({ appUrl: APP_URL, serverPid: app.serverPid, emulatorUrl: emu, dir: DATA, log });

    const result: BenchResult = {
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
      webhooks: { acks_per_s: hooks.acks_per_s, p99_ms: hooks.p99_ms, concurrency: hooks.concurrency, duration_s: hooks.duration_s },
      pages: {
        today: { charts_ms: today.charts_ms, js_gzip_kb: today.js_gzip_kb },
        trends: { charts_ms: trendsPage.charts_ms, js_gzip_kb: trendsPage.js_gzip_kb },
        correlations: { charts_ms: correlationsPage.charts_ms, js_gzip_kb: correlationsPage.js_gzip_kb },
      },
      memory: { idle_mb: round(idleAtStartMb, 0), rest_mb: round(idleAtEndMb, 0), peak_mb: round(runPeak.peakMb, 0), peak_backfill_mb: round(peak.peakMb, 0) },
      import: imported,
    };
    if (!isBenchResult(result)) throw new Error("the result does not have the published shape");
    fs.mkdirSync(path.dirname(RESULTS), { recursive: true });
    fs.writeFileSync(`${RESULTS}.tmp`, JSON.stringify(result, null, 2) + "\n");
    fs.renameSync(`${RESULTS}.tmp`, RESULTS);

    const checks = checkTargets(result);
    process.stdout.write(`\nRingside benchmark — ${result.date}, Node ${result.node}, ${result.cores} cores, load average ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}\n\n`);
    process.stdout.write(formatTable(checks) + "\n\n");
    const missed = checks.filter((c) => !c.ok);
    process.stdout.write(missed.length === 0 ? "Every target met.\n" : `Targets not met: ${missed.map((c) => c.measure).join("; ")}\n`);
    process.stdout.write(`Wrote ${path.relative(ROOT, RESULTS)}\n`);
  } finally {
    // the servers' own output, for a look afterwards (ids and counts only: the app's logger)
    if (app) fs.writeFileSync(path.join(DATA, "app.log"), app.lines.join("\n") + "\n");
    if (emulator) fs.writeFileSync(path.join(DATA, "emulator.log"), emulator.lines.join("\n") + "\n");
    await app?.stop().catch(() => undefined);
    await emulator?.stop().catch(() => undefined);
    clearTimeout(watchdog);
  }
}

runBenchMain("bench", main);
