// Resident memory of a process, read from /proc/<pid>/status (VmRSS), of a whole process group
// (its members' proportional set sizes summed), and a sampler that keeps the peak while
// something runs.
import fs from "node:fs";

/** VmRSS of `pid` in MB, or null when the process is gone (or /proc is unavailable). */
export function readRssMb(pid: number): number | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** The live processes whose /proc/<pid>/stat fields after the command name match `keep` (state, ppid, pgrp, …). */
function processesWhere(keep: (fields: string[]) => boolean): number[] {
  const out: number[] = [];
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, "utf8");
      // pid (comm) state ppid pgrp …: comm may contain spaces and parentheses, so split after the last ")".
      if (keep(stat.slice(stat.lastIndexOf(")") + 2).split(" "))) out.push(Number(name));
    } catch {
      /* the process ended meanwhile */
    }
  }
  return out;
}

/** The ids of the live processes whose parent is `parentPid` (from /proc/<pid>/stat). */
export function childPids(parentPid: number): number[] {
  return processesWhere((f) => Number(f[1]) === parentPid);
}

/** The ids of the processes in process group `pgid`, zombies left out (from /proc/<pid>/stat). */
export function groupPids(pgid: number): number[] {
  return processesWhere((f) => Number(f[2]) === pgid && f[0] !== "Z");
}

/**
 * The proportional set size of `pid` in MB (/proc/<pid>/smaps_rollup: each shared page divided
 * among the processes sharing it), or its VmRSS where the kernel has no smaps_rollup (before
 * 4.14), or null when the process is gone.
 */
export function readPssMb(pid: number): number | null {
  let rollup: string;
  try {
    rollup = fs.readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
  } catch {
    return readRssMb(pid); // gone (null), or no smaps_rollup here
  }
  const m = /^Pss:\s+(\d+)\s+kB/m.exec(rollup);
  return m ? Number(m[1]) / 1024 : readRssMb(pid);
}

/**
 * What the processes of group `pgid` hold together in MB: their PSS summed (the pages of the
 * Node binary that a launcher and its server share counted once, where summed RSS counts them
 * twice), or null when the group is gone.
 */
export function readGroupMb(pgid: number): number | null {
  let sum: number | null = null;
  for (const pid of groupPids(pgid)) {
    const mb = readPssMb(pid);
    if (mb !== null) sum = (sum ?? 0) + mb;
  }
  return sum;
}

export type RssSampler = {
  /** stops sampling; the peak and the number of samples taken */
  stop(): { peakMb: number; samples: number };
};

/** Samples `pid`'s RSS every `intervalMs` and keeps the highest value. */
export function sampleRss(pid: number, intervalMs = 50): RssSampler {
  return sampleMb(() => readRssMb(pid), intervalMs);
}

/** Calls `read` every `intervalMs` (null: nothing to read now) and keeps the highest value. */
export function sampleMb(read: () => number | null, intervalMs = 50): RssSampler {
  let peak = read() ?? 0;
  let samples = 1;
  const timer = setInterval(() => {
    const v = read();
    if (v !== null) {
      samples++;
      if (v > peak) peak = v;
    }
  }, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      const last = read();
      if (last !== null && last > peak) peak = last;
      return { peakMb: peak, samples };
    },
  };
}
