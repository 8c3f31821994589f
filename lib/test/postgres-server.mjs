// @ts-check
// A private PostgreSQL server for the tests: Debian's `postgresql` binaries, a data directory
// and a socket directory of its own under the system's temp folder, a free TCP port on
// 127.0.0.1, trust authentication for the one superuser, durability off (a test server).
// Started once per test run (lib/test/postgres-global-setup.ts), stopped and deleted after.
// As root (CI), the server runs as the `postgres` user (or `nobody`): PostgreSQL refuses root.
import { execFileSync, spawn } from "node:child_process";
import { stopWithGroups } from "./processes.mjs";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

const SUPERUSER = "ringside";

/**
 * The folder with `initdb` and `postgres`: PG_BIN_DIR, else `pg_config --bindir`, else the
 * newest /usr/lib/postgresql/N/bin, else the PATH. Null when none is installed.
 * @returns {string | null}
 */
export function findPostgresBinDir() {
  /** @type {(dir: string | undefined | null) => boolean} */
  const has = (dir) =>
    Boolean(dir) && fs.existsSync(path.join(/** @type {string} */ (dir), "initdb")) && fs.existsSync(path.join(/** @type {string} */ (dir), "postgres"));
  if (process.env.PG_BIN_DIR) return has(process.env.PG_BIN_DIR) ? process.env.PG_BIN_DIR : null;
  try {
    const dir = execFileSync("pg_config", ["--bindir"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
    if (has(dir)) return dir;
  } catch {
    // no pg_config: look further
  }
  const debian = "/usr/lib/postgresql";
  if (fs.existsSync(debian)) {
    const versions = fs
      .readdirSync(debian)
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    for (const v of versions) if (has(path.join(debian, v, "bin"))) return path.join(debian, v, "bin");
  }
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) if (has(dir)) return dir;
  return null;
}

/** @returns {Promise<number>} */
function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      const port = typeof addr === "object" && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * The uid/gid to run as when this process is root (PostgreSQL will not run as root).
 * @returns {{ uid: number, gid: number } | null}
 */
function unprivilegedUser() {
  if (typeof process.getuid !== "function" || process.getuid() !== 0) return null;
  const passwd = fs.readFileSync("/etc/passwd", "utf8").split("\n");
  for (const name of ["postgres", "nobody"]) {
    const line = passwd.find((l) => l.startsWith(`${name}:`));
    if (line) {
      const [, , uid, gid] = line.split(":");
      return { uid: Number(uid), gid: Number(gid) };
    }
  }
  throw new Error("Running as root with neither a `postgres` nor a `nobody` user: PostgreSQL cannot start.");
}

/**
 * Starts the server; resolves when it accepts connections.
 * @param {{ binDir?: string }} [opts]
 * @returns {Promise<{ url: string, port: number, stop: () => Promise<void>, pause: () => Promise<void>, resume: () => Promise<void> }>}
 */
export async function startPostgresServer(opts = {}) {
  const binDir = opts.binDir ?? findPostgresBinDir();
  if (!binDir) throw new Error("No PostgreSQL server binaries: install Debian's package (sudo apt-get install -y postgresql) or set PG_BIN_DIR.");
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "ringside-pg-"));
  const dataDir = path.join(base, "data");
  const socketDir = path.join(base, "socket");
  fs.mkdirSync(dataDir, { mode: 0o700 });
  fs.mkdirSync(socketDir, { mode: 0o700 });
  const user = unprivilegedUser();
  if (user) {
    fs.chmodSync(base, 0o755);
    for (const d of [dataDir, socketDir]) fs.chownSync(d, user.uid, user.gid);
  }
  const as = user ? { uid: user.uid, gid: user.gid } : {};
  const cleanup = () => fs.rmSync(base, { recursive: true, force: true });
  try {
    execFileSync(path.join(binDir, "initdb"), ["-D", dataDir, "-U", SUPERUSER, "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync"], {
      stdio: ["ignore", "ignore", "pipe"],
      ...as,
    });
  } catch (err) {
    cleanup();
    throw new Error(`initdb failed: ${err instanceof Error ? err.message : String(err)}`);
  }
  const port = await freePort();
  const url = `postgresql://${SUPERUSER}@127.0.0.1:${port}/postgres`;
  const { default: pg } = await import("pg");
  /** @type {import("node:child_process").ChildProcess} */
  let server;
  /** @type {Promise<unknown>} */
  let exited = Promise.resolve();
  // starts the postmaster on the data directory and port; resolves when it accepts connections
  const launch = async () => {
    server = spawn(
      path.join(binDir, "postgres"),
      [
        "-D",
        dataDir,
        "-p",
        String(port),
        "-k",
        socketDir,
        "-c",
        "listen_addresses=127.0.0.1",
        "-c",
        "fsync=off",
        "-c",
        "synchronous_commit=off",
        "-c",
        "full_page_writes=off",
        "-c",
        "max_connections=200",
      ],
      { stdio: ["ignore", "ignore", "pipe"], ...as },
    );
    // stopped with the caller's servers when it is interrupted (lib/test/processes.mjs)
    stopWithGroups(server);
    let log = "";
    server.stderr?.on("data", (b) => {
      log = (log + String(b)).slice(-4000);
    });
    const proc = server;
    exited = new Promise((resolve) => proc.once("exit", resolve));
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (proc.exitCode !== null) {
        cleanup();
        throw new Error(`PostgreSQL exited at start:\n${log}`);
      }
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
      try {
        await client.connect();
        await client.query("SELECT 1");
        await client.end();
        break;
      } catch {
        await client.end().catch(() => {});
        if (Date.now() > deadline) {
          proc.kill("SIGKILL");
          cleanup();
          throw new Error(`PostgreSQL did not accept connections within 30 s:\n${log}`);
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  };
  // fast shutdown (SIGINT): open connections are ended, the data stays
  const halt = async () => {
    if (server.exitCode !== null || server.signalCode !== null) return;
    server.kill("SIGINT");
    const timer = setTimeout(() => server.kill("SIGKILL"), 10_000);
    await exited;
    clearTimeout(timer);
  };
  await launch();

  return {
    url,
    port,
    async stop() {
      await halt();
      cleanup();
    },
    /** Stops the server, keeping its data (an outage); `resume` starts it again on the same port. */
    pause: halt,
    resume: launch,
  };
}

/**
 * A new, empty database on the server (one per test file), and its URL.
 * @param {string} serverUrl
 * @param {string} [prefix]
 */
export async function createPostgresDatabase(serverUrl, prefix = "t") {
  const { default: pg } = await import("pg");
  const name = `${prefix}_${process.pid}_${Math.random().toString(36).slice(2, 10)}`.toLowerCase().replace(/[^a-z0-9_]/g, "_");
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString() };
}
