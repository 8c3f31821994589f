// A 5-year backfill at the default page size (100) against the in-process emulator: every
// document arrives once, in (close to) the fewest requests the page size allows. Its speed,
// ingest cost against raw SQLite and memory are measured by `npm run bench`, not asserted here.
import { afterAll, beforeAll, expect, it } from "vitest";
import { clearEmulatorRequests, connectPerson, emulatorDocuments, emulatorRequests, startSyncTestEnv, type SyncTestEnv } from "@/lib/test/sync-kit";

let t: SyncTestEnv;

beforeAll(async () => {
  t = await startSyncTestEnv({ pageSize: 100, historyDays: 1826 });
});

afterAll(async () => {
  await t?.close();
});

it("backfills five years in the fewest requests the page size allows, every document once", { timeout: 120_000 }, async () => {
  const { SyncEngine } = await import("@/lib/sync/engine");
  const { RING_COLLECTIONS } = await import("@/lib/resources");
  const { listRawDocuments } = await import("@/lib/db/queries/ring-documents");

  const person = await connectPerson(t, { tracksCycle: true });
  await clearEmulatorRequests(t);
  const engine = new SyncEngine({ concurrency: 4 });
  // the documents (the time series' windows and requests: lib/sync/everything.test.ts)
  const outcomes = await engine.backfillUser(person.userId, RING_COLLECTIONS);
  expect(outcomes.every((o) => o.result === "done")).toBe(true);

  const requests = (await emulatorRequests(t)).filter((r) => r.path.startsWith("/v2/usercollection/"));
  let minRequests = 0;
  let documents = 0;
  for (const c of RING_COLLECTIONS) {
    const docs = await emulatorDocuments(t, person.ringUserId, c);
    documents += docs.length;
    minRequests += Math.max(1, Math.ceil(docs.length / 100));
    const stored = await listRawDocuments(c, person.userId);
    expect(stored.length, c).toBe(docs.length);
  }
  // five years of every document collection (about 17,500–19,000 by the person's habits)
  expect(documents).toBeGreaterThan(16_000);
  expect(engine.stats.documents).toBe(documents);
  expect(requests.length).toBeLessThanOrEqual(Math.ceil(minRequests * 1.1));
});
