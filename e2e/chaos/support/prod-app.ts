// The production build under test: `node lib/server/start.mjs` (migrate, then Next's standalone
// server) on the suite's own port, its own DATA_DIR under e2e/chaos/.data, stdout and stderr
// appended to a log file (kept across SIGKILLs, scanned for secrets). It runs in its own process
// group, so SIGKILL reaches the server itself and not only the launcher.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { standaloneDir } from "../../../lib/server/build-dir.mjs";
import { ALLOWED_DOMAIN, APP_PORT, APP_URL, CHAOS_CLIENT, CHAOS_DATA_DIR, CHAOS_SECRETS, EMULATOR_URL } from "./env";

const ROOT = path.resolve(".");
const SERVER = path.join(standaloneDir(ROOT), "server.js");

/**
 * The suite never builds: `npm test` builds once, up front (RINGSIDE_BUILD_DIR), and every
 * case runs that build. Run alone, the suite needs `npm run build` (or RINGSIDE_BUILD_DIR
 * pointing at a build) first.
 */
export function ensureBuild(): void {
  if (!fs.existsSync(SERVER)) {
    throw new Error(`no production build at ${path.relative(ROOT, SERVER)}: run \`npm run build\` first (npm test builds it itself)`);
  }
}

export type ProdAppOptions = {
  /** directory name under e2e/chaos/.data (wiped at start) */
  name: string;
  /** over the suite's settings; undefined removes one */
  env?: Record<string, string | undefined>;
  /** keep an existing data directory (a restored backup, or a second process on the same file) */
  keepData?: boolean;
  /** another port than the suite's (a second process beside the first; its log is app-<name>-<port>.log) */
  port?: number;
};

export type ProdApp = {
  url: string;
  dataDir: string;
  dbFile: string;
  logFile: string;
  readonly pid: number | null;
  readonly starts: number;
  start(): Promise<void>;
  /** SIGKILL to the whole process group (launcher and server); resolves when it is gone. */
  kill(): Promise<void>;
  stop(): Promise<void>;
  logs(): string;
  request(pathname: string, init?: RequestInit): Promise<Response>;
};

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
  });
}

async function waitHealthy(url: string, child: ChildProcess, logFile: string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`the app exited during start (${child.exitCode ?? child.signalCode}):\n${fs.readFileSync(logFile, "utf8").slice(-3000)}`);
    }
    try {
      const res = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2_000) });
      if (res.ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the app did not answer /api/health within ${timeoutMs} ms`);
}

/** Production processes this test process started: never left behind, even when a test fails hard. */
const running = new Set<ChildProcess>();
process.once("exit", () => {
  for (const p of running) {
    try {
      if (p.pid) process.kill(-p.pid, "SIGKILL");
    } catch {
      /* gone */
    }
  }
});

/**
 * The production app's environment: a clean one (nothing of the test process — VITEST, its
 * DATABASE_URL... — leaks in); `overrides` may remove a variable by giving it as undefined.
 */
export function prodEnv(dataDir: string, overrides: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: process.env.HOME ?? "/tmp",
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    PORT: String(APP_PORT),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    DATABASE_URL: `file:${path.join(dataDir, "ringside.db")}`,
    AUTH_URL: APP_URL,
    ...CHAOS_SECRETS,
    RING_API_BASE_URL: EMULATOR_URL,
    RING_CLIENT_ID: CHAOS_CLIENT.client_id,
    RING_CLIENT_SECRET: CHAOS_CLIENT.client_secret,
    RING_REQUEST_TIMEOUT_MS: "10000",
    ALLOWED_EMAILS: `*@${ALLOWED_DOMAIN}`,
    BACKUP_HOUR: "-1",
    LOG_LEVEL: "debug",
    // the suite's clock (lib/test/suite-env.mjs) and its build
    RINGSIDE_NOW: process.env.RINGSIDE_NOW,
    // the launcher exits when this test process is gone, however it ended (lib/process.mjs)
    RINGSIDE_PARENT_PID: String(process.pid),
    RINGSIDE_BUILD_DIR: process.env.RINGSIDE_BUILD_DIR,
    // alert channels in the cases post to receivers on this machine
    ALERT_ALLOWED_PRIVATE_HOSTS: "127.0.0.1",
    ...overrides,
  };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete env[k];
  return env;
}

/**
 * Runs the production start (`node lib/server/start.mjs`) with this environment and expects it
 * to refuse: resolves with its exit code and output once it exits, or with `code: null` if it
 * was still running (and answering or not) after `timeoutMs` (then it is killed).
 */
export async function startupAttempt(opts: {
  name: string;
  env: Record<string, string | undefined>;
  timeoutMs?: number;
}): Promise<{ code: number | null; output: string; answered: boolean }> {
  ensureBuild();
  const dataDir = path.join(CHAOS_DATA_DIR, opts.name);
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  const logFile = path.join(CHAOS_DATA_DIR, "logs", `app-${opts.name}.log`);
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const out = fs.openSync(logFile, "w");
  const proc = spawn(process.execPath, ["lib/server/start.mjs"], { cwd: ROOT, env: prodEnv(dataDir, opts.env), detached: true, stdio: ["ignore", out, out] });
  fs.closeSync(out);
  running.add(proc);
  const gone = exited(proc).then(() => running.delete(proc));
  let answered = false;
  const deadline = Date.now() + (opts.timeoutMs ?? 30_000);
  while (proc.exitCode === null && proc.signalCode === null && Date.now() < deadline) {
    try {
      await fetch(`${APP_URL}/api/health`, { signal: AbortSignal.timeout(500) });
      answered = true;
    } catch {
      /* not listening */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const code = proc.exitCode;
  if (code === null) {
    try {
      process.kill(-proc.pid!, "SIGKILL");
    } catch {
      /* gone */
    }
  }
  await gone;
  if (answered || code === null) await waitPortFree();
  return { code, output: fs.readFileSync(logFile, "utf8"), answered };
}

/** The server process under the launcher (whose pid ProdApp.pid is), for its memory. */
export function serverPid(launcherPid: number): number | null {
  try {
    const children = fs.readFileSync(`/proc/${launcherPid}/task/${launcherPid}/children`, "utf8").trim().split(/\s+/).filter(Boolean);
    return children.length ? Number(children[0]) : null;
  } catch {
    return null;
  }
}

/** Resident memory of a process in MB (VmRSS), or null when it is gone. */
export function rssMb(pid: number | null): number | null {
  if (!pid) return null;
  try {
    const m = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Math.round(Number(m[1]) / 1024) : null;
  } catch {
    return null;
  }
}

/** Starts the production app (build first when missing). */
export async function startProdApp(opts: ProdAppOptions): Promise<ProdApp> {
  ensureBuild();
  const dataDir = path.join(CHAOS_DATA_DIR, opts.name);
  if (!opts.keepData) fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  const dbFile = path.join(dataDir, "ringside.db");
  const port = opts.port ?? APP_PORT;
  const url = opts.port ? `http://localhost:${port}` : APP_URL;
  const logFile = path.join(CHAOS_DATA_DIR, "logs", `app-${opts.name}${opts.port ? `-${port}` : ""}.log`);
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  fs.writeFileSync(logFile, "");

  const env = prodEnv(dataDir, { PORT: String(port), ...opts.env });

  let child: ChildProcess | null = null;
  let starts = 0;
  const app: ProdApp = {
    url,
    dataDir,
    dbFile,
    logFile,
    get pid() {
      return child?.pid ?? null;
    },
    get starts() {
      return starts;
    },
    async start() {
      if (child && child.exitCode === null && child.signalCode === null) throw new Error("already running");
      // Someone else on the port would answer the health check for us: refuse to start then.
      await waitPortFree(5_000, url).catch(() => {
        throw new Error(`port ${port} is already in use (a production app left running?)`);
      });
      const out = fs.openSync(logFile, "a");
      const proc = spawn(process.execPath, ["lib/server/start.mjs"], { cwd: ROOT, env, detached: true, stdio: ["ignore", out, out] });
      child = proc;
      running.add(proc);
      proc.once("exit", () => running.delete(proc));
      fs.closeSync(out);
      starts++;
      await waitHealthy(url, proc, logFile);
    },
    async kill() {
      if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
      const gone = exited(child);
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        /* already gone */
      }
      await gone;
      // The server is a child of the launcher: wait until the port is free again.
      await waitPortFree(undefined, url);
    },
    async stop() {
      if (child?.pid && child.exitCode === null && child.signalCode === null) {
        const gone = exited(child);
        try {
          process.kill(-child.pid, "SIGTERM");
        } catch {
          /* gone */
        }
        const timer = setTimeout(() => {
          try {
            process.kill(-child!.pid!, "SIGKILL");
          } catch {
            /* gone */
          }
        }, 5_000);
        await gone;
        clearTimeout(timer);
        await waitPortFree(undefined, url);
      }
    },
    logs: () => fs.readFileSync(logFile, "utf8"),
    request: (pathname, init) => fetch(`${url}${pathname}`, { redirect: "manual", ...init }),
  };
  try {
    await app.start();
  } catch (e) {
    await app.stop();
    throw e;
  }
  return app;
}

async function waitPortFree(timeoutMs = 10_000, url = APP_URL): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(500) });
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("the app's port is still answering after it was stopped");
}
