// Resident memory of a process, read from /proc/<pid>/status (VmRSS), of a whole process group
// (its members' own memory summed, the files they map once), and a sampler that keeps the peak
// while something runs.
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

/** The resident parts of `pid` in MB (/proc/<pid>/status: RssAnon, RssFile, RssShmem), or null when it is gone. */
function readRssPartsMb(pid: number): { anon: number; file: number; shmem: number } | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)\\s+kB`, "m").exec(status)?.[1] ?? Number.NaN) / 1024;
    const parts = { anon: kb("RssAnon"), file: kb("RssFile"), shmem: kb("RssShmem") };
    return Object.values(parts).every(Number.isFinite) ? parts : null;
  } catch {
    return null;
  }
}

/**
 * The memory of process group `pgid` now, in MB, or null when the group is gone:
 * - `largest`: the RSS of its largest process (a launcher's server);
 * - `together`: what its processes hold together, as one machine would: each one's own memory
 *   (anonymous and shared-memory pages) summed, and the mapped files once (the largest such
 *   mapping: the Node binary and its libraries, which a launcher and its server both map, so
 *   summed RSS counts them twice, and which PSS divides with every other Node process on the
 *   machine).
 */
export function readGroupMemory(pgid: number): { largest: number; together: number } | null {
  let own: number | null = null;
  let files = 0;
  let largest = 0;
  for (const pid of groupPids(pgid)) {
    const parts = readRssPartsMb(pid);
    if (!parts) continue;
    own = (own ?? 0) + parts.anon + parts.shmem;
    files = Math.max(files, parts.file);
    largest = Math.max(largest, parts.anon + parts.file + parts.shmem);
  }
  return own === null ? null : { largest, together: own + files };
}

/** What the processes of group `pgid` hold together (readGroupMemory), or null when it is gone. */
export function readGroupMb(pgid: number): number | null {
  return readGroupMemory(pgid)?.together ?? null;
}

/** Samples group `pgid` every `intervalMs` (readGroupMemory) and keeps the peak of each figure. */
export function sampleGroup(pgid: number, intervalMs = 100): { stop(): { largestMb: number; togetherMb: number } } {
  const peak = { largestMb: 0, togetherMb: 0 };
  const take = () => {
    const now = readGroupMemory(pgid);
    if (!now) return;
    peak.largestMb = Math.max(peak.largestMb, now.largest);
    peak.togetherMb = Math.max(peak.togetherMb, now.together);
  };
  take();
  const timer = setInterval(take, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      take();
      return { ...peak };
    },
  };
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
