// A quick run of the benchmark's measuring code (e2e/bench/*.ts) at tiny sizes, in-process,
// so `npm test` keeps it working: 30 days of history through the real sync engine against the
// in-process emulator, trend reads through a short-lived HTTP server, one second of signed
// webhooks through the real route handler, the fetch floor against the engine's own requests
// and the time to Today, the memory sampler, the small box's ceiling and pinning (a process that
// outgrows a 64 MB ceiling is stopped and the reason told, by the method this machine allows and
// by the watchdog that every machine allows) and the published shape.
// No performance thresholds here (`npm run bench` measures; the figures are its business);
// the pages are not measured (they need a production build).
import { getResource, isSeriesCollection } from "@/lib/resources";
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { clock } from "@/lib/clock";
import { connectPerson, standingEmulator, startSyncTestEnv, type ConnectedPerson, type SyncTestEnv } from "@/lib/test/sync-kit";
import {
  BENCH_COLLECTION_NAMES,
  countListRequests,
  createSchemaDatabase,
  emulatorDocuments,
  ingestFromLog,
  minimumRequests,
  rawUpsertBaseline,
  todayTargets,
  waitForBackfill,
  waitForToday,
  type BenchCollection,
  type Doc,
} from "./backfill";
import { TODAY_COLLECTIONS } from "@/lib/metrics/today-layout";
import { FLOOR_TARGETS, floorBlock, floorCollections, floorRequests, measureFloor, readBackfillRange, wireBlock, wireLines, withWireBlock } from "./floor";
import { compareLayouts, countSeriesRequests, emulatorHeartRate, measureDayReads, rawSampleInsert, seriesIngestFromLog } from "./heart-rate";
import { countCpu } from "./cpu";
import { childPids, groupPids, readGroupMb, readGroupMemory, readRssMb, sampleGroup, sampleRss } from "./memory";
import { checkTargets, formatTable, isBenchResult, type BenchResult, type SmallBoxResult } from "./report";
import { writeResultsFile } from "./results-file";
import { createCeiling, pinToOneCpu, requestedCeiling } from "./small-box";
import { exited, spawnGroup } from "../../lib/test/processes.mjs";
import { percentile, ratio } from "./stats";
import { addDays, answerBytes, measureTrends, rawDailyColumnReader } from "./trends";
import { measureWebhooks, signNotification } from "./webhooks";

const PAGE_SIZE = 10;
const HISTORY_DAYS = 30;

let t: SyncTestEnv;
let person: ConnectedPerson;
let server: http.Server | null = null;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "ringside-bench-smoke-"));
const dbFile = () => (process.env.DATABASE_URL ?? "").replace(/^file:/, "");

beforeAll(async () => {
  t = await startSyncTestEnv({ pageSize: PAGE_SIZE, historyDays: HISTORY_DAYS }, {}, standingEmulator(clock.now()));
  person = await connectPerson(t);
});

afterAll(async () => {
  if (server) await new Promise<void>((r) => server!.close(() => r()));
  await t?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** Serves `handler` on a free localhost port for the duration of the test. */
async function serve(handler: (req: Request) => Promise<Response>): Promise<string> {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
      const body = req.method === "GET" ? undefined : Buffer.concat(chunks);
      void handler(new Request(`http://localhost${req.url}`, { method: req.method, headers, body })).then(async (r) => {
        res.writeHead(r.status, { "content-type": r.headers.get("content-type") ?? "application/json" });
        res.end(Buffer.from(await r.arrayBuffer()));
      });
    });
  });
  await new Promise<void>((r) => server!.listen(0, "127.0.0.1", () => r()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

it(
  "measures a backfill: done per the database, requests against the minimum, ingest from the engine's log, the raw baseline",
  { timeout: 30_000 },
  async () => {
    const { SyncEngine } = await import("@/lib/sync/engine");
    const docs = new Map<BenchCollection, Doc[]>();
    for (const c of BENCH_COLLECTION_NAMES) docs.set(c, await emulatorDocuments(t.url, person.ringUserId, c));
    const documents = [...docs.values()].reduce((n, d) => n + d.length, 0);
    const minRequests = minimumRequests(
      [...docs.values()].map((d) => d.length),
      PAGE_SIZE,
    );
    expect(documents).toBeGreaterThan(HISTORY_DAYS * 6);
    await fetch(`${t.url}/_emulator/requests`, { method: "DELETE" });

    // The engine's "backfill finished" lines, as the app writes them to stdout.
    process.env.LOG_LEVEL = "info";
    const lines: string[] = [];
    const spy = vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
      lines.push(...(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8")).split("\n").filter(Boolean));
      return true;
    });
    const rss = sampleRss(process.pid, 20);
    const engine = new SyncEngine({ concurrency: 4 });
    const waiting = waitForBackfill(dbFile(), person.email, { timeoutMs: 20_000, pollMs: 10 });
    let outcomes;
    try {
      outcomes = await engine.backfillUser(person.userId, BENCH_COLLECTION_NAMES);
    } finally {
      spy.mockRestore();
      process.env.LOG_LEVEL = "warn";
    }
    const { state } = await waiting;
    const peak = rss.stop();
    expect(outcomes.every((o) => o.result === "done")).toBe(true);
    expect(state).toMatchObject({ userId: person.userId, done: BENCH_COLLECTION_NAMES.length, documents });
    expect(peak.peakMb).toBeGreaterThan(0);

    const requests = await countListRequests(t.url, person.ringUserId);
    expect(requests.total).toBe(engine.stats.requests);
    expect(requests.total).toBeGreaterThanOrEqual(minRequests);
    expect(Object.keys(requests.byCollection).sort()).toEqual([...BENCH_COLLECTION_NAMES].sort());

    const ingest = ingestFromLog(lines, person.userId);
    expect(ingest).toMatchObject({ collections: BENCH_COLLECTION_NAMES.length, documents, pages: engine.stats.pages });
    expect(ingest.ingestMs).toBeCloseTo(engine.stats.ingestMs, -1);
    expect(ingest.mapMs).toBeLessThanOrEqual(ingest.ingestMs);
    expect(ingestFromLog(lines, "someone-else").collections).toBe(0);

    const file = path.join(tmp, "raw.db");
    await createSchemaDatabase(file);
    const raw = rawUpsertBaseline(file, person.userId, docs);
    expect(raw.rows).toBe(documents);
    expect(raw.ms).toBeGreaterThan(0);
    expect(ratio(ingest.ingestMs, raw.ms)).toBeGreaterThan(0);
  },
);

it(
  "measures the heart-rate backfill: its requests, its ingest from the log against a raw insert, a day's curve read, the two layouts",
  { timeout: 30_000 },
  async () => {
    const { SyncEngine } = await import("@/lib/sync/engine");
    const heart = await emulatorHeartRate(t.url, person.ringUserId);
    expect(heart.length).toBeGreaterThan(HISTORY_DAYS * 100);
    await fetch(`${t.url}/_emulator/requests`, { method: "DELETE" });
    process.env.LOG_LEVEL = "info";
    const lines: string[] = [];
    const spy = vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
      lines.push(...(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8")).split("\n").filter(Boolean));
      return true;
    });
    const engine = new SyncEngine();
    try {
      expect((await engine.backfillUser(person.userId, ["heartrate"]))[0]?.result).toBe("done");
    } finally {
      spy.mockRestore();
      process.env.LOG_LEVEL = "warn";
    }
    expect(await countSeriesRequests(t.url, person.ringUserId)).toBe(engine.stats.requests);
    const ingest = seriesIngestFromLog(lines, person.userId, "heartrate");
    expect(ingest?.pages).toBe(engine.stats.pages);
    // a sample on a window's bound comes twice (ingested twice, stored once)
    expect(ingest!.samples).toBeGreaterThanOrEqual(heart.length);
    expect(ingest!.samples).toBeLessThanOrEqual(heart.length + engine.stats.pages);
    const { seriesSummary } = await import("@/lib/db/queries/time-series");
    expect((await seriesSummary("heartrate", person.userId)).documents).toBe(heart.length);
    expect(seriesIngestFromLog(lines, "someone-else", "heartrate")).toBeNull();
    const rawFile = path.join(tmp, "raw-heart.db");
    expect(rawSampleInsert(rawFile, person.userId, heart).ms).toBeGreaterThan(0);
    const days = [...new Set(heart.map((r) => r.timestamp.slice(0, 10)))];
    const reads = measureDayReads({ appDb: dbFile(), rawDb: rawFile, userId: person.userId, days, warmup: 2, iterations: 20 });
    expect(reads.points).toBeGreaterThan(50);
    expect(reads.p95_ms).toBeGreaterThan(0);
    const layouts = compareLayouts(tmp, person.userId, heart);
    expect(layouts.packed.mb).toBeLessThan(layouts.rows.mb);
    for (const l of [layouts.rows, layouts.packed]) expect(l.ingest_s).toBeGreaterThan(0);
  },
);

it("measures trend reads against the raw query of the same rows", { timeout: 20_000 }, async () => {
  const { getMetricSeries } = await import("@/lib/services/metrics");
  const { getMetric } = await import("@/lib/metrics/catalog");
  const { warmupFrom } = await import("@/lib/metrics/series");
  const to = (await import("@/lib/db")).rawDb().prepare(`SELECT max(day) AS d FROM daily_sleep WHERE userId = ?`).get(person.userId) as { d: string };
  const from = addDays(to.d, -(HISTORY_DAYS - 1));
  const url = await serve(async (req) => {
    const q = new URL(req.url).searchParams;
    return Response.json(await getMetricSeries({ userId: person.userId, metric: getMetric("sleep.score"), from: q.get("from")!, to: q.get("to")! }));
  });
  const reader = rawDailyColumnReader(dbFile(), "daily_sleep", "score");
  try {
    const figures = await measureTrends({
      warmup: 2,
      iterations: 10,
      api: async () => {
        const res = await fetch(`${url}/?from=${from}&to=${to.d}`);
        expect(res.status).toBe(200);
        await res.arrayBuffer();
      },
      raw: () => reader.read(person.userId, warmupFrom(from, to.d), to.d),
      also: { again: async () => void (await (await fetch(`${url}/?from=${from}&to=${to.d}`)).arrayBuffer()) },
    });
    expect(figures.iterations).toBe(10);
    expect(figures.also_p95_ms.again).toBeGreaterThan(0);
    // every stored night of the range (the generated person skips some: no fixed count)
    const stored = (await import("@/lib/db"))
      .rawDb()
      .prepare(`SELECT count(*) AS n FROM daily_sleep WHERE userId = ? AND day >= ? AND day <= ?`)
      .get(person.userId, warmupFrom(from, to.d), to.d) as { n: number };
    expect(stored.n).toBeGreaterThan(0);
    expect(figures.rows).toBe(stored.n);
    expect(figures.p95_ms).toBeGreaterThanOrEqual(figures.p50_ms);
    expect(figures.raw_p95_ms).toBeGreaterThan(0);
    // the ratio of the unrounded figures, within what rounding them (2 and 3 decimals) allows: the
    // raw read takes about 0.01 ms, so its rounding alone moves the ratio by several per cent
    const { p95_ms: p95, raw_p95_ms: raw } = figures;
    expect(figures.ratio).toBeGreaterThanOrEqual((p95 - 0.005) / (raw + 0.0005) - 0.005);
    expect(figures.ratio).toBeLessThanOrEqual(raw > 0.0005 ? (p95 + 0.005) / (raw - 0.0005) + 0.005 : Infinity);
    // the answer's bytes, now (columns) and in the shape it had before
    const { getSeriesColumns } = await import("@/lib/services/metrics");
    const { decodeSeries } = await import("@/lib/metrics/columns");
    const sent = JSON.stringify(await getSeriesColumns({ userId: person.userId, metric: getMetric("sleep.score"), from, to: to.d }));
    const bytes = answerBytes(sent, decodeSeries(JSON.parse(sent)));
    expect(bytes.json).toBe(Buffer.byteLength(sent));
    expect(bytes.gzip).toBeLessThan(bytes.json);
    expect(bytes.json_before).toBeGreaterThan(bytes.json);
  } finally {
    reader.close();
    await new Promise<void>((r) => server!.close(() => r()));
    server = null;
  }
});

it("sends validly signed, distinct notifications through the real webhook route", { timeout: 20_000 }, async () => {
  const route = await import("@/app/api/webhooks/ring/route");
  const { rawDb } = await import("@/lib/db");
  const before = (rawDb().prepare(`SELECT COUNT(*) AS n FROM webhook_event`).get() as { n: number }).n;
  const url = await serve((req) => route.POST(req));
  const figures = await measureWebhooks({
    url: `${url}/api/webhooks/ring`,
    secret: t.client.client_secret,
    userId: person.ringUserId,
    connections: 2,
    durationS: 1,
  });
  const after = (rawDb().prepare(`SELECT COUNT(*) AS n FROM webhook_event`).get() as { n: number }).n;
  expect(figures.non2xx).toBe(0);
  expect(figures.errors).toBe(0);
  expect(figures.acked).toBeGreaterThan(0);
  // each one recorded as new (no duplicates among them); requests in flight at the end are
  // recorded without being counted as acknowledged
  expect(after - before).toBeGreaterThanOrEqual(figures.acked);
  expect(after - before).toBeLessThanOrEqual(figures.acked + 2);
  expect(figures.acks_per_s).toBeGreaterThan(0);
  expect(figures.concurrency).toBe(2);
  // a wrong signature is refused by the same route (the load is not passing by accident)
  const body = JSON.stringify({ event_type: "create", data_type: "sleep", object_id: "x", event_time: null, user_id: person.ringUserId });
  const ts = String(Math.floor(Date.now() / 1000));
  const bad = await fetch(`${url}/api/webhooks/ring`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-oura-timestamp": ts, "x-oura-signature": signNotification("not-the-secret", ts, body) },
    body,
  });
  expect(bad.status).toBe(401);
  await expect(measureWebhooks({ url: "http://example.com/api/webhooks/ring", secret: "s", userId: "u", connections: 1, durationS: 1 })).rejects.toThrow(
    /localhost/,
  );
});

it(
  "measures the fetch floor: exactly the engine's requests (the documents' minimum), with its concurrency, in the published block; the time to Today",
  { timeout: 60_000 },
  async () => {
    const { SyncEngine } = await import("@/lib/sync/engine");
    const { SYNC_CONCURRENCY, SERIES_WINDOWS_AT_ONCE } = await import("@/lib/sync/plan");
    // a 30-day person of their own, backfilled by the engine: the requests it made, by collection
    const other = await connectPerson(t);
    const collections = floorCollections("");
    const docs = new Map<BenchCollection, Doc[]>();
    for (const c of BENCH_COLLECTION_NAMES) docs.set(c, await emulatorDocuments(t.url, other.ringUserId, c));
    const minRequests = minimumRequests(
      [...docs.values()].map((d) => d.length),
      PAGE_SIZE,
    );
    await fetch(`${t.url}/_emulator/requests`, { method: "DELETE" });
    const outcomes = await new SyncEngine().backfillUser(other.userId, collections);
    expect(outcomes.map((o) => o.result)).toEqual(collections.map(() => "done"));
    const engineRequests: Record<string, number> = { ...(await countListRequests(t.url, other.ringUserId)).byCollection };
    for (const c of collections.filter((c) => !(c in engineRequests))) engineRequests[c] = await countSeriesRequests(t.url, other.ringUserId, c);

    // Today: every collection it shows has its newest day stored now; a day never stored is waited for until the end
    const heart = await emulatorHeartRate(t.url, other.ringUserId);
    const targets = todayTargets(docs, { heartrate: heart });
    expect(targets.map((x) => x.collection)).toEqual(expect.arrayContaining(["daily_sleep", "daily_readiness", "daily_activity", "sleep", "heartrate"]));
    expect(targets.every((x) => TODAY_COLLECTIONS.includes(x.collection))).toBe(true);
    expect(await waitForToday(dbFile(), other.email, targets, { signal: new AbortController().signal })).toBeGreaterThan(0);
    expect(await waitForToday(dbFile(), other.email, [{ ...targets[0]!, day: "2000-01-01" }], { signal: AbortSignal.abort() })).toBeNull();

    // the floor of the same person: the same requests, the documents' at the minimum, none left in the emulator's log
    await fetch(`${t.url}/_emulator/requests`, { method: "DELETE" });
    const range = readBackfillRange(dbFile(), other.userId);
    const floor = await measureFloor({ emulatorUrl: t.url, clientId: t.client.client_id, ringUserId: other.ringUserId, range, runs: 1 });
    expect(floor.requests).toEqual(engineRequests);
    // newest first asks for the history apart from the recent days: at most one request more per
    // collection with a date filter (an empty history's one answer, or the page the split cuts short)
    const split = collections.filter((c) => !isSeriesCollection(c) && getResource(c).window.param !== "none").length;
    expect(floorRequests(floor).documents).toBeGreaterThanOrEqual(minRequests);
    expect(floorRequests(floor).documents).toBeLessThanOrEqual(minRequests + split);
    // the two time series' histories each read SERIES_WINDOWS_AT_ONCE windows at once, beside two more collections
    expect(floor).toMatchObject({ collections: collections.length, in_flight: SYNC_CONCURRENCY - 2 + 2 * SERIES_WINDOWS_AT_ONCE });
    expect(floor.floor_s).toBeGreaterThan(0);
    expect(floor.heart_rate_floor_s).toBeGreaterThan(0);
    // the battery's own floor too: it is shared
    expect(floor.battery_floor_s).toBeGreaterThan(0);
    expect(floor.battery_floor_runs_s).toHaveLength(1);
    expect(floor.floor_runs_s).toHaveLength(1);
    // its own CPU counted; the emulator's only where its process group was given
    expect(floor.cpu_s.client).toBeGreaterThan(0);
    expect(floor.cpu_s.emulator).toBeNull();
    const log = (await (await fetch(`${t.url}/_emulator/requests?kind=data`)).json()) as { requests: unknown[] };
    expect(log.requests).toEqual([]);

    // the published block, its shape and its three targets
    const block = floorBlock(floor, {
      timeToTodayS: 0.8,
      wallS: floor.floor_s * 1.2,
      heartRateWallS: floor.heart_rate_floor_s * 1.3,
      batteryWallS: floor.battery_floor_s! * 1.1,
    });
    expect(block).toMatchObject({ time_to_today_s: 0.8, peer_s: null, peer_ratio: null });
    expect(block.floor_ratio).toBeCloseTo(1.2, 1);
    expect(block.battery_floor_ratio).toBeCloseTo(1.1, 1);
    // no battery ratio without the battery's wall time
    expect(floorBlock(floor, { timeToTodayS: 0.8, wallS: 1, heartRateWallS: 1 }).battery_floor_ratio).toBeNull();
    const result = { ...publishedExample(), floor: block };
    expect(isBenchResult(result)).toBe(true);
    expect(isBenchResult({ ...result, floor: { ...block, peer_s: 2.5, peer_ratio: 1.6 } })).toBe(true);
    expect(isBenchResult({ ...result, floor: { ...block, peer_s: "2.5" } })).toBe(false);
    expect(isBenchResult({ ...result, floor: { ...block, floor_ratio: null } })).toBe(false);
    expect(isBenchResult({ ...result, floor: { ...block, battery_floor_ratio: null } })).toBe(true);
    expect(isBenchResult({ ...result, floor: { ...block, battery_floor_ratio: "1.1" } })).toBe(false);
    // the CPU behind the ratio: the lowest ratio this machine allows at that CPU
    const withCpu = floorBlock(floor, { timeToTodayS: 0.8, wallS: 1, heartRateWallS: 1, cpu: { cores: 2, app: 3, emulator: 1 } });
    expect(withCpu.cpu).toMatchObject({ cores: 2, backfill_app_s: 3, backfill_emulator_s: 1, floor_emulator_s: null });
    expect(withCpu.cpu!.bound_ratio).toBeCloseTo(2 / floor.floor_s, 1);
    expect(isBenchResult({ ...result, floor: withCpu })).toBe(true);
    expect(isBenchResult({ ...result, floor: { ...withCpu, cpu: { ...withCpu.cpu, bound_ratio: "2" } } })).toBe(false);
    const { time_to_today_s: _dropped, ...partial } = block;
    expect(isBenchResult({ ...result, floor: partial })).toBe(false);
    const rows = checkTargets(result).filter((c) => ["fetch floor", "Time to Today"].some((w) => c.measure.includes(w)));
    expect(rows.map((c) => [c.target, c.ok])).toEqual([
      [`≤ ${FLOOR_TARGETS.floor_ratio}×`, true],
      [`≤ ${FLOOR_TARGETS.heart_rate_floor_ratio}×`, false],
      [`≤ ${FLOOR_TARGETS.battery_floor_ratio}×`, true],
      [`≤ ${FLOOR_TARGETS.time_to_today_s} s`, true],
    ]);
    expect(formatTable(checkTargets(result))).toContain("Time to Today");

    // the wire pass (run.ts --wire-pass): its figures into the floor block of the results as they were
    const wire = wireBlock({ ...block, time_to_today_s: 0.7, floor_ratio: 1.15, heart_rate_floor_ratio: 1.3 }, 50);
    expect(wire).toEqual({
      wire_ms: 50,
      time_to_today_s: 0.7,
      backfill_wall_s: block.backfill_wall_s,
      floor_s: block.floor_s,
      floor_ratio: 1.15,
      heart_rate_floor_ratio: 1.3,
      battery_floor_ratio: block.battery_floor_ratio,
    });
    const withWire = withWireBlock(JSON.parse(JSON.stringify(result)), wire);
    expect(isBenchResult(withWire)).toBe(true);
    expect(withWire).toEqual({ ...result, floor: { ...block, wire } });
    expect(isBenchResult({ ...result, floor: { ...block, wire: { ...wire, battery_floor_ratio: null } } })).toBe(true);
    expect(isBenchResult({ ...result, floor: { ...block, wire: { ...wire, wire_ms: "50" } } })).toBe(false);
    const { floor_s: _gone, ...wireWithoutFloor } = wire;
    expect(isBenchResult({ ...result, floor: { ...block, wire: wireWithoutFloor } })).toBe(false);
    expect(() => withWireBlock({ date: "2026-12-04" }, wire)).toThrow();
    expect(wireLines(wire)).toEqual([
      "50 ms away, Today whole after consent: 0.7 s (target ≤ 1 s) met",
      `50 ms away, the whole backfill against the floor (${block.backfill_wall_s} s vs ${block.floor_s} s): 1.15x (target ≤ 1.25x) met`,
      "50 ms away, heart rate against its own floor: 1.3x (target ≤ 1.25x) not met",
      `50 ms away, the battery against its own floor: ${block.battery_floor_ratio}x (target ≤ 1.25x) ${block.battery_floor_ratio! <= 1.25 ? "met" : "not met"}`,
    ]);
    expect(wireLines({ ...wire, battery_floor_ratio: null })[3]).toBe("50 ms away, the battery against its own floor: not measured");
  },
);

it("writes a results file whole: its folder made, the value back as written, no temporary file left, the old file replaced", () => {
  const file = path.join(tmp, "results-file", "nested", "figures.json");
  writeResultsFile(file, { a: 1, list: [1, 2] });
  expect(JSON.parse(fs.readFileSync(file, "utf8"))).toEqual({ a: 1, list: [1, 2] });
  writeResultsFile(file, { b: null });
  expect(JSON.parse(fs.readFileSync(file, "utf8"))).toEqual({ b: null });
  expect(fs.readdirSync(path.dirname(file))).toEqual(["figures.json"]);
});

it("reads resident memory from /proc and finds child processes", () => {
  const mb = readRssMb(process.pid);
  expect(mb).toBeGreaterThan(10);
  expect(readRssMb(2 ** 22 + 12_345)).toBeNull();
  expect(childPids(process.ppid)).toContain(process.pid);
  const pgid = Number(fs.readFileSync("/proc/self/stat", "utf8").split(") ")[1]!.split(" ")[2]);
  expect(groupPids(pgid)).toContain(process.pid);
  // the group's own memory summed, the mapped files once: never more than its RSS summed
  const members = groupPids(pgid)
    .map(readRssMb)
    .filter((v): v is number => v !== null);
  const group = readGroupMemory(pgid)!;
  expect(group.together).toBeLessThanOrEqual(members.reduce((a, b) => a + b, 0) * 1.1);
  expect(group.together).toBeGreaterThan(0);
  expect(group.largest).toBeGreaterThanOrEqual(mb! * 0.9);
  expect(readGroupMb(pgid)).toBeGreaterThan(0);
  const sampled = sampleGroup(pgid, 10).stop();
  expect(sampled.largestMb).toBeGreaterThan(0);
  expect(sampled.togetherMb).toBeGreaterThanOrEqual(sampled.largestMb * 0.5);
  expect(readGroupMemory(2 ** 22 + 12_345)).toBeNull();
  expect(percentile([5, 1, 4, 2, 3], 50)).toBe(3);
  expect(percentile([5, 1, 4, 2, 3], 95)).toBe(5);
});

it("counts a process group's CPU and, of it, what V8's helper threads spent collecting garbage", { timeout: 30_000 }, async () => {
  // a process that keeps a million objects and collects its garbage three times (V8 marks in parallel), then waits to be read
  const work =
    "const keep = []; for (let i = 0; i < 1e6; i++) keep.push({ i, s: String(i) }); for (let k = 0; k < 3; k++) gc(); console.log('done'); process.stdin.resume();";
  const child = spawn(process.execPath, ["--expose-gc", "-e", work], { detached: true, stdio: ["pipe", "pipe", "inherit"] });
  try {
    const counted = countCpu({ child: child.pid! });
    await new Promise((resolve) => child.stdout!.once("data", resolve));
    const cpu = counted()!;
    expect(cpu.seconds.child).toBeGreaterThan(0.1);
    expect(cpu.v8_helper_seconds.child).toBeGreaterThan(0);
    expect(cpu.v8_helper_seconds.child).toBeLessThan(cpu.seconds.child!);
  } finally {
    child.kill();
  }
});

it("holds a process group under a memory ceiling, pinned to one CPU, and says why it stopped it", { timeout: 60_000 }, async () => {
  const pin = pinToOneCpu();
  // what the child reports, then memory in 8 MB steps until it is stopped (or gives up at 512 MB)
  const grow = `console.log(JSON.stringify({ cpus: /Cpus_allowed_list:\\s*(\\S+)/.exec(require("fs").readFileSync("/proc/self/status", "utf8"))[1], cgroup: require("fs").readFileSync("/proc/self/cgroup", "utf8") }));
const held = []; const t = setInterval(() => { held.push(Buffer.alloc(8 << 20, 1)); if (held.length >= 64) { clearInterval(t); process.exit(0); } }, 20);`;
  const best = createCeiling(64);
  best.remove();
  for (const method of new Set([best.method, "watchdog" as const])) {
    const ceiling = createCeiling(64, method);
    try {
      const { cmd, args } = pin
        ? ceiling.command(pin.prefix[0]!, [...pin.prefix.slice(1), process.execPath, "-e", grow])
        : ceiling.command(process.execPath, ["-e", grow]);
      const child = spawnGroup(cmd, args, { stdio: ["ignore", "pipe", "ignore"] });
      ceiling.watch(child.pid!);
      let out = "";
      child.stdout!.on("data", (c: Buffer) => (out += c.toString()));
      await exited(child);
      const told = JSON.parse(out.split("\n")[0]!) as { cpus: string; cgroup: string };
      if (pin) expect(told.cpus).toBe(String(pin.cpu));
      if (method.startsWith("cgroup")) expect(told.cgroup).toContain(path.basename(ceiling.where));
      expect(ceiling.killedReason()).toMatch(method === "watchdog" ? /watchdog .* above the 64 MB ceiling/ : /OOM killer .* 64 MB ceiling/);
      expect(ceiling.peakMb()).toBeGreaterThan(0);
      if (method.startsWith("cgroup")) expect(ceiling.pressure()).toMatch(/limit reached \d+ times, \d+ major page faults/);
    } finally {
      ceiling.remove();
    }
    if (method.startsWith("cgroup")) expect(fs.existsSync(ceiling.where)).toBe(false);
  }
  expect(requestedCeiling(undefined)).toBeUndefined();
  expect(requestedCeiling("watchdog")).toBe("watchdog");
  expect(() => requestedCeiling("ulimit")).toThrow(/BENCH_SMALL_CEILING/);
});

/** A result in the published shape, every block a run must have (the optional ones added where tested). */
function publishedExample(): BenchResult {
  return {
    date: new Date().toISOString(),
    node: process.version,
    cores: os.cpus().length,
    backfill: { years: 5, documents: 14_000, wall_s: 0.9, requests: 147, min_requests: 147, ingest_s: 0.28, raw_ingest_s: 0.2, ingest_ratio: 1.4 },
    trends: { p50_ms: 5, p95_ms: 6, raw_p95_ms: 2, ratio: 3, health_p95_ms: 3, not_modified_p95_ms: 3.5 },
    trends_answer: { json_bytes: 50_000, gzip_bytes: 9_000, json_bytes_before: 75_000, gzip_bytes_before: 12_000, wire_bytes: 9_100 },
    heart_rate: {
      years: 5,
      samples: 480_000,
      wall_s: 4.5,
      requests: 500,
      min_requests: 480,
      ingest_s: 0.6,
      raw_ingest_s: 0.5,
      ingest_ratio: 1.2,
      day_read_p95_ms: 0.2,
      raw_day_read_p95_ms: 0.3,
      day_read_ratio: 0.67,
    },
    heart_rate_layouts: { rows: { ingest_s: 0.6, mb: 17, day_read_p95_ms: 0.3 }, packed: { ingest_s: 0.5, mb: 4, day_read_p95_ms: 0.02 } },
    webhooks: { acks_per_s: 1600, p99_ms: 20, concurrency: 10, duration_s: 10 },
    pages: { today: { charts_ms: 250, js_gzip_kb: 110 }, trends: { charts_ms: 280, js_gzip_kb: 115 }, correlations: { charts_ms: 290, js_gzip_kb: 118 } },
    memory: { idle_mb: 140, rest_mb: 145, peak_mb: 240, peak_backfill_mb: 230 },
  };
}

it("publishes exactly the documented shape and checks every target", () => {
  const result = publishedExample();
  expect(isBenchResult(result)).toBe(true);
  expect(isBenchResult({ ...result, extra: 1 })).toBe(false);
  // the mqtt block: people and the p95, checked against the 5 s
  expect(isBenchResult({ ...result, mqtt: { people: 50, publish_p95_ms: 437 } })).toBe(true);
  expect(isBenchResult({ ...result, mqtt: { people: 50 } })).toBe(false);
  const mqttRow = (p95: number) =>
    checkTargets({ ...result, mqtt: { people: 50, publish_p95_ms: p95 } }).find((c) => c.measure.startsWith("Home Assistant over MQTT"));
  expect(mqttRow(437)).toMatchObject({ value: "437 ms", ok: true });
  expect(mqttRow(5_001)?.ok).toBe(false);
  // the small box: every part when it was not killed; the reason, and what it measured before, when it was
  const small: SmallBoxResult = {
    ceiling: "cgroup-v1",
    ceiling_mb: 256,
    cpus: 1,
    pinned: true,
    killed: false,
    backfill: { years: 5, documents: 14_000, wall_s: 6, heart_rate_wall_s: 12 },
    pages: { today: { charts_ms: 550, js_gzip_kb: 160 }, trends: { charts_ms: 560, js_gzip_kb: 170 }, correlations: { charts_ms: 590, js_gzip_kb: 180 } },
    webhooks: { acks_per_s: 400, p99_ms: 60, concurrency: 10, duration_s: 10 },
    memory: { peak_mb: 220, group_peak_mb: 250 },
  };
  const killed: SmallBoxResult = { ...small, killed: true, killed_reason: "the kernel's OOM killer stopped a process", pages: undefined, webhooks: undefined };
  delete killed.pages;
  delete killed.webhooks;
  expect(isBenchResult({ ...result, small })).toBe(true);
  expect(isBenchResult({ ...result, small: killed })).toBe(true);
  expect(isBenchResult({ ...result, small: { ...small, killed_reason: "why?" } })).toBe(false);
  expect(isBenchResult({ ...result, small: { ...killed, killed_reason: undefined } })).toBe(false);
  expect(isBenchResult({ ...result, small: { ...small, webhooks: undefined } })).toBe(false);
  expect(isBenchResult({ ...result, small: { ...small, ceiling: "ulimit" } })).toBe(false);
  expect(isBenchResult({ ...result, small: { ...small, pinned: 1 } })).toBe(false);
  const withSmall = checkTargets({ ...result, small });
  expect(withSmall).toHaveLength(16);
  expect(withSmall.every((c) => c.ok)).toBe(true);
  expect(withSmall.find((c) => c.measure === "Trends: charts drawn, JS")?.small).toBe("560 ms, 170 kB gzip");
  expect(withSmall.find((c) => c.measure === "Webhook acks")?.small).toBe("400/s, p99 60 ms");
  const slowSmall = checkTargets({ ...result, small: { ...small, pages: { ...small.pages!, today: { charts_ms: 601, js_gzip_kb: 160 } } } });
  expect(slowSmall.filter((c) => !c.ok).map((c) => c.measure)).toEqual(["Small box (1 CPU, 256 MB by cgroup-v1)"]);
  const killedChecks = checkTargets({ ...result, small: killed });
  expect(killedChecks.filter((c) => !c.ok).map((c) => c.value)).toEqual([expect.stringMatching(/^KILLED: the kernel's OOM killer/)]);
  expect(killedChecks.find((c) => c.measure === "Today: charts drawn, JS")?.small).toBe("—");
  const smallTable = formatTable(withSmall);
  expect(smallTable.split("\n")[0]).toMatch(/Figure\s+Small box\s+Target/);
  expect(smallTable).toContain("590 ms, 180 kB gzip");
  expect(formatTable(checkTargets(result))).not.toContain("Small box");
  expect(isBenchResult({ ...result, trends: { ...result.trends, ratio: Number.NaN } })).toBe(false);
  // the report's PDF (issue 45): its block (and the small box's) in the published shape, its row held to 2 s, 5 s and +60 MB
  const report = { pdf_90d_s: 0.9, pdf_1y_s: 2.4, render_peak_above_rest_mb: 35 };
  expect(isBenchResult({ ...result, report, small: { ...small, report } })).toBe(true);
  expect(isBenchResult({ ...result, report: { ...report, pdf_1y_s: "2.4" } })).toBe(false);
  const reportRow = (r: BenchResult) => checkTargets(r).find((c) => c.measure.startsWith("Report PDF"));
  expect(reportRow({ ...result, report })).toMatchObject({ ok: true, value: "0.9 s, 2.4 s; +35 MB above rest" });
  expect(reportRow({ ...result, report: { ...report, pdf_90d_s: 2.1 } })?.ok).toBe(false);
  expect(reportRow({ ...result, report, small: { ...small, report: { ...report, render_peak_above_rest_mb: 61 } } })).toMatchObject({
    ok: false,
    small: "0.9 s, 2.4 s; +61 MB",
  });
  expect(reportRow(result)).toBeUndefined();
  // the sleep need (issue 56): its block in the published shape, its row held to ±10 min, ±30 min and ±15 %
  const errors = (mean: number, worst: number) => ({ mean, worst });
  const sleepNeed = {
    people: 36,
    need_error_min: errors(-1.4, 21.7),
    debt_error_pct: errors(-1.4, 68.9),
    range_holds: 0.86,
    rising_need_error_min: errors(1.5, 21.7),
    before: { need_error_min: errors(25.1, 53.3), debt_error_pct: errors(64.4, 206.7), rising_need_error_min: errors(31.9, 51.2) },
  };
  expect(isBenchResult({ ...result, sleep_need: sleepNeed })).toBe(true);
  expect(isBenchResult({ ...result, sleep_need: { ...sleepNeed, before: { need_error_min: errors(25, 53) } } })).toBe(false);
  const needRow = (r: BenchResult) => checkTargets(r).find((c) => c.measure.startsWith("Sleep need"));
  expect(needRow({ ...result, sleep_need: sleepNeed })).toMatchObject({ ok: true, value: "-1.4 min, 21.7 min; -1.4 % (before: 25.1 min, 53.3 min; 64.4 %)" });
  expect(needRow({ ...result, sleep_need: { ...sleepNeed, need_error_min: errors(-1.4, -30.5) } })?.ok).toBe(false);
  expect(needRow({ ...result, sleep_need: { ...sleepNeed, debt_error_pct: errors(15.2, 68.9) } })?.ok).toBe(false);
  expect(needRow(result)).toBeUndefined();
  const checks = checkTargets(result);
  expect(checks).toHaveLength(15);
  expect(checks.every((c) => c.ok)).toBe(true);
  const slow = checkTargets({ ...result, webhooks: { ...result.webhooks, p99_ms: 26 } });
  expect(slow.filter((c) => !c.ok).map((c) => c.measure)).toEqual(["Webhook acks"]);
  const heavy = checkTargets({ ...result, heart_rate: { ...result.heart_rate, requests: 600, ingest_ratio: 1.6 } });
  expect(heavy.filter((c) => !c.ok).map((c) => c.measure)).toEqual(["Heart-rate requests vs minimum", "Heart-rate ingest vs raw insert"]);
  // the budgets are relative to /api/health in the same run
  expect(
    checkTargets({ ...result, trends: { ...result.trends, p95_ms: 7.6 } })
      .filter((c) => !c.ok)
      .map((c) => c.measure),
  ).toEqual(["Trends API p95 (5 years)"]);
  expect(
    checkTargets({ ...result, trends: { ...result.trends, not_modified_p95_ms: 3.7 } })
      .filter((c) => !c.ok)
      .map((c) => c.measure),
  ).toEqual(["Trends API 304 (matching ETag) p95"]);
  const slowPage = checkTargets({ ...result, pages: { ...result.pages, correlations: { charts_ms: 301, js_gzip_kb: 118 } } });
  expect(slowPage.filter((c) => !c.ok).map((c) => c.measure)).toEqual(["Correlations: charts drawn, JS"]);
  expect(
    checkTargets({ ...result, memory: { ...result.memory, rest_mb: 151 } })
      .filter((c) => !c.ok)
      .map((c) => c.measure),
  ).toEqual(["App memory (RSS)"]);
  expect(
    checkTargets({ ...result, memory: { ...result.memory, peak_mb: 251 } })
      .filter((c) => !c.ok)
      .map((c) => c.measure),
  ).toEqual(["App memory (RSS)"]);
  expect(
    checkTargets({ ...result, pages: { ...result.pages, today: { charts_ms: 250, js_gzip_kb: 121 } } })
      .filter((c) => !c.ok)
      .map((c) => c.measure),
  ).toEqual(["Today: charts drawn, JS"]);
  const table = formatTable(checks);
  for (const c of checks) expect(table).toContain(c.measure);
  // the committed figures keep the shape too, when a run has published them
  const published = path.resolve("e2e/bench/results/latest.json");
  if (fs.existsSync(published)) expect(isBenchResult(JSON.parse(fs.readFileSync(published, "utf8")))).toBe(true);
});
