#!/usr/bin/env node
// @ts-check
// `npm start`: the production path. Validates the environment (and, with RING_OAUTH_ISSUER,
// reads the identity provider's discovery document), checks the applied migrations, backs up and
// migrates the database when migrations are pending and checks its foreign keys
// (lib/db/upgrade.mjs; PostgreSQL: migrates under an advisory lock, so of several processes
// starting at once one migrates; its backups are the operator's pg_dump), then serves Next's
// standalone output. Needs only
// runtime dependencies (no Prisma CLI, no dev dependencies).
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadDotenv } from "../load-dotenv.mjs";
import { heapFlags } from "./heap-flags.mjs";
import { childEnv, handleSignals, SHUTDOWN_DEADLINE_MS, stdioState, watchParent, writeLine } from "../process.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
process.chdir(root);

// A reader of this process's output that goes away never stops it (lib/process.mjs).
stdioState();
const log = (/** @type {string} */ level, /** @type {string} */ msg, extra = {}) =>
  writeLine(level === "warn" || level === "error" ? "stderr" : "stdout", JSON.stringify({ level, time: new Date().toISOString(), msg, ...extra }) + "\n");

/** @type {import("node:child_process").ChildProcess | null} */
let child = null;
// SIGTERM/SIGINT (or the process that started this one going away): the server gets the signal
// and its own SHUTDOWN_DEADLINE_MS to stop; it is killed if it is still there after that. A
// second signal kills it at once (handleSignals exits then).
const { trigger } = handleSignals(
  async (reason) => {
    const c = child;
    if (!c || c.exitCode !== null || c.signalCode !== null) return 0;
    const gone = new Promise((resolve) => c.once("exit", (code) => resolve(code ?? 1)));
    c.kill(reason === "SIGINT" ? "SIGINT" : "SIGTERM");
    const killer = setTimeout(() => c.kill("SIGKILL"), SHUTDOWN_DEADLINE_MS + 500);
    const code = await gone;
    clearTimeout(killer);
    return /** @type {number} */ (code);
  },
  { deadlineMs: SHUTDOWN_DEADLINE_MS + 1_500 },
);
watchParent(() => trigger("SIGTERM"));
process.on("exit", () => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

loadDotenv();
let env;
try {
  const mod = await import("../env.mjs");
  env = mod.env;
  // Outside demo mode: no start without the app's own client secret (one message naming it).
  mod.assertRunnableEnv(env);
} catch (e) {
  process.stderr.write(`${/** @type {Error} */ (e).message}\n`);
  process.exit(1);
}

// The newer identity provider (RING_OAUTH_ISSUER): its discovery document must be readable
// before anything starts, or the server stops here with one message naming the variable.
if (env.RING_OAUTH_ISSUER) {
  const { readDiscovery } = await import("../auth/issuer.mjs");
  try {
    const doc = await readDiscovery(env.RING_OAUTH_ISSUER, { timeoutMs: Math.min(env.RING_REQUEST_TIMEOUT_MS, 15_000) });
    log("info", "ring identity provider discovered", { issuer: doc.issuer });
  } catch (e) {
    process.stderr.write(`${/** @type {Error} */ (e).message}\n`);
    process.exit(1);
  }
}

// Without a configured public address the Host header decides it: say so, loudly, every start.
{
  const { publicUrlWarning } = await import("../env.mjs");
  const warning = publicUrlWarning(env);
  if (warning) log("warn", warning);
}

// The standalone server changes its working directory: make every path absolute first.
const dataDir = path.resolve(root, env.DATA_DIR);
const backupDir = path.resolve(root, env.BACKUP_DIR);
fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
const postgres = /^postgres(ql)?:\/\//.test(env.DATABASE_URL);
let databaseUrl = env.DATABASE_URL;

// The database: applied migrations held to their files, a backup before migrating (SQLite),
// the migrations, foreign keys checked (lib/db/upgrade.mjs). A refusal prints what is wrong and
// what to do, and stops here.
const { StartRefusal, upgradePostgres, upgradeSqlite } = await import("../db/upgrade.mjs");
try {
  if (postgres) {
    const applied = await upgradePostgres({ url: env.DATABASE_URL, migrationsDir: path.join(root, "prisma/postgresql/migrations") });
    log("info", applied.length ? "migrations applied" : "database is up to date", { database: "postgresql", count: applied.length, names: applied });
  } else {
    const { sqliteFile } = await import("../db/sqlite.mjs");
    const dbFile = sqliteFile(env.DATABASE_URL); // the working directory is the root (above)
    databaseUrl = `file:${dbFile}`;
    const result = await upgradeSqlite({
      file: dbFile,
      migrationsDir: path.join(root, "prisma/migrations"),
      backupDir,
      keepBackups: env.BACKUP_KEEP_PRE_MIGRATE,
    });
    if (result.backup) log("info", "backup taken before migrating", { backup: path.basename(result.backup), pruned: result.pruned.length });
    if (result.applied.length) log("info", "migrations applied", { count: result.applied.length, names: result.applied });
    else log("info", "database is up to date", { file: path.relative(root, dbFile) });
    // Health data: the database and its WAL are readable by the app's user only.
    for (const f of [dbFile, `${dbFile}-wal`, `${dbFile}-shm`]) if (fs.existsSync(f)) fs.chmodSync(f, 0o600);
  }
} catch (e) {
  if (!(e instanceof StartRefusal)) throw e;
  process.stderr.write(`${e.message}\n`);
  process.exit(1);
}

const { standaloneDir } = await import("./build-dir.mjs");
const standalone = standaloneDir(root);
const server = path.join(standalone, "server.js");
if (!fs.existsSync(server)) {
  process.stderr.write("No production build found. Run `npm run build` first.\n");
  process.exit(1);
}
const { prepareStandalone } = await import("./standalone.mjs");
prepareStandalone(root);

const port = String(env.PORT);
// A home server's memory budget (npm run bench measures it): V8 otherwise lets a long-running
// server's old generation grow by hundreds of MB of garbage before collecting it, and glibc's
// per-thread malloc arenas (libuv's thread pool) keep freed memory. Both are only defaults:
// --max-old-space-size or --max-semi-space-size in NODE_OPTIONS, or MALLOC_ARENA_MAX, wins.
// The young generation: Node 24 lets it grow to 128 MB (two 64 MB semi-spaces) on this kind of
// machine, and a five-year backfill, which makes many short-lived objects, filled it: 16 MB
// semi-spaces held the backfill's RSS peak at 230–235 MB against 306–321 MB, at the same CPU
// (app 5.7–5.9 CPU-s against 5.9–6.3) in backfill-only bench runs. Smaller ones cost CPU: with
// 8 MB the heart-rate ingest was ≈ 20–60 % slower in backfill-only bench runs.
// On a small box (a memory ceiling under 512 MB: a cgroup, a container's limit, which Node reads
// as process.constrainedMemory()) the old generation gets half of the ceiling and the young one
// 4 MB semi-spaces, so V8 collects before the kernel's OOM killer steps in: the bench's small box
// (256 MB, docs/performance.md) ran within a few MB of its ceiling with the defaults below.
// Elsewhere the old generation is capped at 256 MB: Prisma Client's query compiler and generated
// client live in it (about 30 MB), and under the former 192 MB cap the collector took about 40 %
// of the busy CPU in the backfills (5-year backfill 6.3 s against 3.7 s, trends p95 66 ms
// against 26 ms; docs/decisions/0031-prisma-client-at-run-time.md).
const nodeOptions = process.env.NODE_OPTIONS ?? "";
const ceilingMb = Math.floor((process.constrainedMemory?.() ?? 0) / 1048576);
const heap = heapFlags({ nodeOptions, ceilingMb });
if (heap.smallBox) log("info", "small box: V8 heap sized to the memory ceiling", { ceilingMb, flags: heap.flags });
child = spawn(process.execPath, [...heap.flags, server], {
  cwd: standalone,
  stdio: "inherit",
  // the server watches this process (RINGSIDE_PARENT_PID) and handles its own signals
  env: childEnv({
    MALLOC_ARENA_MAX: "2",
    // glibc gives freed memory back (blocks of 128 kB and more are mapped on their own, and a
    // free top of the heap is trimmed) instead of keeping what start-up's compiling used
    MALLOC_MMAP_THRESHOLD_: "131072",
    MALLOC_TRIM_THRESHOLD_: "131072",
    ...process.env,
    NODE_ENV: "production",
    PORT: port,
    HOSTNAME: env.HOST ?? "0.0.0.0",
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    BACKUP_DIR: backupDir,
    NEXT_MANUAL_SIG_HANDLE: "true",
    // An idle keep-alive connection stays open 65 s, not Node's 5 s: a client or a reverse proxy
    // that reuses a connection the server is closing at that moment gets a reset (ECONNRESET, or
    // a proxy's 502); proxies keep idle connections up to 60 s (nginx's default)
    KEEP_ALIVE_TIMEOUT: "65000",
  }),
});

// Wake the in-process scheduler (sync, webhook subscriptions, daily backup) once the server
// answers; it starts lazily on the first /api/health request.
(async () => {
  for (let i = 0; i < 120; i++) {
    await new Promise((r) => setTimeout(r, 500));
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (res.ok) {
        log("info", "ringside is ready", { port: Number(port) });
        return;
      }
    } catch {
      /* not listening yet */
    }
  }
  log("warn", "the server did not answer /api/health within 60 s");
})();

child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
