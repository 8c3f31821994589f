// The import's guard (issue 44: an upload cannot burn the server), a step of `npm run bench` and
// of `npm run bench:import`: each of the fuzz corpus's fixed worst cases (lib/test/import-fuzz.ts
// guardCorpus) is posted to the production server by a signed-in person, and the server
// process's CPU time it cost is read from /proc (utime + stime, 10 ms ticks) around it. Then the
// costliest one is posted again while /api/health is asked every 50 ms and another person loads
// Today. Figures: the worst CPU-seconds, the worst per MiB received, /api/health's p95 during the
// worst upload, Today's time then, and how long the 30 kB overlapping ZIP took to be refused.
// Targets: ≤ 60 CPU-s and ≤ 10 CPU-s per MiB, health p95 ≤ 50 ms, Today 200, refused in < 1 s.
import fs from "node:fs";
import { guardCorpus, type FuzzUpload } from "@/lib/test/import-fuzz";
import { connectThroughOAuth } from "./backfill";
import { percentile, round } from "./stats";

export type GuardFigures = {
  worst_cpu_s: number;
  worst_cpu_s_per_mib: number;
  health_p95_ms_during: number;
  /** Today (/) for another person during the worst upload: its time; -1 when it did not answer 200 */
  today_ms_during: number;
  /** the 30 kB ZIP of 255 overlapping entries: from sending to its refusal */
  overlap_refused_ms: number;
};

export const GUARD_TARGETS = { cpu_s: 60, cpu_s_per_mib: 10, health_p95_ms: 50, overlap_refused_ms: 1_000 } as const;

const TICKS_PER_S = 100;

function cpuSecondsOf(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(f[11]) + Number(f[12])) / TICKS_PER_S;
}

export type MeasureGuardOptions = { appUrl: string; serverPid: number; emulatorUrl: string; log: (msg: string) => void };

async function person(opts: MeasureGuardOptions, tag: string): Promise<string> {
  const email = `bench-guard-${tag}-${process.pid}@bench.example.test`;
  const created = await fetch(`${opts.emulatorUrl}/_emulator/users`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, history_days: 30, subscription: "expired" }),
  });
  if (!created.ok) throw new Error(`emulator user: ${created.status}`);
  return (await connectThroughOAuth(opts.appUrl, email)).jar.header();
}

/** Posts one upload; its status, wall time and the server's CPU time around it (the import waits for the slot a moment before: 429). */
async function post(opts: MeasureGuardOptions, cookie: string, u: FuzzUpload): Promise<{ status: number; ms: number; cpuS: number }> {
  for (;;) {
    const cpu0 = cpuSecondsOf(opts.serverPid);
    const started = performance.now();
    const res = await fetch(`${opts.appUrl}/api/import`, {
      method: "POST",
      headers: { "content-type": "application/octet-stream", "x-file-name": u.name, origin: opts.appUrl, cookie },
      body: new Uint8Array(u.data),
    });
    await res.arrayBuffer();
    const ms = performance.now() - started;
    const cpuS = cpuSecondsOf(opts.serverPid) - cpu0;
    if (res.status !== 429) return { status: res.status, ms, cpuS };
    await new Promise((r) => setTimeout(r, 1_000));
  }
}

export async function measureGuard(opts: MeasureGuardOptions): Promise<GuardFigures> {
  const uploader = await person(opts, "uploader");
  const other = await person(opts, "other");
  const corpus = guardCorpus();
  let worst = { what: "", cpuS: 0, perMib: 0 };
  let worstPerMib = 0;
  let overlapMs = Number.POSITIVE_INFINITY;
  for (const u of corpus) {
    const r = await post(opts, uploader, u);
    const mib = u.data.length / 1024 / 1024;
    opts.log(`guard: ${u.what} (${round(mib * 1024, 0)} kB): ${r.status} in ${round(r.ms, 0)} ms, ${round(r.cpuS, 2)} CPU-s`);
    if (r.cpuS > worst.cpuS) worst = { what: u.what, cpuS: r.cpuS, perMib: r.cpuS / mib };
    worstPerMib = Math.max(worstPerMib, r.cpuS / mib);
    if (u.what.startsWith("30 kB ZIP")) overlapMs = r.ms;
  }

  // the costliest again, with /api/health asked every 50 ms and Today loaded for another person
  const costliest = corpus.find((u) => u.what === worst.what) ?? corpus[0]!;
  const health: number[] = [];
  let running = true;
  const prober = (async () => {
    while (running) {
      const t = performance.now();
      const res = await fetch(`${opts.appUrl}/api/health`);
      await res.arrayBuffer();
      health.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  const upload = post(opts, uploader, costliest);
  await new Promise((r) => setTimeout(r, 100));
  const t = performance.now();
  const today = await fetch(`${opts.appUrl}/`, { headers: { cookie: other } });
  await today.arrayBuffer();
  const todayMs = today.status === 200 ? performance.now() - t : -1;
  await upload;
  running = false;
  await prober;

  const figures: GuardFigures = {
    worst_cpu_s: round(worst.cpuS, 2),
    worst_cpu_s_per_mib: round(worstPerMib, 2),
    health_p95_ms_during: round(percentile(health, 95), 1),
    today_ms_during: round(todayMs, 0),
    overlap_refused_ms: round(overlapMs, 0),
  };
  opts.log(
    `guard: worst ${figures.worst_cpu_s} CPU-s (${worst.what}), worst ${figures.worst_cpu_s_per_mib} CPU-s per MiB; during it /api/health p95 ` +
      `${figures.health_p95_ms_during} ms (${health.length} asks), Today ${figures.today_ms_during} ms; the overlapping ZIP refused in ${figures.overlap_refused_ms} ms`,
  );
  return figures;
}
