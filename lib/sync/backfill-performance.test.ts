// Measures a 5-year backfill at the default page size (100) against the in-process emulator:
// wall time, HTTP requests against the minimum the page size allows, and the ingest time
// (validate + map + upsert) against a raw better-sqlite3 upsert of the same documents in
// one transaction. Prints the figures; asserts the budgets with headroom for slow machines.
import { afterAll, beforeAll, expect, it } from "vitest";
import { clearEmulatorRequests, connectPerson, emulatorDocuments, emulatorRequests, startSyncTestEnv, type SyncTestEnv } from "@/lib/sync/test-kit";

let t: SyncTestEnv;

beforeAll(async () => {
  t = await startSyncTestEnv({ pageSize: 100, historyDays: 1826 });
});

afterAll(async () => {
  await t?.close();
});

it("backfills five years in few requests and ingests close to raw SQLite speed", { timeout: 120_000 }, async () => {
  const { SyncEngine } = await import("@/lib/sync/engine");
  const { RING_COLLECTIONS } = await import("@/lib/ring/schemas");
  const { TYPED_COLUMNS } = await import("@/lib/sync/map");
  const { RING_TABLES } = await import("@/lib/db/queries/ring-documents");
  const { rawDb } = await import("@/lib/db/raw");

  // Warm the emulator's generator for another user so the measured run is the app's work.
  const warm = await connectPerson(t);
  await new SyncEngine().backfillUser(warm.userId, ["daily_stress"]);

  const person = await connectPerson(t);
  await clearEmulatorRequests(t);
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 20);
  const engine = new SyncEngine({ concurrency: 4 });
  const started = performance.now();
  const outcomes = await engine.backfillUser(person.userId);
  const wallMs = performance.now() - started;
  clearInterval(sampler);
  expect(outcomes.every((o) => o.result === "done")).toBe(true);

  const requests = (await emulatorRequests(t)).filter((r) => r.path.startsWith("/v2/usercollection/"));
  const docsByCollection = new Map<string, Record<string, unknown>[]>();
  let minRequests = 0;
  let documents = 0;
  for (const c of RING_COLLECTIONS) {
    const docs = await emulatorDocuments(t, person.ringUserId, c);
    docsByCollection.set(c, docs);
    documents += docs.length;
    minRequests += Math.max(1, Math.ceil(docs.length / 100));
  }

  // Baseline: the same documents upserted with plain prepared statements in one transaction.
  const db = rawDb();
  const baselineUser = `raw-${person.userId}`;
  const rawStarted = performance.now();
  db.transaction(() => {
    for (const c of RING_COLLECTIONS) {
      const { table, conflict } = RING_TABLES[c];
      const cols = ["userId", "documentId", "day", ...TYPED_COLUMNS[c], "raw", "syncedAt"];
      const target = conflict === "day" ? `"userId","day"` : `"userId","documentId"`;
      const stmt = db.prepare(
        `INSERT INTO "${table}" (${cols.map((x) => `"${x}"`).join(",")}) VALUES (${cols.map(() => "?").join(",")}) ON CONFLICT(${target}) DO UPDATE SET raw = excluded.raw`,
      );
      const now = new Date().toISOString();
      for (const d of docsByCollection.get(c)!) {
        const contributors = (d.contributors ?? {}) as Record<string, unknown>;
        const values = TYPED_COLUMNS[c].map((col) => {
          const v = col === "spo2_average" ? (d.spo2_percentage as { average?: number } | null)?.average : (d[col] ?? contributors[col]);
          return typeof v === "boolean" ? (v ? 1 : 0) : typeof v === "number" || typeof v === "string" ? v : null;
        });
        stmt.run(baselineUser, (d.id as string | undefined) ?? null, d.day as string, ...values, JSON.stringify(d), now);
      }
    }
  })();
  const rawMs = performance.now() - rawStarted;
  const ratio = engine.stats.ingestMs / rawMs;

  const figures = {
    years: 5,
    documents,
    wall_s: +(wallMs / 1000).toFixed(3),
    requests: requests.length,
    min_requests: minRequests,
    request_ratio: +(requests.length / minRequests).toFixed(3),
    ingest_s: +(engine.stats.ingestMs / 1000).toFixed(3),
    of_which_validate_map_s: +(engine.stats.mapMs / 1000).toFixed(3),
    raw_ingest_s: +(rawMs / 1000).toFixed(3),
    ingest_ratio: +ratio.toFixed(2),
    peak_rss_mb_with_emulator: Math.round(peakRss / 1048576),
  };
  console.log(`BACKFILL_FIGURES ${JSON.stringify(figures)}`);

  expect(engine.stats.documents).toBe(documents);
  expect(requests.length).toBeLessThanOrEqual(Math.ceil(minRequests * 1.1));
  expect(wallMs).toBeLessThan(15_000);
  expect(ratio).toBeLessThan(6);
});
