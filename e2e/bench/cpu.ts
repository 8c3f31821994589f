// Where a measured stretch's CPU went, read from /proc (Linux): the whole machine's busy share,
// and the CPU seconds of each process of interest (the app's servers, the emulator, PostgreSQL).
// The profile behind a scaling figure: when the machine is already busy with one app process,
// a second one cannot make it faster. Of each part's seconds, what V8's own helper threads used
// (its garbage collector's and compilers' workers, named "V8Worker" and the like): the share of a
// Node.js process's CPU that is neither its JavaScript nor its native calls.
import fs from "node:fs";
import os from "node:os";

const TICKS_PER_S = 100; // USER_HZ on Linux

type Proc = { pid: number; pgid: number; comm: string; ticks: number };

function readProcs(): Proc[] {
  const out: Proc[] = [];
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, "utf8");
      const close = stat.lastIndexOf(")");
      const comm = stat.slice(stat.indexOf("(") + 1, close);
      const f = stat.slice(close + 2).split(" "); // f[0] is field 3 (state)
      out.push({ pid: Number(name), pgid: Number(f[2]), comm, ticks: Number(f[11]) + Number(f[12]) });
    } catch {
      /* gone meanwhile */
    }
  }
  return out;
}

/** A V8 helper thread's name ("V8Worker", "V8 DefaultWorke…"; Linux cuts names at 15 characters). */
const V8_HELPER = /^V8[ A-Za-z]*Work/;

/** The ticks of each V8 helper thread of `pid`, by thread id (none when it is gone). */
function v8HelperTicks(pid: number): Map<number, number> {
  const out = new Map<number, number>();
  let tids: string[];
  try {
    tids = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
      const close = stat.lastIndexOf(")");
      if (!V8_HELPER.test(stat.slice(stat.indexOf("(") + 1, close))) continue;
      const f = stat.slice(close + 2).split(" ");
      out.set(Number(tid), Number(f[11]) + Number(f[12]));
    } catch {
      /* gone meanwhile */
    }
  }
  return out;
}

function machine(): { busy: number; total: number } {
  const f = fs.readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = f.reduce((a, b) => a + b, 0);
  return { busy: total - (f[3] ?? 0) - (f[4] ?? 0), total };
}

export type CpuFigures = {
  /** the machine's cores busy over the stretch, % of all of them (anything running counts) */
  machine_busy_pct: number;
  cores: number;
  /** CPU seconds over the stretch, by part */
  seconds: Record<string, number>;
  /** of `seconds`, what each part's V8 helper threads used (garbage collection and compiling) */
  v8_helper_seconds: Record<string, number>;
};

/**
 * Starts counting; the returned function ends the stretch. `parts` names process groups
 * (a process group id each, as spawnGroup starts them) or, with `comm:`, every process of that
 * name (PostgreSQL's server forks one process per connection).
 */
export function countCpu(parts: Record<string, number | `comm:${string}`>): () => CpuFigures | null {
  if (!fs.existsSync("/proc/stat")) return () => null;
  const startMachine = machine();
  const partOf = (p: Proc) => Object.entries(parts).find(([, key]) => (typeof key === "number" ? p.pgid === key : p.comm === key.slice(5)))?.[0];
  const startProcs = readProcs();
  const seen = new Map<number, number>(startProcs.map((p) => [p.pid, p.ticks]));
  const helpersSeen = new Map<number, number>(startProcs.filter((p) => partOf(p)).flatMap((p) => [...v8HelperTicks(p.pid)]));
  return () => {
    const endMachine = machine();
    const seconds: Record<string, number> = {};
    const helpers: Record<string, number> = {};
    for (const p of readProcs()) {
      const part = partOf(p);
      if (!part) continue;
      // a process (or thread) that started during the stretch counts from zero
      seconds[part] = (seconds[part] ?? 0) + (p.ticks - (seen.get(p.pid) ?? 0)) / TICKS_PER_S;
      for (const [tid, ticks] of v8HelperTicks(p.pid)) helpers[part] = (helpers[part] ?? 0) + (ticks - (helpersSeen.get(tid) ?? 0)) / TICKS_PER_S;
    }
    const tenths = (r: Record<string, number>) => {
      for (const k of Object.keys(r)) r[k] = Math.round(r[k]! * 10) / 10;
      return r;
    };
    tenths(seconds);
    tenths(helpers);
    const span = endMachine.total - startMachine.total;
    return {
      machine_busy_pct: span > 0 ? Math.round((100 * (endMachine.busy - startMachine.busy)) / span) : 0,
      cores: os.availableParallelism?.() ?? os.cpus().length,
      seconds,
      v8_helper_seconds: helpers,
    };
  };
}

/**
 * Waits until the machine is quiet: its cores under `belowPct` % busy over one `windowMs`, or
 * `maxMs` have passed. A page's time to its first chart is a person's wait on an idle server, not
 * on one still finishing the work before it (the backfill's last writes, a checkpoint). Returns
 * the milliseconds waited and the last window's busy share.
 */
export async function settle({ belowPct = 15, windowMs = 1000, maxMs = 30_000 } = {}): Promise<{ waited_ms: number; busy_pct: number }> {
  const t0 = performance.now();
  let busy = 0;
  if (!fs.existsSync("/proc/stat")) return { waited_ms: 0, busy_pct: 0 };
  do {
    const a = machine();
    await new Promise((r) => setTimeout(r, windowMs));
    const b = machine();
    busy = b.total > a.total ? Math.round((100 * (b.busy - a.busy)) / (b.total - a.total)) : 0;
  } while (busy >= belowPct && performance.now() - t0 < maxMs);
  return { waited_ms: Math.round(performance.now() - t0), busy_pct: busy };
}
