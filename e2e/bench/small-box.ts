// The small box of `npm run bench`: the app's process group on one CPU (`taskset`) under a real
// memory ceiling. The ceiling is the first of these that this machine allows:
//
//   cgroup-v1  a child of the cgroup v1 memory hierarchy's root: memory.limit_in_bytes (and
//              memory.memsw.limit_in_bytes, so swap is no way round it);
//   cgroup-v2  a child of the cgroup2 root, when its children have the memory controller:
//              memory.max, and memory.swap.max 0;
//   systemd    `systemd-run --scope -p MemoryMax=… -p MemorySwapMax=0` (`--user` when not root);
//   watchdog   none of those: what the group holds (memory.ts readGroupMb: each process's own
//              resident memory, the mapped Node binary once) sampled every 100 ms, SIGKILL
//              above the ceiling.
//
// The kernel's ceilings count what the processes charge (anonymous memory and the page cache
// they fill, which it reclaims first when the ceiling is reached); the watchdog counts resident
// memory. The child cgroups sit at the hierarchy's root, beside whatever cgroup the bench itself
// runs in (not nested in it: that one belongs to whoever started the bench), are named
// ringside-bench-<the bench's pid>, and are removed when the bench ends, also when it is
// interrupted (lib/test/processes.mjs cleanupOnExit); one left by a bench that was killed
// outright is removed by the next run once it is empty. BENCH_SMALL_CEILING=watchdog (or
// cgroup-v1, cgroup-v2, systemd) asks for one method only.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { cleanupOnExit, signalGroup } from "../../lib/test/processes.mjs";
import { readGroupMb } from "./memory";

export const CEILING_METHODS = ["cgroup-v1", "cgroup-v2", "systemd", "watchdog"] as const;
export type CeilingMethod = (typeof CEILING_METHODS)[number];

export type Ceiling = {
  method: CeilingMethod;
  limitMb: number;
  /** the cgroup's directory, the systemd unit, or "watchdog" */
  where: string;
  /** `cmd args` as started inside the ceiling: the process it starts and everything it starts are held by it */
  command(cmd: string, args: string[]): { cmd: string; args: string[] };
  /** after spawning the group led by `pgid` (the watchdog starts watching it; the systemd scope is found) */
  watch(pgid: number): void;
  /** why the ceiling stopped a process of the group (an OOM kill the cgroup counted, the watchdog's kill), or null */
  killedReason(): string | null;
  /** the most the ceiling counted in MB (the cgroup's charge, page cache included, or the watchdog's sum), when it keeps one */
  peakMb(): number | null;
  /** for the log: how hard the ceiling pressed (times the limit was reached, pages read back from disk), when it can tell */
  pressure(): string | null;
  /** stops watching and removes the cgroup once its processes are gone (they must be stopped first); idempotent */
  remove(): void;
};

const PREFIX = "ringside-bench-";
const MB = 1024 * 1024;

/** The command prefix pinning a process to one CPU (the first the bench may use), or null without taskset. */
export function pinToOneCpu(): { prefix: string[]; cpu: number } | null {
  if (spawnSync("taskset", ["--version"], { stdio: "ignore" }).status !== 0) return null;
  let cpu = 0;
  try {
    const allowed = /^Cpus_allowed_list:\s*(\d+)/m.exec(fs.readFileSync("/proc/self/status", "utf8"));
    if (allowed) cpu = Number(allowed[1]);
  } catch {
    /* no /proc: CPU 0 */
  }
  return { prefix: ["taskset", "-c", String(cpu)], cpu };
}

type Mount = { dir: string; fstype: string; options: string };

/** The cgroup mounts this process sees (/proc/self/mountinfo: mount point, type, super options). */
function cgroupMounts(): Mount[] {
  try {
    return fs
      .readFileSync("/proc/self/mountinfo", "utf8")
      .split("\n")
      .flatMap((line) => {
        const [left, right] = line.split(" - ");
        const dir = left?.split(" ")[4];
        const [fstype, , options] = (right ?? "").split(" ");
        return dir && (fstype === "cgroup" || fstype === "cgroup2") ? [{ dir: dir.replace(/\\040/g, " "), fstype, options: options ?? "" }] : [];
      });
  } catch {
    return [];
  }
}

const pidAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
};

const sleepSync = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Removes a cgroup directory once its processes are gone (waits up to `waitMs` for them). */
function removeCgroup(dir: string, waitMs: number): void {
  const until = Date.now() + waitMs;
  for (;;) {
    try {
      fs.rmdirSync(dir);
      return;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "ENOENT") return;
      if (code !== "EBUSY" || Date.now() > until) throw e;
      sleepSync(50);
    }
  }
}

/** Empty ringside-bench-<pid> cgroups under `root` whose bench is gone (one killed outright leaves its own). */
function sweepStale(root: string): void {
  let names: string[] = [];
  try {
    names = fs.readdirSync(root).filter((n) => n.startsWith(PREFIX));
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(name.slice(PREFIX.length));
    if (!Number.isInteger(pid) || pidAlive(pid)) continue;
    try {
      if (fs.readFileSync(path.join(root, name, "cgroup.procs"), "utf8").trim() === "") fs.rmdirSync(path.join(root, name));
    } catch {
      /* still in use, or not ours to remove */
    }
  }
}

/** `sh` writes its own pid into the cgroup, then becomes the command: everything it starts is inside from its first instruction. */
function enterCgroup(procs: string, cmd: string, args: string[]): { cmd: string; args: string[] } {
  return { cmd: "/bin/sh", args: ["-c", 'echo $$ > "$0" || exit 97; exec "$@"', procs, cmd, ...args] };
}

/** A counter line ("oom_kill 2") of a cgroup file, or 0. */
function counter(file: string, name: string): number {
  try {
    const m = new RegExp(`^${name} (\\d+)$`, "m").exec(fs.readFileSync(file, "utf8"));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

function readMb(file: string): number | null {
  try {
    const v = Number(fs.readFileSync(file, "utf8").trim());
    return Number.isFinite(v) ? v / MB : null;
  } catch {
    return null;
  }
}

function oomReason(kills: number, limitMb: number, file: string): string | null {
  return kills > 0
    ? `the kernel's OOM killer stopped ${kills === 1 ? "a process" : `${kills} processes`} of the app at the ${limitMb} MB ceiling (${file})`
    : null;
}

function cgroupV1(limitMb: number, name: string): Ceiling | null {
  const mount = cgroupMounts().find((m) => m.fstype === "cgroup" && m.options.split(",").includes("memory"));
  if (!mount) return null;
  sweepStale(mount.dir);
  const dir = path.join(mount.dir, name);
  try {
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, "memory.limit_in_bytes"), String(limitMb * MB));
    // with swap accounting, the limit of memory + swap too (no more swap than none)
    if (fs.existsSync(path.join(dir, "memory.memsw.limit_in_bytes"))) fs.writeFileSync(path.join(dir, "memory.memsw.limit_in_bytes"), String(limitMb * MB));
  } catch {
    try {
      fs.rmdirSync(dir);
    } catch {
      /* never made */
    }
    return null;
  }
  return cgroupCeiling("cgroup-v1", dir, limitMb, {
    kills: () => counter(path.join(dir, "memory.oom_control"), "oom_kill"),
    killsFile: "memory.oom_control",
    peakFile: "memory.max_usage_in_bytes",
    limitHits: () => Number(fs.readFileSync(path.join(dir, "memory.failcnt"), "utf8").trim()) || 0,
  });
}

function cgroupV2(limitMb: number, name: string): Ceiling | null {
  // a root whose children already have the memory controller (enabling it is the system's choice, not the bench's)
  const mount = cgroupMounts().find((m) => m.fstype === "cgroup2" && readWords(path.join(m.dir, "cgroup.subtree_control")).includes("memory"));
  if (!mount) return null;
  sweepStale(mount.dir);
  const dir = path.join(mount.dir, name);
  try {
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, "memory.max"), String(limitMb * MB));
    if (fs.existsSync(path.join(dir, "memory.swap.max"))) fs.writeFileSync(path.join(dir, "memory.swap.max"), "0");
  } catch {
    try {
      fs.rmdirSync(dir);
    } catch {
      /* never made */
    }
    return null;
  }
  return cgroupCeiling("cgroup-v2", dir, limitMb, {
    kills: () => counter(path.join(dir, "memory.events"), "oom_kill"),
    killsFile: "memory.events",
    peakFile: "memory.peak",
    limitHits: () => counter(path.join(dir, "memory.events"), "max"),
  });
}

function readWords(file: string): string[] {
  try {
    return fs.readFileSync(file, "utf8").trim().split(/\s+/);
  } catch {
    return [];
  }
}

/** How often a cgroup's limit was reached and how many pages its processes read back from disk (memory.stat pgmajfault). */
function cgroupPressure(dir: string, limitHits: () => number): string | null {
  if (!fs.existsSync(dir)) return null;
  return `the limit reached ${limitHits()} times, ${counter(path.join(dir, "memory.stat"), "pgmajfault")} major page faults`;
}

function cgroupCeiling(
  method: CeilingMethod,
  dir: string,
  limitMb: number,
  files: { kills: () => number; killsFile: string; peakFile: string; limitHits: () => number },
): Ceiling {
  let removed = false;
  const remove = () => {
    if (removed) return;
    removed = true;
    removeCgroup(dir, 3_000);
  };
  cleanupOnExit(remove);
  return {
    method,
    limitMb,
    where: dir,
    command: (cmd, args) => enterCgroup(path.join(dir, "cgroup.procs"), cmd, args),
    watch: () => undefined,
    killedReason: () => oomReason(files.kills(), limitMb, `oom_kill in ${files.killsFile}`),
    peakMb: () => readMb(path.join(dir, files.peakFile)),
    pressure: () => cgroupPressure(dir, files.limitHits),
    remove,
  };
}

function systemdScope(limitMb: number, name: string): Ceiling | null {
  if (!fs.existsSync("/run/systemd/system")) return null;
  const user = process.getuid?.() !== 0 ? ["--user"] : [];
  const base = ["--scope", "--quiet", "--collect", ...user, "-p", `MemoryMax=${limitMb}M`, "-p", "MemorySwapMax=0"];
  // the probe: systemd answers, and lets this user set a memory ceiling
  if (spawnSync("systemd-run", [...base, "--", "true"], { stdio: "ignore", timeout: 15_000 }).status !== 0) return null;
  const unit = `${name}.scope`;
  let scopeDir: string | null = null;
  let removed = false;
  const remove = () => {
    if (removed) return;
    removed = true;
    spawnSync("systemctl", [...user, "stop", unit], { stdio: "ignore", timeout: 15_000 });
  };
  cleanupOnExit(remove);
  return {
    method: "systemd",
    limitMb,
    where: unit,
    command: (cmd, args) => ({ cmd: "systemd-run", args: [...base, `--unit=${unit}`, "--", cmd, ...args] }),
    watch(pgid) {
      // the scope's cgroup (cgroup2: one line "0::/path")
      const mount = cgroupMounts().find((m) => m.fstype === "cgroup2");
      try {
        const rel = /^0::(.*)$/m.exec(fs.readFileSync(`/proc/${pgid}/cgroup`, "utf8"))?.[1];
        if (mount && rel) scopeDir = path.join(mount.dir, rel);
      } catch {
        /* already gone */
      }
    },
    killedReason: () =>
      scopeDir ? oomReason(counter(path.join(scopeDir, "memory.events"), "oom_kill"), limitMb, `oom_kill in ${unit}'s memory.events`) : null,
    peakMb: () => (scopeDir ? readMb(path.join(scopeDir, "memory.peak")) : null),
    pressure: () => (scopeDir ? cgroupPressure(scopeDir, () => counter(path.join(scopeDir!, "memory.events"), "max")) : null),
    remove,
  };
}

/** The last resort: the group's summed RSS every 100 ms, the whole group SIGKILLed above the ceiling. */
function watchdog(limitMb: number, intervalMs = 100): Ceiling {
  let timer: NodeJS.Timeout | null = null;
  let reason: string | null = null;
  let peak: number | null = null;
  const stop = () => {
    if (timer) clearInterval(timer);
    timer = null;
  };
  return {
    method: "watchdog",
    limitMb,
    where: "watchdog",
    command: (cmd, args) => ({ cmd, args }),
    watch(pgid) {
      stop();
      timer = setInterval(() => {
        const mb = readGroupMb(pgid);
        if (mb === null) return;
        peak = Math.max(peak ?? 0, mb);
        if (mb > limitMb && !reason) {
          reason = `the watchdog stopped the app: its processes held ${Math.round(mb)} MB resident, above the ${limitMb} MB ceiling`;
          signalGroup(pgid, "SIGKILL");
          stop();
        }
      }, intervalMs);
      timer.unref();
    },
    killedReason: () => reason,
    peakMb: () => peak,
    pressure: () => null,
    remove: stop,
  };
}

/**
 * The memory ceiling this machine allows, tried in the order of CEILING_METHODS (or only
 * `only`): a cgroup of its own named after the bench, kept until `remove()`.
 */
export function createCeiling(limitMb: number, only?: CeilingMethod): Ceiling {
  const name = `${PREFIX}${process.pid}`;
  const attempts: Record<CeilingMethod, () => Ceiling | null> = {
    "cgroup-v1": () => cgroupV1(limitMb, name),
    "cgroup-v2": () => cgroupV2(limitMb, name),
    systemd: () => systemdScope(limitMb, name),
    watchdog: () => watchdog(limitMb),
  };
  for (const method of only ? [only] : CEILING_METHODS) {
    const ceiling = attempts[method]();
    if (ceiling) return ceiling;
  }
  throw new Error(`the ${only} memory ceiling is not possible here`);
}

/** BENCH_SMALL_CEILING, when it names a method. */
export function requestedCeiling(value = process.env.BENCH_SMALL_CEILING): CeilingMethod | undefined {
  if (!value) return undefined;
  if (!(CEILING_METHODS as readonly string[]).includes(value))
    throw new Error(`BENCH_SMALL_CEILING must be one of ${CEILING_METHODS.join(", ")} (got "${value}")`);
  return value as CeilingMethod;
}
