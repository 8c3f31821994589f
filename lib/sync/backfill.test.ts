// Integration: a 5-year backfill of every document collection (the daily ones, sleep periods,
// workouts, sessions, tags, VO2 max, bedtime guidance, rest mode, the ring) from the in-process
// emulator (pages of 50 documents, 1826 days: about 37 pages a daily collection), compared
// document by document. The time series: lib/sync/everything.test.ts.
import { clock } from "@/lib/clock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  clearEmulatorRequests,
  compareWithEmulator,
  connectPerson,
  emulatorDocuments,
  emulatorRequests,
  FAST_BACKOFF,
  importSyncModules,
  startSyncTestEnv,
  type SyncModules,
  type SyncTestEnv,
} from "@/lib/test/sync-kit";
import { wornEmail } from "@/lib/test/emulator-kit";

/** The emulator's page size: every collection of five years takes tens of pages. */
const PAGE = 50;

let t: SyncTestEnv;
let app: SyncModules;

beforeAll(async () => {
  t = await startSyncTestEnv({ pageSize: PAGE });
  app = await importSyncModules();
});

afterAll(async () => {
  await t?.close();
});

// The deadlines only stop a hang: under a full run on two cores the five years took 85-89 s and
// "lands today's activity" 47 s, too near 120 s and 60 s.
describe("backfill", () => {
  it("stores five years of every collection exactly as the service has them, newest first", { timeout: 300_000 }, async () => {
    const person = await connectPerson(t, { tracksCycle: true });
    await clearEmulatorRequests(t);
    // each committed page: the recent days' (the collection's history not yet planned) or the
    // history's; when the first history page is in, every collection's newest day as stored
    const phases: Array<"recent" | "history"> = [];
    let newestAtFirstHistory: Record<string, string | null> | null = null;
    const engine = new app.engine.SyncEngine({
      clientOptions: { backoff: FAST_BACKOFF },
      hooks: {
        afterPage: async ({ collection }) => {
          const phase = (await app.state.getSyncState(person.userId, collection))?.backfillFrom ? "history" : "recent";
          phases.push(phase);
          if (phase === "history" && !newestAtFirstHistory) {
            newestAtFirstHistory = {};
            for (const c of app.resources.RING_COLLECTIONS) newestAtFirstHistory[c] = (await app.docs.collectionSummary(c, person.userId)).newestDay;
          }
        },
      },
    });
    const outcomes = await engine.backfillUser(person.userId, app.resources.RING_COLLECTIONS);
    expect(outcomes.filter((o) => o.result !== "done")).toEqual([]);
    // newest first: every recent page before the first of any history, and by then every
    // collection holds its newest day (what Today shows)
    expect(phases.indexOf("history")).toBeGreaterThan(phases.lastIndexOf("recent"));
    expect(phases.filter((p) => p === "recent").length).toBeGreaterThanOrEqual(app.resources.RING_COLLECTIONS.length - 2);
    const newestAtEnd: Record<string, string | null> = {};
    for (const c of app.resources.RING_COLLECTIONS) newestAtEnd[c] = (await app.docs.collectionSummary(c, person.userId)).newestDay;
    expect(newestAtFirstHistory).toEqual(newestAtEnd);
    // five years of each; the lower bounds hold for every generated person (sampled over 60: a
    // person may never do a session, and tag counts follow their habits)
    const least: Record<string, number> = {
      daily_resilience: 300,
      workout: 200,
      session: 0,
      enhanced_tag: 100,
      tag: 40,
      vO2_max: 150,
      rest_mode_period: 10,
      sleep_time: 1000,
      ring_configuration: 1,
      // women up to 50 only (lib/sync/cycle-phases.test.ts picks one)
      daily_cycle_phases: 0,
    };
    let total = 0;
    let minRequests = 0;
    for (const c of app.resources.RING_COLLECTIONS) {
      const diff = await compareWithEmulator(t, person, c);
      expect({ c, missing: diff.missing.length, extra: diff.extra.length, changed: diff.changed.length }).toEqual({ c, missing: 0, extra: 0, changed: 0 });
      expect(diff.stored).toBe(diff.expected);
      expect(diff.expected, c).toBeGreaterThanOrEqual(least[c] ?? 1000);
      total += diff.expected;
      // One window per collection: the fewest pages the page size allows (+1 when it divides
      // evenly, +1 where the recent days' window ends a page short).
      minRequests += Math.ceil(diff.expected / PAGE);
      const st = (await app.state.getSyncState(person.userId, c))!;
      expect(st.backfillDoneAt).not.toBeNull();
      expect(st.status).toBe("idle");
      expect(st.documentsTotal).toBe(diff.expected);
    }
    const requests = (await emulatorRequests(t)).filter((r) => r.path.startsWith("/v2/usercollection/") && !r.path.endsWith("personal_info"));
    expect(requests.every((r) => r.status === 200)).toBe(true);
    expect(requests.length).toBeLessThanOrEqual(Math.ceil(minRequests * 1.1));
    expect(engine.stats.documents).toBe(total);
  });

  it("lands today's activity and last night's sleep on the right day", { timeout: 180_000 }, async () => {
    // a generated person who wore the ring yesterday and today (some generated days are not worn)
    const today = clock.date().toISOString().slice(0, 10);
    const yesterday = new Date(clock.now() - 86_400_000).toISOString().slice(0, 10);
    const person = await connectPerson(t, { tracksCycle: true, email: wornEmail("today", [yesterday, today], []) });
    const engine = new app.engine.SyncEngine({ clientOptions: { backoff: FAST_BACKOFF } });
    await engine.backfillUser(person.userId, ["daily_activity", "sleep", "daily_sleep", "daily_readiness"]);
    for (const c of ["daily_activity", "sleep", "daily_sleep", "daily_readiness"] as const) {
      const upstream = await emulatorDocuments(t, person.ringUserId, c);
      const newest = upstream
        .map((d) => String(d.day))
        .sort()
        .at(-1)!;
      const stored = await app.docs.listRawDocuments(c, person.userId);
      expect(stored.at(-1)?.day).toBe(newest);
      // The emulator's newest activity is today and its newest sleep is last night (day = today).
      if (c === "daily_activity" || c === "sleep") expect(newest).toBe(today);
      expect(stored.filter((r) => r.day === newest).length).toBe(upstream.filter((d) => d.day === newest).length);
    }
  });

  it("resumes after a crash inside a page's transaction with no gap and no duplicate", { timeout: 300_000 }, async () => {
    const person = await connectPerson(t, { tracksCycle: true });
    let crashed = 0;
    // the sleep documents each committed page brought (newest first: the recent days' pages, then the history's)
    let sleepCommitted = 0;
    const crashing = new app.engine.SyncEngine({
      clientOptions: { backoff: FAST_BACKOFF },
      hooks: {
        afterPage: ({ collection, documents }) => {
          if (collection === "sleep") sleepCommitted += documents;
        },
        beforeCommit: ({ collection, page }) => {
          if ((collection === "sleep" && page === 20) || (collection === "daily_stress" && page === 3)) {
            crashed++;
            throw new Error("simulated crash inside the upsert");
          }
        },
      },
    });
    const first = await crashing.backfillUser(person.userId, app.resources.RING_COLLECTIONS);
    expect(crashed).toBe(2);
    expect(
      first
        .filter((o) => o.result === "failed")
        .map((o) => o.collection)
        .sort(),
    ).toEqual(["daily_stress", "sleep"]);
    const sleepState = (await app.state.getSyncState(person.userId, "sleep"))!;
    expect(sleepState.backfillDoneAt).toBeNull();
    expect(sleepState.cursorNextToken).not.toBeNull();
    const storedBefore = (await app.docs.collectionSummary("sleep", person.userId)).documents;
    expect(storedBefore).toBe(sleepCommitted); // 19 committed pages; page 20 was rolled back
    expect(storedBefore).toBeGreaterThan(17 * PAGE);

    // Abort a second run after a few pages (a process killed between pages).
    const aborting = new app.engine.SyncEngine({
      clientOptions: { backoff: FAST_BACKOFF },
      hooks: {
        afterPage: ({ collection, page, documents }) => {
          if (collection !== "sleep") return;
          sleepCommitted += documents;
          if (page === 5) throw new Error("killed");
        },
      },
    });
    await aborting.backfillUser(person.userId, ["sleep"]);
    expect((await app.docs.collectionSummary("sleep", person.userId)).documents).toBe(sleepCommitted);
    expect(sleepCommitted).toBe(storedBefore + 5 * PAGE);

    await clearEmulatorRequests(t);
    const fresh = new app.engine.SyncEngine({ clientOptions: { backoff: FAST_BACKOFF } });
    const second = await fresh.backfillUser(person.userId, app.resources.RING_COLLECTIONS);
    expect(second.filter((o) => o.result === "failed")).toEqual([]);
    for (const c of app.resources.RING_COLLECTIONS) {
      const diff = await compareWithEmulator(t, person, c);
      expect({ c, missing: diff.missing.length, extra: diff.extra.length, changed: diff.changed.length, stored: diff.stored }).toEqual({
        c,
        missing: 0,
        extra: 0,
        changed: 0,
        stored: diff.expected,
      });
    }
    // The restart continued from the checkpoint: only the unfinished collections were asked again.
    const requests = (await emulatorRequests(t)).filter((r) => r.path.startsWith("/v2/usercollection/"));
    const byPath = new Set(requests.map((r) => r.path));
    expect([...byPath].sort()).toEqual(["/v2/usercollection/daily_stress", "/v2/usercollection/sleep"]);
    const sleepDocs = (await emulatorDocuments(t, person.ringUserId, "sleep")).length;
    // what was left after 24 committed pages, the resumed page read again, and one more where the
    // recent days' window ends a page short (newest first)
    expect(requests.filter((r) => r.path.endsWith("/sleep")).length).toBeLessThanOrEqual(Math.ceil(sleepDocs / PAGE) - 24 + 2);
  });

  it("starts again at the checkpoint day when a stored next_token is no longer accepted", { timeout: 180_000 }, async () => {
    const person = await connectPerson(t, { tracksCycle: true });
    const stop = new app.engine.SyncEngine({
      clientOptions: { backoff: FAST_BACKOFF },
      hooks: {
        afterPage: ({ page }) => {
          if (page === 10) throw new Error("killed");
        },
      },
    });
    await stop.backfillUser(person.userId, ["daily_readiness"]);
    await app.state.updateSyncState(person.userId, "daily_readiness", { cursorNextToken: "expired-token" });
    await clearEmulatorRequests(t);
    const fresh = new app.engine.SyncEngine({ clientOptions: { backoff: FAST_BACKOFF } });
    await fresh.backfillUser(person.userId, ["daily_readiness"]);
    const diff = await compareWithEmulator(t, person, "daily_readiness");
    expect(diff).toMatchObject({ missing: [], extra: [], changed: [], stored: diff.expected });
    const requests = await emulatorRequests(t, "/v2/usercollection/daily_readiness");
    expect(requests[0]?.status).toBe(400);
    expect(requests.slice(1).every((r) => r.status === 200)).toBe(true);
  });
});
