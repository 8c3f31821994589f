// Memory of the app side of a 5-year backfill (page size 100), with the emulator in its own
// process so its in-memory history does not count: the peak resident set of this process
// while the engine fetches, validates and writes ~14,000 documents.
import { spawn, type ChildProcess } from "node:child_process";
import { afterAll, beforeAll, expect, it } from "vitest";
import { registerClient } from "@/lib/emulator/test-utils";
import { connectPerson, type SyncTestEnv } from "@/lib/sync/test-kit";

let child: ChildProcess | null = null;
let url = "";

beforeAll(async () => {
  child = spawn(process.execPath, ["--import", "tsx", "lib/emulator/main.ts"], {
    env: { ...process.env, RING_EMULATOR_PORT: "0", RING_EMULATOR_HOST: "127.0.0.1", RING_EMULATOR_PAGE_SIZE: "100", RING_EMULATOR_HISTORY_DAYS: "1826", LOG_LEVEL: "warn" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  url = await new Promise<string>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`emulator did not start: ${out}`)), 30_000);
    child!.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
  });
  process.env.RING_API_BASE_URL = url;
  process.env.SYNC_DISABLED = "1";
}, 60_000);

afterAll(() => {
  child?.kill("SIGTERM");
});

it("keeps the app's memory low during a 5-year backfill", { timeout: 120_000 }, async () => {
  const client = await registerClient(url, { approved: true });
  const t = { url, client } as unknown as SyncTestEnv;
  const { SyncEngine } = await import("@/lib/sync/engine");
  const person = await connectPerson(t);
  // Warm up the modules and the database (a tiny backfill for another person).
  const warm = await connectPerson(t);
  await new SyncEngine({ clientOptions: { baseUrl: url } }).backfillUser(warm.userId, ["daily_spo2"]);
  global.gc?.();
  const baseline = process.memoryUsage();
  let peakRss = baseline.rss;
  let peakHeap = baseline.heapUsed;
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
  }, 10);
  const engine = new SyncEngine({ clientOptions: { baseUrl: url } });
  const started = performance.now();
  const outcomes = await engine.backfillUser(person.userId);
  const wall = performance.now() - started;
  clearInterval(sampler);
  expect(outcomes.every((o) => o.result === "done")).toBe(true);
  const mb = (b: number) => Math.round(b / 1048576);
  console.log(
    `BACKFILL_MEMORY ${JSON.stringify({ documents: engine.stats.documents, requests: engine.stats.requests, wall_s: +(wall / 1000).toFixed(3), baseline_rss_mb: mb(baseline.rss), peak_rss_mb: mb(peakRss), peak_heap_mb: mb(peakHeap), baseline_heap_mb: mb(baseline.heapUsed) })}`,
  );
  expect(engine.stats.documents).toBeGreaterThan(12_000);
  expect(mb(peakRss)).toBeLessThan(300);
});
