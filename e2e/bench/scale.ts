// `npm run bench:scale` (and the second half of `npm run bench`): fifty people backfilling at once,
// on SQLite with one process, on PostgreSQL with one process and with two. Each run: a fresh
// database, the production build through `node lib/server/start.mjs` (on ports chosen at run time), fifty
// people created at the emulator (port 4311, no rate limit) with HISTORY_DAYS of history each and
// connected through the real OAuth flow one after another, then the wall time from the first
// connect until every person's every collection is backfilled, and what was stored per second.
// PostgreSQL is a private server from Debian's `postgresql` package (lib/test/postgres-server.mjs).
// Writes e2e/bench/results/scale.json and prints a table. Exit code 1 when it could not measure.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { connectThroughOAuth, emulatorDocuments, BENCH_COLLECTION_NAMES } from "./backfill";
import { freePorts, stopGroupsOnExit } from "../../lib/test/processes.mjs";
import { countCpu, type CpuFigures } from "./cpu";
import { TARGETS } from "./report";
import { buildIsStale, runBenchMain, runBuild, startAppProcess, startEmulatorProcess, useBenchBuildDir, type Running } from "./servers";
import { round } from "./stats";
import { writeResultsFile } from "./results-file";
import { RESOURCES, SERIES_COLLECTIONS, SYNC_COLLECTIONS, tableOf } from "@/lib/resources";
import { CYCLE_RESOURCE } from "@/lib/cycle";
import { createPostgresDatabase, findPostgresBinDir, startPostgresServer } from "@/lib/test/postgres-server.mjs";

const ROOT = process.cwd();
const DATA = path.join(ROOT, "e2e/bench/.data/scale");
const RESULTS = path.join(ROOT, "e2e/bench/results/scale.json");
const PEOPLE = Number(process.env.BENCH_SCALE_PEOPLE ?? 50);
const HISTORY_DAYS = Number(process.env.BENCH_SCALE_DAYS ?? 90);
// ports chosen now; the bench's own build folder; every server stopped when it ends or is interrupted
const [EMULATOR_PORT, ...PORTS] = (await freePorts(3)) as [number, number, number];
useBenchBuildDir();
stopGroupsOnExit();
const CLIENT = { client_id: "ringside-bench-scale", client_secret: "ringside-bench-scale-secret-0123", approved: true };
const TIME_LIMIT_MS = 20 * 60_000;

const log = (msg: string) => process.stdout.write(`[bench:scale] ${msg}\n`);

export type ScaleRun = {
  database: "sqlite" | "postgresql";
  processes: number;
  people: number;
  wall_s: number;
  documents: number;
  samples: number;
  documents_per_s: number;
  rows_per_s: number;
  /** where the run's CPU went: the machine's busy share, and seconds by part (app processes, emulator, PostgreSQL) */
  cpu?: CpuFigures;
};

type Counter = { done(): Promise<number>; stored(): Promise<{ documents: number; samples: number }>; close(): Promise<void> };

const DOCUMENT_TABLES = RESOURCES.filter((r) => !(SERIES_COLLECTIONS as readonly string[]).includes(r.name)).map((r) => r.table);
const SERIES_TABLES = SERIES_COLLECTIONS.map(tableOf);

function sqliteCounter(file: string): Counter {
  let db: Database.Database | null = null;
  const open = () => (db ??= new Database(file, { readonly: true, fileMustExist: true, timeout: 10_000 }));
  const one = (sql: string) => Number(Object.values(open().prepare(sql).get() as Record<string, unknown>)[0] ?? 0);
  return {
    async done() {
      return fs.existsSync(file) ? one(`SELECT COUNT(*) FROM sync_state WHERE backfillDoneAt IS NOT NULL`) : 0;
    },
    async stored() {
      let documents = 0;
      for (const t of DOCUMENT_TABLES) documents += one(`SELECT COUNT(*) FROM "${t}"`);
      let samples = 0;
      for (const t of SERIES_TABLES) samples += one(`SELECT COALESCE(SUM(count), 0) FROM "${t}"`);
      return { documents, samples };
    },
    async close() {
      db?.close();
    },
  };
}

function postgresCounter(url: string): Counter {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const one = async (sql: string) => Number(Object.values((await pool.query(sql)).rows[0] as Record<string, unknown>)[0] ?? 0);
  return {
    async done() {
      return one(`SELECT COUNT(*) FROM sync_state WHERE "backfillDoneAt" IS NOT NULL`);
    },
    async stored() {
      let documents = 0;
      for (const t of DOCUMENT_TABLES) documents += await one(`SELECT COUNT(*) FROM "${t}"`);
      let samples = 0;
      for (const t of SERIES_TABLES) samples += await one(`SELECT COALESCE(SUM(count), 0) FROM "${t}"`);
      return { documents, samples };
    },
    async close() {
      await pool.end();
    },
  };
}

async function post(url: string, body: unknown): Promise<unknown> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

function appEnv(port: number, dataDir: string, databaseUrl: string, emulatorUrl: string): Record<string, string> {
  return {
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    // the people connect through the first process: its address is the OAuth callback's
    AUTH_URL: `http://localhost:${PORTS[0]}`,
    AUTH_SECRET: "bench-auth-secret-not-for-production-0123456789",
    TOKEN_ENCRYPTION_KEY: "6b".repeat(32),
    WEBHOOK_VERIFICATION_TOKEN: "bench-webhook-verification-token",
    RING_API_BASE_URL: emulatorUrl,
    RING_CLIENT_ID: CLIENT.client_id,
    RING_CLIENT_SECRET: CLIENT.client_secret,
    ALLOWED_EMAILS: "*@bench.example.test",
    BACKUP_HOUR: "-1",
    LOG_LEVEL: "info",
    NEXT_TELEMETRY_DISABLED: "1",
  };
}

/** One configuration: fresh database, its processes, fifty connects, every backfill to its end. */
async function measure(opts: {
  database: ScaleRun["database"];
  processes: number;
  databaseUrl: string;
  counter: Counter;
  emulatorUrl: string;
  emulatorPgid: number;
  tag: string;
}): Promise<ScaleRun> {
  const apps: Running[] = [];
  try {
    const started = await Promise.all(
      PORTS.slice(0, opts.processes).map((port, i) =>
        startAppProcess(ROOT, {
          port,
          dataDir: path.join(DATA, `${opts.tag}-${i}`),
          env: appEnv(port, path.join(DATA, `${opts.tag}-${i}`), opts.databaseUrl, opts.emulatorUrl),
        }),
      ),
    );
    apps.push(...started);
    // the people, their history generated at the emulator before the clock starts
    const emails: string[] = [];
    for (let i = 0; i < PEOPLE; i++) {
      const email = `scale-${opts.tag}-${i}-${Date.now().toString(36)}@bench.example.test`;
      const user = (await post(`${opts.emulatorUrl}/_emulator/users`, { email, history_days: HISTORY_DAYS, data_key: `scale-${i}` })) as { user_id: string };
      for (const c of BENCH_COLLECTION_NAMES) await emulatorDocuments(opts.emulatorUrl, user.user_id, c);
      emails.push(email);
    }
    const parts: Record<string, number | `comm:${string}`> = { emulator: opts.emulatorPgid, postgresql: "comm:postgres" };
    apps.forEach((a, i) => (parts[`app ${i + 1}`] = a.child.pid!));
    const cpu = countCpu(parts);
    const t0 = performance.now();
    for (const email of emails) await connectThroughOAuth(`http://127.0.0.1:${PORTS[0]}`, email);
    // every collection but the cycle's phases, fetched only for a person who tracks their cycle (issue 50)
    const want = PEOPLE * SYNC_COLLECTIONS.filter((c) => c !== CYCLE_RESOURCE).length;
    const deadline = Date.now() + 10 * 60_000;
    while ((await opts.counter.done()) < want) {
      if (Date.now() > deadline) throw new Error(`${opts.tag}: ${await opts.counter.done()} of ${want} backfills done after 10 minutes`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const wallS = (performance.now() - t0) / 1000;
    const { documents, samples } = await opts.counter.stored();
    const run: ScaleRun = {
      database: opts.database,
      processes: opts.processes,
      people: PEOPLE,
      wall_s: round(wallS, 1),
      documents,
      samples,
      documents_per_s: Math.round(documents / wallS),
      rows_per_s: Math.round((documents + samples) / wallS),
      cpu: cpu() ?? undefined,
    };
    const where = run.cpu
      ? `; machine ${run.cpu.machine_busy_pct}% busy of ${run.cpu.cores} cores, CPU s ${Object.entries(run.cpu.seconds)
          .map(([k, v]) => `${k} ${v}`)
          .join(", ")}`
      : "";
    log(`${opts.database} × ${opts.processes}: ${run.wall_s} s, ${documents} documents (${run.documents_per_s}/s) and ${samples} samples${where}`);
    return run;
  } finally {
    for (const a of apps) fs.writeFileSync(path.join(DATA, `${opts.tag}-${apps.indexOf(a)}.log`), a.lines.join("\n") + "\n");
    await Promise.all(apps.map((a) => a.stop().catch(() => undefined)));
    await opts.counter.close();
  }
}

async function main(): Promise<void> {
  const watchdog = setTimeout(() => {
    process.stderr.write(`[bench:scale] over the ${TIME_LIMIT_MS / 60_000}-minute limit: stopping\n`);
    process.exit(1);
  }, TIME_LIMIT_MS);
  watchdog.unref();
  if (!findPostgresBinDir()) throw new Error("No PostgreSQL server binaries: install Debian's package (sudo apt-get install -y postgresql) or set PG_BIN_DIR.");
  let emulator: Running | undefined;
  let server: Awaited<ReturnType<typeof startPostgresServer>> | undefined;
  try {
    const stale = buildIsStale(ROOT);
    if (stale) {
      log(`building (${stale}): next build …`);
      runBuild(ROOT, path.join(DATA, "build.log"));
    }
    fs.rmSync(DATA, { recursive: true, force: true });
    fs.mkdirSync(DATA, { recursive: true });
    emulator = await startEmulatorProcess(ROOT, {
      RING_EMULATOR_PORT: String(EMULATOR_PORT),
      RING_EMULATOR_HOST: "127.0.0.1",
      RING_EMULATOR_RATE_LIMIT: "10000000",
      RING_EMULATOR_APP_RATE_LIMIT: "10000000",
      RING_EMULATOR_PAGE_SIZE: "100",
    });
    await post(`${emulator.url}/_emulator/clients`, { ...CLIENT, redirect_uris: [`http://localhost:${PORTS[0]}/api/auth/callback/ring`] });
    server = await startPostgresServer();
    log(`emulator on ${emulator.url}, PostgreSQL on port ${server.port}; ${PEOPLE} people × ${HISTORY_DAYS} days each`);

    const runs: ScaleRun[] = [];
    const sqliteFile = path.join(DATA, "sqlite-0/ringside.db");
    runs.push(
      await measure({
        database: "sqlite",
        processes: 1,
        databaseUrl: `file:${sqliteFile}`,
        counter: sqliteCounter(sqliteFile),
        emulatorUrl: emulator.url,
        emulatorPgid: emulator.child.pid!,
        tag: "sqlite",
      }),
    );
    for (const processes of [1, 2]) {
      const { url } = await createPostgresDatabase(server.url, `scale${processes}`);
      runs.push(
        await measure({
          database: "postgresql",
          processes,
          databaseUrl: url,
          counter: postgresCounter(url),
          emulatorUrl: emulator.url,
          emulatorPgid: emulator.child.pid!,
          tag: `pg${processes}`,
        }),
      );
    }

    const result = {
      date: new Date().toISOString(),
      node: process.version,
      cores: os.availableParallelism?.() ?? os.cpus().length,
      history_days: HISTORY_DAYS,
      runs,
    };
    writeResultsFile(RESULTS, result);
    const sqlite = runs[0]!;
    process.stdout.write(`\nFifty people backfilling at once — ${result.date}, Node ${result.node}, ${result.cores} cores\n\n`);
    const rows = [
      ["Database", "Processes", "Wall (s)", "Documents/s", "Rows/s", "vs SQLite"],
      ...runs.map((r) => [
        r.database,
        String(r.processes),
        String(r.wall_s),
        String(r.documents_per_s),
        String(r.rows_per_s),
        `${round(sqlite.wall_s / r.wall_s, 2)}×`,
      ]),
    ];
    const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
    for (const r of rows) process.stdout.write(r.map((c, i) => c.padEnd(widths[i]!)).join("  ") + "\n");
    const [pg1, pg2] = [runs.find((r) => r.database === "postgresql" && r.processes === 1), runs.find((r) => r.database === "postgresql" && r.processes === 2)];
    if (pg1 && pg2) {
      const speedup = round(pg1.wall_s / pg2.wall_s, 2);
      const met = speedup >= TARGETS.scale_two_processes ? "met" : "NOT met";
      process.stdout.write(`\nTwo processes on PostgreSQL against one: ${speedup}× (target ≥ ${TARGETS.scale_two_processes}×: ${met})\n`);
    }
    process.stdout.write(`\nWrote ${path.relative(ROOT, RESULTS)}\n`);
  } finally {
    if (emulator) fs.writeFileSync(path.join(DATA, "emulator.log"), emulator.lines.join("\n") + "\n");
    await emulator?.stop().catch(() => undefined);
    await server?.stop().catch(() => undefined);
    clearTimeout(watchdog);
  }
}

runBenchMain("bench:scale", main);
