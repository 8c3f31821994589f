// @ts-check
// How the test runners and the bench start servers and other runners: each in a process group
// of its own, on ports chosen at run time, and all of them gone when the caller ends (passed,
// failed, timed out, or stopped with Ctrl-C or SIGTERM).
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import { PARENT_PID_VARIABLE, watchParent } from "../process.mjs";

/** The lowest port the system hands out on its own (to port 0 and outgoing connections). */
function ephemeralLow() {
  try {
    const low = Number(fs.readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 21_000 ? low : 32_768;
  } catch {
    return 32_768;
  }
}

/** @param {number} port @returns {Promise<boolean>} */
function canListen(port) {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/**
 * `n` distinct free TCP ports on 127.0.0.1, below the system's ephemeral range: the system
 * never gives them to a port-0 listener or an outgoing connection, so a port chosen at the
 * start of a run is still free when its server starts minutes later.
 * @param {number} n
 * @returns {Promise<number[]>}
 */
export async function freePorts(n) {
  const low = 20_000;
  const span = ephemeralLow() - low;
  /** @type {number[]} */
  const ports = [];
  for (let tries = 0; ports.length < n && tries < 2_000; tries++) {
    const port = low + Math.floor(Math.random() * span);
    if (!ports.includes(port) && (await canListen(port))) ports.push(port);
  }
  if (ports.length < n) throw new Error(`no ${n} free ports between ${low} and ${low + span}`);
  return ports;
}

/**
 * The same as freePorts, synchronously (a configuration file that cannot await): asks a child
 * Node.js process for them.
 * @param {number} n
 * @returns {number[]}
 */
export function freePortsSync(n) {
  const script = `
    const net = require("node:net");
    const servers = [];
    const out = [];
    let left = ${n};
    for (let i = 0; i < ${n}; i++) {
      const server = net.createServer();
      servers.push(server);
      server.listen(0, "127.0.0.1", () => {
        out.push(server.address().port);
        if (--left === 0) {
          process.stdout.write(out.join(","));
          servers.forEach((s) => s.close());
        }
      });
    }`;
  return execFileSync(process.execPath, ["-e", script], { encoding: "utf8" }).split(",").map(Number);
}

/** @typedef {import("node:child_process").ChildProcess} ChildProcess */

/** Children started by this process, each the leader of its own process group. */
const groups = new Set();
/** Other children to stop with them (servers that must stay in the caller's group). */
const children = new Set();

/**
 * Stops `child` with the groups (on a signal, or when this process exits): for a child that
 * runs in this process's own group, such as a private PostgreSQL server.
 * @param {ChildProcess} child
 */
export function stopWithGroups(child) {
  children.add(child);
  child.once("exit", () => children.delete(child));
}
let stopping = false;
/** Synchronous clean-ups run once the groups are stopped (a cgroup the bench made, for one). @type {Array<() => void>} */
const cleanups = [];

/**
 * Runs `fn` (synchronously, errors ignored) when this process ends with stopGroupsOnExit in
 * place: after the groups are stopped on a signal, or after they are sent SIGKILL when it exits.
 * `fn` may run after its owner cleaned up already: make it idempotent.
 * @param {() => void} fn
 */
export function cleanupOnExit(fn) {
  cleanups.push(fn);
}

function runCleanups() {
  for (const fn of cleanups.splice(0)) {
    try {
      fn();
    } catch {
      /* best effort: the process is ending */
    }
  }
}

/**
 * Starts `cmd` in a process group of its own (so the whole tree it starts can be stopped at
 * once), remembered until it exits.
 * @param {string} cmd
 * @param {string[]} args
 * @param {import("node:child_process").SpawnOptions} opts
 * @returns {ChildProcess}
 */
export function spawnGroup(cmd, args, opts = {}) {
  const child = spawn(cmd, args, { ...opts, detached: true });
  if (child.pid) groups.add(child.pid);
  // a run that is stopping starts nothing more (a lane goes on when its process is stopped)
  if (stopping && child.pid) signalGroup(child.pid, "SIGKILL");
  child.once("exit", () => {
    if (child.pid) groups.delete(child.pid);
  });
  return child;
}

/**
 * Sends `signal` to a process group (quietly: it may be gone already).
 * @param {number} pid
 * @param {NodeJS.Signals} signal
 */
export function signalGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
  } catch {
    // gone, or not a group yet: a child just spawned may not have made its own group (setsid)
    // when the run stops; the leader itself still takes the signal (a run stopped halfway left
    // an eslint behind this way)
    try {
      process.kill(pid, signal);
    } catch {
      /* gone */
    }
  }
}

/** @param {number} pid */
function groupAlive(pid) {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Stops every group this process started: SIGTERM, then SIGKILL for what is still there after
 * `graceMs`.
 * @param {number} graceMs
 */
export async function stopAllGroups(graceMs = 5_000) {
  const pids = [...groups];
  for (const child of children) child.kill("SIGTERM");
  for (const pid of pids) signalGroup(pid, "SIGTERM");
  const until = Date.now() + graceMs;
  while (pids.some(groupAlive) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
  for (const pid of pids) if (groupAlive(pid)) signalGroup(pid, "SIGKILL");
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  groups.clear();
}

/**
 * On Ctrl-C, SIGTERM or SIGHUP: stop every group, then exit (a second signal exits at once).
 * Also stops them when this process exits normally with groups still running. Either way, the
 * clean-ups registered with cleanupOnExit run afterwards.
 */
export function stopGroupsOnExit() {
  for (const sig of /** @type {const} */ (["SIGINT", "SIGTERM", "SIGHUP"])) {
    process.on(sig, () => {
      if (stopping) process.exit(128 + (sig === "SIGINT" ? 2 : sig === "SIGTERM" ? 15 : 1));
      stopping = true;
      process.stderr.write(`\n${sig}: stopping every process this run started…\n`);
      void stopAllGroups(3_000).finally(() => {
        runCleanups();
        process.exit(128 + (sig === "SIGINT" ? 2 : sig === "SIGTERM" ? 15 : 1));
      });
    });
  }
  process.on("exit", () => {
    for (const pid of groups) signalGroup(pid, "SIGKILL");
    for (const child of children) child.kill("SIGKILL");
    runCleanups();
  });
  // `npm test` runs this under a shell: when that shell (or npm) is killed, this process is
  // re-parented and would run on alone; it stops as if sent SIGTERM instead
  watchParent(() => process.kill(process.pid, "SIGTERM"), { env: { [PARENT_PID_VARIABLE]: String(process.ppid) } });
}

/**
 * Resolves with the exit code of a child (1 for a signal).
 * @param {ChildProcess} child
 * @returns {Promise<number>}
 */
export function exited(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve(child.exitCode);
    child.once("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    child.once("error", () => resolve(1));
  });
}
