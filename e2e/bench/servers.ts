// The benchmark's own servers: the production build (built when missing or older than the
// sources, into the bench's own folder), the ring emulator and the app through its production
// entry point (`node lib/server/start.mjs`), each on a port chosen at run time and in a process
// group of its own, all stopped when the bench ends or is interrupted.
import { spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { buildDir, standaloneDir } from "../../lib/server/build-dir.mjs";
import { childEnv } from "../../lib/process.mjs";
import { signalGroup, spawnGroup } from "../../lib/test/processes.mjs";
import { childPids } from "./memory";

/**
 * The bench's own build folder (RINGSIDE_BUILD_DIR, e2e/bench/.build unless set): a demo running
 * from .next, or a test run building e2e/.build, never shares files with it, so no lock is needed.
 */
export function useBenchBuildDir(): string {
  process.env.RINGSIDE_BUILD_DIR ||= "e2e/bench/.build";
  return buildDir();
}

const SOURCE_DIRS = ["app", "components", "lib", "public", "prisma/migrations"];
const SOURCE_FILES = ["next.config.mjs", "package.json", "package-lock.json", "tsconfig.json", "prisma/schema.prisma"];

function newestMtime(dir: string): number {
  let newest = 0;
  if (!fs.existsSync(dir)) return 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name === "node_modules" || entry.name === "emulator" || entry.name === "test") continue;
      newest = Math.max(newest, newestMtime(p));
    } else if (!/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith(".md")) {
      newest = Math.max(newest, fs.statSync(p).mtimeMs);
    }
  }
  return newest;
}

/** Why the production build must be (re)made, or null when the build folder's standalone server is current. */
export function buildIsStale(root: string): string | null {
  const server = path.join(standaloneDir(root), "server.js");
  const buildId = path.join(root, buildDir(), "BUILD_ID");
  if (!fs.existsSync(server) || !fs.existsSync(buildId)) return "no production build";
  const built = Math.min(fs.statSync(buildId).mtimeMs, fs.statSync(server).mtimeMs);
  let newest = 0;
  for (const d of SOURCE_DIRS) newest = Math.max(newest, newestMtime(path.join(root, d)));
  for (const f of SOURCE_FILES) if (fs.existsSync(path.join(root, f))) newest = Math.max(newest, fs.statSync(path.join(root, f)).mtimeMs);
  return newest > built ? "sources changed since the last build" : null;
}

/** `next build` into the build folder; its output goes to `logFile`. */
export function runBuild(root: string, logFile: string): void {
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const out = fs.openSync(logFile, "w");
  const r = spawnSync(path.join(root, "node_modules/.bin/next"), ["build"], {
    cwd: root,
    stdio: ["ignore", out, out],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production" },
  });
  fs.closeSync(out);
  if (r.status !== 0) throw new Error(`next build failed (exit ${r.status}); see ${path.relative(root, logFile)}`);
}

export type Running = {
  child: ChildProcess;
  url: string;
  /** every stdout/stderr line so far */
  lines: string[];
  stop(): Promise<void>;
};

function collectLines(child: ChildProcess, lines: string[]): void {
  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) continue;
    readline.createInterface({ input: stream }).on("line", (l) => {
      lines.push(l);
      if (lines.length > 50_000) lines.splice(0, 10_000);
    });
  }
}

/** Stops a server's whole process group: SIGTERM, then SIGKILL after 8 s. */
function stopper(child: ChildProcess): () => Promise<void> {
  return async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((r) => child.once("exit", () => r()));
    signalGroup(child.pid!, "SIGTERM");
    const timer = setTimeout(() => signalGroup(child.pid!, "SIGKILL"), 8_000);
    await exited;
    clearTimeout(timer);
  };
}

/** Starts `node --import tsx lib/emulator/main.ts` with `settings` (RING_EMULATOR_*). */
export async function startEmulatorProcess(root: string, settings: Record<string, string>): Promise<Running> {
  const child = spawnGroup(process.execPath, ["--import", "tsx", "lib/emulator/main.ts"], {
    cwd: root,
    // it exits when the bench is gone, however the bench ended (lib/process.mjs)
    env: childEnv({ ...process.env, ...settings }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: string[] = [];
  collectLines(child, lines);
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the emulator did not start:\n${lines.slice(-20).join("\n")}`)), 60_000);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the emulator exited (${code}):\n${lines.slice(-20).join("\n")}`));
    });
    const check = setInterval(() => {
      const m = lines.map((l) => /listening on (http:\/\/\S+)/.exec(l)).find(Boolean);
      if (m) {
        clearInterval(check);
        clearTimeout(timer);
        resolve(m[1]!);
      }
    }, 20);
  });
  child.removeAllListeners("exit");
  return { child, url, lines, stop: stopper(child) };
}

/** How a command is started instead (inside a memory ceiling, pinned to a CPU): the same process, `exec`ed by a wrapper. */
export type CommandWrapper = (cmd: string, args: string[]) => { cmd: string; args: string[] };

/**
 * Starts the app through its production path on a fresh data directory and waits until
 * /api/health answers (which also starts the sync scheduler). `serverPid` is the standalone
 * server's process (start.mjs's child), whose memory is the app's. `wrap` starts start.mjs
 * through a wrapper that becomes it (the small box's ceiling and `taskset`); `onSpawn` sees the
 * process (the leader of the app's group) as soon as it exists, before the app answers.
 */
export async function startAppProcess(
  root: string,
  opts: { port: number; dataDir: string; env: Record<string, string>; wrap?: CommandWrapper; onSpawn?: (child: ChildProcess) => void },
): Promise<Running & { serverPid: number }> {
  fs.rmSync(opts.dataDir, { recursive: true, force: true });
  fs.mkdirSync(opts.dataDir, { recursive: true });
  const env: NodeJS.ProcessEnv = { ...process.env, ...opts.env };
  delete env.PUBLIC_URL; // no webhook subscriptions: the backfill is measured alone
  const command = (opts.wrap ?? ((cmd, args) => ({ cmd, args })))(process.execPath, ["lib/server/start.mjs"]);
  const child = spawnGroup(command.cmd, command.args, { cwd: root, env: childEnv(env), stdio: ["ignore", "pipe", "pipe"] });
  opts.onSpawn?.(child);
  const lines: string[] = [];
  collectLines(child, lines);
  const url = `http://127.0.0.1:${opts.port}`;
  const started = Date.now();
  let exited: number | null = null;
  child.once("exit", (code) => (exited = code ?? 1));
  for (;;) {
    if (exited !== null) throw new Error(`the app exited (${exited}):\n${lines.slice(-30).join("\n")}`);
    if (Date.now() - started > 120_000) throw new Error(`the app did not answer /api/health within 120 s:\n${lines.slice(-30).join("\n")}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const pids = childPids(child.pid!);
  if (pids.length !== 1) throw new Error(`expected one server process under start.mjs, found ${pids.length}`);
  return { child, url, lines, stop: stopper(child), serverPid: pids[0]! };
}

/**
 * The bench's person at the emulator (run.ts, and peer.ts's side by side): five years of history
 * generated from a fixed data key (the same in every run and on every commit), listed 100
 * documents and about 1,000 time-series rows (RING_EMULATOR_TIMESERIES_PAGE_SIZE, facts §2.2) a page.
 */
export const BENCH_PERSON = { dataKey: "bench-five-years", historyDays: 1826, pageSize: 100, seriesPageSize: 1000 } as const;

/** The ring emulator's settings for a benchmark: no rate limit, `historyDays` of history. */
export function benchEmulatorSettings(port: number, historyDays: number, extra: Record<string, string> = {}): Record<string, string> {
  return {
    RING_EMULATOR_PORT: String(port),
    RING_EMULATOR_HOST: "127.0.0.1",
    RING_EMULATOR_RATE_LIMIT: "10000000",
    RING_EMULATOR_APP_RATE_LIMIT: "10000000",
    RING_EMULATOR_HISTORY_DAYS: String(historyDays),
    ...extra,
  };
}

/**
 * The production app's environment for a benchmark: its own data directory, the emulator as
 * the ring service, the benchmark's OAuth client, people of bench.example.test admitted.
 */
export function benchAppEnv(opts: {
  port: number;
  dataDir: string;
  emulatorUrl: string;
  client: { client_id: string; client_secret: string };
}): Record<string, string> {
  return {
    NODE_ENV: "production",
    PORT: String(opts.port),
    HOST: "127.0.0.1",
    DATA_DIR: opts.dataDir,
    DATABASE_URL: `file:${path.join(opts.dataDir, "ringside.db")}`,
    // what Auth.js puts in redirect_uri (it names the host "localhost" whatever AUTH_URL's host is)
    AUTH_URL: `http://localhost:${opts.port}`,
    AUTH_SECRET: "bench-auth-secret-not-for-production-0123456789",
    TOKEN_ENCRYPTION_KEY: "6b".repeat(32),
    WEBHOOK_VERIFICATION_TOKEN: "bench-webhook-verification-token",
    RING_API_BASE_URL: opts.emulatorUrl,
    RING_CLIENT_ID: opts.client.client_id,
    RING_CLIENT_SECRET: opts.client.client_secret,
    // the measured person becomes the owner by ALLOWED_EMAILS (no setup code to type)
    ALLOWED_EMAILS: "*@bench.example.test",
    LOG_LEVEL: "info",
    NEXT_TELEMETRY_DISABLED: "1",
    // experiments only (e.g. V8 heap flags); unset in published runs
    ...(process.env.BENCH_SERVER_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_SERVER_NODE_OPTIONS } : {}),
  };
}

/** Runs a benchmark's main: exit code 0 when it measured, 1 (and why) when it could not. */
export function runBenchMain(label: string, main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (err: unknown) => {
      process.stderr.write(`[${label}] failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(1);
    },
  );
}
