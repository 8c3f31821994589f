// `npm run bench:peer`: issue 53's side by side. A peer's ingestion, MaximeMichaud/oura-dashboard's
// `ingestion/` (Python, on a private PostgreSQL), against our emulator with the bench's five-year
// person (servers.ts BENCH_PERSON), beside the fetch floor of the same collections (floor.ts) and
// Ringside's own backfill of them (the sync engine, e2e/bench/peer-engine.ts), run after run.
//
// None of the peer's code is in this repository. PEER_DIR (or the first argument) names it: a
// checkout of https://github.com/MaximeMichaud/oura-dashboard, or a bare clone of it (its HEAD is
// exported to e2e/bench/.data/peer/src). Its Python: PEER_PYTHON, an interpreter that has the peer's
// packages, or else a virtual environment made in e2e/bench/.data/peer/venv with `python3 -m venv`
// and pip (pip's own settings apply: PIP_NO_INDEX / PIP_FIND_LINKS for a machine without PyPI).
//
// What it runs of the peer: its entry point `python -m oura_ingest.cli --once` (one initial sync,
// no scheduler), by a launcher that only points its hard-coded API address at the emulator and
// stands in for `schedule` (its scheduler's package, not used by --once) when that is missing. Its
// collections are what its ALL_ENDPOINTS lists, read from its code at run time; its tables come
// from its postgres/init.sql, applied to a fresh database before each run (not timed).
//
// Each run, in turn: the peer (its process, start to exit), the floor, Ringside (a fresh database
// each). PEER_RUNS runs (3). Prints the figures and writes e2e/bench/results/peer.json. Exit code 0
// when it measured, 1 (and why, and how to get what is missing) when it could not.
//
// `npm run bench` runs it last with --in-bench: without PEER_DIR it says so and ends with 0 (the
// results' floor block keeps peer_s and peer_ratio null); when it measured, it writes the peer's
// seconds and the peer / Ringside ratio into that block of results/latest.json.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { isRingCollection, type RingCollection } from "@/lib/resources";
import { createPostgresDatabase, startPostgresServer } from "../../lib/test/postgres-server.mjs";
import { freePorts, stopGroupsOnExit } from "../../lib/test/processes.mjs";
import { emulatorDocuments, type BenchCollection } from "./backfill";
import { peerEngineFiguresSchema, type PeerEngineFigures, type PeerEngineJob } from "./peer-engine";
import { LATEST_RESULTS, readLatestResults, writeResultsFile } from "./results-file";
import { BENCH_PERSON, benchEmulatorSettings, runBenchMain, startEmulatorProcess, type Running } from "./servers";
import { median, ratio, round } from "./stats";

const ROOT = process.cwd();
const BENCH_DIR = path.join(ROOT, "e2e/bench");
const DATA = path.join(BENCH_DIR, ".data/peer");
const RESULTS = path.join(BENCH_DIR, "results/peer.json");
const RUNS = Number(process.env.PEER_RUNS || 3);
const CLIENT = { client_id: "ringside-bench-peer", client_secret: "ringside-bench-peer-secret-0123456789", approved: true };
const PEER_REPO = "https://github.com/MaximeMichaud/oura-dashboard";
/**
 * The peer's packages: its ingestion/requirements.txt but `schedule` (--once does not use it), with
 * SQLAlchemy below 2.1 (2.1 reads postgresql:// as psycopg 3, which the peer does not list: it
 * stops at its first connection) and tenacity 9 allowed (it asks for < 9; what it uses is unchanged).
 */
const PEER_PACKAGES = ["requests>=2.31,<3", "sqlalchemy>=2.0,<2.1", "psycopg2-binary>=2.9,<3", "tenacity>=8.2,<10"];
const PEER_IMPORTS = "import requests, psycopg2, tenacity, sqlalchemy; assert tuple(map(int, sqlalchemy.__version__.split('.')[:2])) < (2, 1)";

const log = (msg: string) => process.stdout.write(`[bench:peer] ${msg}\n`);
/** run by `npm run bench`, after run.ts and scale.ts */
const IN_BENCH = process.argv.includes("--in-bench");

/** The peer's seconds and the peer / Ringside ratio, into the floor block of the bench's results (run.ts wrote them). */
function publishInLatest(peerS: number, peerRatio: number): void {
  const latest = readLatestResults();
  const parsed = z
    .object({ floor: z.object({ peer_s: z.number().nullable(), peer_ratio: z.number().nullable() }).loose() })
    .loose()
    .parse(latest);
  const next = { ...parsed, floor: { ...parsed.floor, peer_s: peerS, peer_ratio: peerRatio } };
  writeResultsFile(LATEST_RESULTS, next);
  log(`wrote peer_s ${peerS} and peer_ratio ${peerRatio} into ${path.relative(ROOT, LATEST_RESULTS)}`);
}

/** What is missing to run the peer, and how to get it: printed, and the exit code is 1. */
class Missing extends Error {}

/**
 * The launcher (Python): the peer's API address pointed at PEER_API_BASE (its api_client reads the
 * module's BASE_URL at each request), `schedule` stood in for when missing, then its CLI with
 * --once. With PEER_LIST=1 it prints its endpoints instead. The in-process time of the CLI goes to
 * stdout as PEER_SYNC_S.
 */
const LAUNCHER = `
import json, os, sys, time, types
sys.path.insert(0, os.environ["PEER_INGESTION_DIR"])
try:
    import schedule  # noqa: F401
except ImportError:
    sys.modules["schedule"] = types.ModuleType("schedule")
from oura_ingest import api_client
api_client.BASE_URL = os.environ["PEER_API_BASE"].rstrip("/") + "/v2/usercollection"
if os.environ.get("PEER_LIST") == "1":
    from oura_ingest.endpoints import ALL_ENDPOINTS
    print(json.dumps([{"path": e.api_path, "table": e.table} for e in ALL_ENDPOINTS]))
    sys.exit(0)
from oura_ingest import cli
sys.argv = ["oura_ingest", "--once"]
t = time.perf_counter()
cli.main()
print("PEER_SYNC_S %.4f" % (time.perf_counter() - t), flush=True)
`;

/** The peer's sources: a checkout as it is, a bare clone's HEAD exported to DATA/src. Its commit when known. */
function locatePeer(): { dir: string; commit: string | null } {
  const given = process.argv.slice(2).find((a) => !a.startsWith("--")) ?? process.env.PEER_DIR;
  const how =
    `Get the peer's code (it is not part of Ringside) and name it:\n` +
    `  git clone ${PEER_REPO} ../oura-dashboard\n` +
    `  PEER_DIR=../oura-dashboard npm run bench:peer`;
  if (!given) throw new Missing(`PEER_DIR is not set. ${how}`);
  const dir = path.resolve(given);
  const gitDir = fs.existsSync(path.join(dir, ".git")) ? path.join(dir, ".git") : fs.existsSync(path.join(dir, "objects")) ? dir : null;
  const commit = gitDir ? execFileSync("git", ["--git-dir", gitDir, "rev-parse", "HEAD"], { encoding: "utf8" }).trim() : null;
  if (fs.existsSync(path.join(dir, "ingestion/oura_ingest"))) return { dir, commit };
  if (gitDir === dir) {
    const src = path.join(DATA, "src");
    fs.rmSync(src, { recursive: true, force: true });
    fs.mkdirSync(src, { recursive: true });
    const tar = execFileSync("git", ["--git-dir", dir, "archive", "--format=tar", "HEAD", "ingestion", "postgres"]);
    execFileSync("tar", ["-x", "-C", src], { input: tar });
    return { dir: src, commit };
  }
  throw new Missing(`${dir} holds no ingestion/oura_ingest. ${how}`);
}

/** A Python with the peer's packages: PEER_PYTHON, or a virtual environment of the bench's own (made once). */
function peerPython(): string {
  const has = (python: string) => spawnSync(python, ["-c", PEER_IMPORTS], { stdio: "ignore" }).status === 0;
  const offline =
    `pip needs the packages ${PEER_PACKAGES.join(" ")} from PyPI or a local wheel folder ` +
    `(e.g. PIP_NO_INDEX=1 PIP_FIND_LINKS="/opt/pypi/files /opt/pypi-more/files"), or set PEER_PYTHON to a python3 that has them.`;
  if (process.env.PEER_PYTHON) {
    if (has(process.env.PEER_PYTHON)) return process.env.PEER_PYTHON;
    throw new Missing(`PEER_PYTHON (${process.env.PEER_PYTHON}) cannot import the peer's packages. ${offline}`);
  }
  const venv = path.join(DATA, "venv");
  const python = path.join(venv, "bin/python");
  if (fs.existsSync(python) && has(python)) return python;
  const system = process.env.PYTHON || "python3";
  log(`making the peer's Python environment in ${path.relative(ROOT, venv)} (${system} -m venv, pip install ${PEER_PACKAGES.join(" ")}) …`);
  fs.rmSync(venv, { recursive: true, force: true });
  if (spawnSync(system, ["-m", "venv", venv], { stdio: "inherit" }).status !== 0)
    throw new Missing(`${system} -m venv failed: the peer needs Python 3.10 or later with venv.`);
  const pip = spawnSync(python, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", ...PEER_PACKAGES], { stdio: "inherit" });
  if (pip.status !== 0 || !has(python)) throw new Missing(`pip could not install the peer's packages. ${offline}`);
  return python;
}

type PeerEndpoint = { path: RingCollection; table: string };

/** The peer's endpoints (its ALL_ENDPOINTS), each a collection Ringside lists too. */
function peerEndpoints(python: string, ingestionDir: string): PeerEndpoint[] {
  const out = execFileSync(python, ["-c", LAUNCHER], {
    encoding: "utf8",
    env: { ...process.env, PEER_INGESTION_DIR: ingestionDir, PEER_API_BASE: "http://127.0.0.1:9", PEER_LIST: "1" },
  });
  const listed = z.array(z.object({ path: z.string(), table: z.string().regex(/^[a-z_][a-z0-9_]*$/) })).parse(JSON.parse(out.trim().split("\n").at(-1)!));
  const unknown = listed.filter((e) => !isRingCollection(e.path));
  if (unknown.length > 0) throw new Error(`the peer fetches collections Ringside does not list: ${unknown.map((e) => e.path).join(", ")}`);
  return listed as PeerEndpoint[];
}

const post = (body: unknown): RequestInit => ({ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

async function json<T>(url: string, init?: RequestInit): Promise<T> {
  const res = await fetch(url, init);
  const text = await res.text();
  if (!res.ok) throw new Error(`${init?.method ?? "GET"} ${new URL(url).pathname} → ${res.status}: ${text.slice(0, 200)}`);
  return JSON.parse(text) as T;
}

/** The emulator's data requests since its log was last emptied, by collection (then the log emptied). */
async function takeRequests(emu: string): Promise<Record<string, number>> {
  const { requests } = await json<{ requests: { path: string; status: number }[] }>(`${emu}/_emulator/requests?path_prefix=/v2/usercollection/`);
  await fetch(`${emu}/_emulator/requests`, { method: "DELETE" });
  const counts: Record<string, number> = {};
  for (const r of requests) {
    const c = r.path.split("/")[3] ?? "?";
    counts[c] = (counts[c] ?? 0) + 1;
  }
  return counts;
}

type PeerRun = { seconds: number; sync_s: number; requests: number; rows: Record<string, number> };

/** One run of the peer: a fresh database with its schema, its CLI timed from spawn to exit, its rows counted. */
async function runPeer(opts: {
  python: string;
  peerDir: string;
  pgUrl: string;
  emu: string;
  token: string;
  firstDay: string;
  endpoints: PeerEndpoint[];
  logFile: string;
}): Promise<PeerRun> {
  const { default: pg } = await import("pg");
  const database = await createPostgresDatabase(opts.pgUrl, "peer");
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    await client.query(fs.readFileSync(path.join(opts.peerDir, "postgres/init.sql"), "utf8"));
    const url = new URL(database.url);
    await takeRequests(opts.emu);
    const started = performance.now();
    const child = spawn(opts.python, ["-c", LAUNCHER], {
      cwd: path.join(opts.peerDir, "ingestion"),
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        PEER_INGESTION_DIR: path.join(opts.peerDir, "ingestion"),
        PEER_API_BASE: opts.emu,
        OURA_TOKEN: opts.token,
        POSTGRES_HOST: url.hostname,
        POSTGRES_PORT: url.port,
        POSTGRES_DB: database.name,
        POSTGRES_USER: decodeURIComponent(url.username),
        POSTGRES_PASSWORD: "",
        // the person's whole history (the peer's default start, 2020-01-01, is a setting)
        HISTORY_START_DATE: opts.firstDay,
        LOG_LEVEL: "INFO",
      },
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (b: Buffer) => (out += b.toString()));
    child.stderr.on("data", (b: Buffer) => (err += b.toString()));
    const code = await new Promise<number | null>((r) => child.once("exit", r));
    const seconds = (performance.now() - started) / 1000;
    fs.writeFileSync(opts.logFile, err + out);
    const syncLine = /PEER_SYNC_S ([\d.]+)/.exec(out);
    if (code !== 0 || !syncLine) throw new Error(`the peer exited (${code}); its output is in ${path.relative(ROOT, opts.logFile)}`);
    if (/\[(ERROR|CRITICAL)\]/.test(err)) throw new Error(`the peer reported errors; its output is in ${path.relative(ROOT, opts.logFile)}`);
    const requests = Object.values(await takeRequests(opts.emu)).reduce((a, b) => a + b, 0);
    const rows: Record<string, number> = {};
    for (const e of opts.endpoints) rows[e.path] = Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${e.table}`)).rows[0]!.n);
    return { seconds, sync_s: Number(syncLine[1]), requests, rows };
  } finally {
    await client.end();
  }
}

/** The floor or Ringside's backfill, in a process of its own (peer-engine.ts). */
async function runEngine(job: PeerEngineJob): Promise<PeerEngineFigures> {
  const child = spawn(process.execPath, ["--import", "tsx", "--conditions=react-server", path.join(BENCH_DIR, "peer-engine.ts"), JSON.stringify(job)], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  child.stdout.on("data", (c: Buffer) => (out += c.toString()));
  const code = await new Promise<number | null>((r) => child.once("exit", r));
  const line = out.split("\n").find((l) => l.startsWith("PEER_ENGINE "));
  if (code !== 0 || !line) throw new Error(`the ${job.what} measure exited (${code})`);
  return peerEngineFiguresSchema.parse(JSON.parse(line.slice("PEER_ENGINE ".length)));
}

const seconds = (runs: readonly number[]) => ({ seconds: round(median(runs), 2), runs_s: runs.map((s) => round(s, 3)) });

async function main(): Promise<void> {
  stopGroupsOnExit();
  let peer: ReturnType<typeof locatePeer>;
  let python: string;
  try {
    peer = locatePeer();
    python = peerPython();
  } catch (e) {
    if (e instanceof Missing) {
      process.stderr.write(`[bench:peer] cannot run the peer: ${e.message}\n`);
      // in `npm run bench`, a peer not set up is no failure of the bench
      process.exit(IN_BENCH ? 0 : 1);
    }
    throw e;
  }
  fs.mkdirSync(DATA, { recursive: true });
  const ingestionDir = path.join(peer.dir, "ingestion");
  const endpoints = peerEndpoints(python, ingestionDir);
  const collections = endpoints.map((e) => e.path);
  const pythonVersion = execFileSync(python, ["-c", "import platform; print(platform.python_version())"], { encoding: "utf8" }).trim();
  log(
    `peer ${peer.commit?.slice(0, 7) ?? "(no git)"} in ${peer.dir}, Python ${pythonVersion}; its ${collections.length} collections: ${collections.join(", ")}`,
  );

  const [emulatorPort] = await freePorts(1);
  let emulator: Running | null = null;
  let postgres: Awaited<ReturnType<typeof startPostgresServer>> | null = null;
  try {
    emulator = await startEmulatorProcess(
      ROOT,
      benchEmulatorSettings(emulatorPort!, BENCH_PERSON.historyDays, {
        RING_EMULATOR_PAGE_SIZE: String(BENCH_PERSON.pageSize),
        RING_EMULATOR_TIMESERIES_PAGE_SIZE: String(BENCH_PERSON.seriesPageSize),
      }),
    );
    const emu = emulator.url;
    postgres = await startPostgresServer();
    log(`emulator on ${emu}, PostgreSQL on port ${postgres.port}`);
    await json(`${emu}/_emulator/clients`, post({ ...CLIENT, redirect_uris: ["http://127.0.0.1:9/callback"] }));
    const user = await json<{ user_id: string; first_day: string; last_day: string }>(
      `${emu}/_emulator/users`,
      post({ email: `peer-${Date.now().toString(36)}@bench.example.test`, history_days: BENCH_PERSON.historyDays, data_key: BENCH_PERSON.dataKey }),
    );
    // the person's documents generated now (the emulator does it on first use), so that no measure pays for it
    const documents: Record<string, number> = {};
    for (const c of collections) documents[c] = (await emulatorDocuments(emu, user.user_id, c as BenchCollection)).length;
    const totalDocuments = Object.values(documents).reduce((a, b) => a + b, 0);
    log(`the bench person: ${user.first_day} … ${user.last_day}, ${totalDocuments} documents in those collections`);
    const token = await json<{ access_token: string }>(`${emu}/_emulator/tokens`, post({ client_id: CLIENT.client_id, user_id: user.user_id }));
    const job = { emulatorUrl: emu, client: CLIENT, ringUserId: user.user_id, collections };
    // one floor unmeasured first: the emulator's and the machine's first-time costs paid before any run
    await runEngine({ ...job, what: "floor" });

    const peerRuns: PeerRun[] = [];
    const floorRuns: PeerEngineFigures[] = [];
    const ringsideRuns: PeerEngineFigures[] = [];
    for (let i = 0; i < RUNS; i++) {
      const p = await runPeer({
        python,
        peerDir: peer.dir,
        pgUrl: postgres.url,
        emu,
        token: token.access_token,
        firstDay: user.first_day,
        endpoints,
        logFile: path.join(DATA, `peer-${i + 1}.log`),
      });
      const missing = collections.filter((c) => p.rows[c] !== documents[c]);
      if (missing.length > 0)
        log(`  the peer stored other counts than the emulator holds: ${missing.map((c) => `${c} ${p.rows[c]} of ${documents[c]}`).join(", ")}`);
      peerRuns.push(p);
      const f = await runEngine({ ...job, what: "floor" });
      floorRuns.push(f);
      const r = await runEngine({ ...job, what: "ringside" });
      if (r.documents !== totalDocuments) throw new Error(`Ringside stored ${r.documents} documents, the emulator has ${totalDocuments}`);
      ringsideRuns.push(r);
      log(
        `run ${i + 1}/${RUNS}: peer ${round(p.seconds, 2)} s (${round(p.sync_s, 2)} s in its sync, ${p.requests} requests); ` +
          `floor ${round(f.seconds, 2)} s (${f.requests} requests, ${f.in_flight} in flight); Ringside ${round(r.seconds, 2)} s (${r.requests} requests)`,
      );
    }

    const peerS = median(peerRuns.map((r) => r.seconds));
    const floorS = median(floorRuns.map((r) => r.seconds));
    const ringsideS = median(ringsideRuns.map((r) => r.seconds));
    const result = {
      date: new Date().toISOString(),
      node: process.version,
      cores: os.availableParallelism?.() ?? os.cpus().length,
      load_average: os.loadavg().map((l) => round(l, 2)),
      person: { first_day: user.first_day, last_day: user.last_day, documents: totalDocuments, by_collection: documents },
      peer: {
        repo: PEER_REPO,
        commit: peer.commit,
        python: pythonVersion,
        collections,
        ...seconds(peerRuns.map((r) => r.seconds)),
        /** its CLI's own time, Python's start and imports left out */
        sync_runs_s: peerRuns.map((r) => round(r.sync_s, 3)),
        requests: peerRuns[0]!.requests,
        in_flight: 1,
        rows: peerRuns[0]!.rows,
      },
      floor: {
        collections: collections.length,
        ...seconds(floorRuns.map((r) => r.seconds)),
        requests: floorRuns[0]!.requests,
        in_flight: floorRuns[0]!.in_flight,
      },
      ringside: {
        collections: collections.length,
        ...seconds(ringsideRuns.map((r) => r.seconds)),
        requests: ringsideRuns[0]!.requests,
        documents: ringsideRuns[0]!.documents,
        range: ringsideRuns[0]!.range,
      },
      /** the peer's time over Ringside's (issue 53's target: at least 1.5), and each over the floor */
      peer_ratio: ratio(peerS, ringsideS, 2),
      ringside_floor_ratio: ratio(ringsideS, floorS, 2),
      peer_floor_ratio: ratio(peerS, floorS, 2),
    };
    writeResultsFile(RESULTS, result);
    if (IN_BENCH) publishInLatest(result.peer.seconds, result.peer_ratio);
    const span = (runs: readonly number[]) => `${round(Math.min(...runs), 2)}–${round(Math.max(...runs), 2)} s`;
    process.stdout.write(
      `\nOn the peer's ${collections.length} collections, the five-year person (${totalDocuments} documents), ${RUNS} runs, load average ${result.load_average.join(" ")}:\n` +
        `  peer (oura-dashboard ingestion, Python ${pythonVersion}, one request at a time): ${span(result.peer.runs_s)} (median ${result.peer.seconds} s, ${result.peer.requests} requests)\n` +
        `  Ringside's backfill: ${span(result.ringside.runs_s)} (median ${result.ringside.seconds} s, ${result.ringside.requests} requests)\n` +
        `  fetch floor (nothing stored, ${result.floor.in_flight} in flight): ${span(result.floor.runs_s)} (median ${result.floor.seconds} s, ${result.floor.requests} requests)\n` +
        `  peer / Ringside ${result.peer_ratio}× (target ≥ 1.5×); Ringside / floor ${result.ringside_floor_ratio}×; peer / floor ${result.peer_floor_ratio}×\n` +
        `Wrote ${path.relative(ROOT, RESULTS)}\n`,
    );
  } finally {
    if (emulator) fs.writeFileSync(path.join(DATA, "emulator.log"), emulator.lines.join("\n") + "\n");
    await emulator?.stop().catch(() => undefined);
    await postgres?.stop().catch(() => undefined);
  }
}

runBenchMain("bench:peer", main);
