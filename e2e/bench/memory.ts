// Resident memory of a process, read from /proc/<pid>/status (VmRSS), and a sampler that
// keeps the peak while something runs.
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

/** The ids of the live processes whose parent is `parentPid` (from /proc/<pid>/stat). */
export function childPids(parentPid: number): number[] {
  const out: number[] = [];
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, "utf8");
      // pid (comm) state ppid …: comm may contain spaces and parentheses, so split after the last ")".
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === parentPid) out.push(Number(name));
    } catch {
      /* the process ended meanwhile */
    }
  }
  return out;
}

export type RssSampler = {
  /** stops sampling; the peak and the number of samples taken */
  stop(): { peakMb: number; samples: number };
};

/** Samples `pid`'s RSS every `intervalMs` and keeps the highest value. */
export function sampleRss(pid: number, intervalMs = 50): RssSampler {
  let peak = readRssMb(pid) ?? 0;
  let samples = 1;
  const timer = setInterval(() => {
    const v = readRssMb(pid);
    if (v !== null) {
      samples++;
      if (v > peak) peak = v;
    }
  }, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      const last = readRssMb(pid);
      if (last !== null && last > peak) peak = last;
      return { peakMb: peak, samples };
    },
  };
}
