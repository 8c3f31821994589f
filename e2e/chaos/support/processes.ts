// Processes as the kernel sees them (Linux /proc): a process tree, CPU time, whether a pid is
// still there, and a Ringside process started with output pipes this test owns (so it can play
// a reader that stalls or goes away).
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";

const CLK_TCK = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

type Stat = { pid: number; ppid: number; state: string; cpuTicks: number; comm: string };

function stat(pid: number): Stat | null {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const close = text.lastIndexOf(")");
    const comm = text.slice(text.indexOf("(") + 1, close);
    const f = text.slice(close + 2).split(" ");
    // after the name: state, ppid, … utime (14th field overall), stime (15th)
    return { pid, ppid: Number(f[1]), state: f[0]!, cpuTicks: Number(f[11]) + Number(f[12]), comm };
  } catch {
    return null;
  }
}

/** A short name for a process: its command line's script (start.mjs, main.ts, server.js, run.mjs). */
export function processName(pid: number): string {
  try {
    const args = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
    const script = args.find((a) => /\.(m?js|ts)$/.test(a) && !a.includes("node_modules"));
    return script ? path.basename(script) : (stat(pid)?.comm ?? String(pid));
  } catch {
    return String(pid);
  }
}

/** True while the pid exists and is not a zombie. */
export function alive(pid: number): boolean {
  const s = stat(pid);
  return !!s && s.state !== "Z";
}

/** The pid and every descendant of it, now. */
export function processTree(root: number): number[] {
  const all = fs
    .readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .map(Number);
  const children = new Map<number, number[]>();
  for (const pid of all) {
    const s = stat(pid);
    if (s && s.state !== "Z") children.set(s.ppid, [...(children.get(s.ppid) ?? []), pid]);
  }
  const out: number[] = [];
  const walk = (p: number) => {
    if (!alive(p)) return;
    out.push(p);
    for (const c of children.get(p) ?? []) walk(c);
  };
  walk(root);
  return out;
}

/** Processes (of any parent) whose command line contains `marker`: found even when orphaned. */
export function processesWith(marker: string): number[] {
  const out: number[] = [];
  for (const d of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(d) || Number(d) === process.pid) continue;
    try {
      const cmd = fs.readFileSync(`/proc/${d}/cmdline`, "utf8").replaceAll("\0", " ");
      const env = fs.readFileSync(`/proc/${d}/environ`, "utf8");
      if ((cmd.includes(marker) || env.includes(marker)) && alive(Number(d))) out.push(Number(d));
    } catch {
      /* gone, or not ours to read */
    }
  }
  return out;
}

/**
 * CPU each process used over `ms`, in percent of one core (null for one that exited meanwhile),
 * while `during` runs (e.g. requests that keep arriving).
 */
export async function cpuPercent(pids: number[], ms: number, during?: (signal: AbortSignal) => Promise<unknown>): Promise<Record<number, number | null>> {
  const before = new Map(pids.map((p) => [p, stat(p)?.cpuTicks ?? null]));
  const t0 = performance.now();
  const stop = new AbortController();
  const work = during?.(stop.signal).catch(() => undefined);
  await new Promise((r) => setTimeout(r, ms));
  stop.abort();
  await work;
  const seconds = (performance.now() - t0) / 1000;
  const out: Record<number, number | null> = {};
  for (const p of pids) {
    const a = before.get(p);
    const b = stat(p)?.cpuTicks ?? null;
    out[p] = a === null || a === undefined || b === null ? null : Math.round(((b - a) / CLK_TCK / seconds) * 1000) / 10;
  }
  return out;
}

/** Milliseconds until every pid is gone, or null when some are still there after `timeoutMs`. */
export async function waitGone(pids: number[], timeoutMs: number): Promise<number | null> {
  const t0 = performance.now();
  while (performance.now() - t0 < timeoutMs) {
    if (pids.every((p) => !alive(p))) return Math.round(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 20));
  }
  return pids.every((p) => !alive(p)) ? Math.round(performance.now() - t0) : null;
}

/** Whether something accepts connections on the port. */
export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ port, host: "127.0.0.1" });
    s.once("connect", () => (s.destroy(), resolve(true)));
    s.once("error", () => resolve(false));
  });
}

/** Polls `check` every 50 ms until it holds; the milliseconds it took, or throws after `timeoutMs`. */
export async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs: number): Promise<number> {
  const t0 = performance.now();
  for (;;) {
    if (await check()) return Math.round(performance.now() - t0);
    if (performance.now() - t0 > timeoutMs) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A process of this repository started with stdout and stderr pipes the test reads (or stops reading). */
export type Piped = {
  proc: ChildProcess;
  pid: number;
  /** lines read so far from stdout and stderr */
  lines: string[];
  /** the readers go away: both pipes are closed on this side */
  closeReaders(): void;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
};

export function spawnPiped(args: string[], env: NodeJS.ProcessEnv): Piped {
  const proc = spawn(process.execPath, args, { cwd: path.resolve("."), env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  const lines: string[] = [];
  for (const s of [proc.stdout!, proc.stderr!]) {
    let buf = "";
    s.on("data", (d: Buffer) => {
      buf += d.toString();
      const parts = buf.split("\n");
      buf = parts.pop() ?? "";
      lines.push(...parts);
      if (lines.length > 5_000) lines.splice(0, lines.length - 5_000);
    });
    s.on("error", () => undefined);
  }
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.once("exit", (code, signal) => resolve({ code, signal })),
  );
  return {
    proc,
    pid: proc.pid!,
    lines,
    closeReaders: () => {
      proc.stdout!.destroy();
      proc.stderr!.destroy();
    },
    exited,
  };
}

/** Kills a process group if anything of it is left (cleanup after a failed case). */
export function killGroup(pid: number | undefined): void {
  if (!pid) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    /* gone */
  }
}
