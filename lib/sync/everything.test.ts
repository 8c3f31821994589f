// Integration ("Done when" of issue 14): a person with five years of history connects, the
// scheduler runs the backfill jobs a connect queues, and for every resource the database equals
// the emulator's documents — time series sample for sample. Then the trailing re-check keeps the
// time series current (no webhooks exist for them) and removes what the service no longer has,
// and the backfill of a time series resumes after a crash and falls back to 30-day windows when
// the service refuses a long range.
import { addDays } from "@/lib/days";
import { waitFor } from "@/lib/test/wait";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { wornEmail } from "@/lib/test/emulator-kit";
import {
  clearEmulatorRequests,
  compareSeriesWithEmulator,
  compareWithEmulator,
  connectPerson,
  emulatorControl,
  emulatorDocuments,
  emulatorRequests,
  emulatorSamples,
  FAST_BACKOFF,
  importSyncModules,
  startSyncTestEnv,
  storedSamples,
  type SyncModules,
  type SyncTestEnv,
  standingEmulator,
} from "@/lib/test/sync-kit";

const TODAY = "2026-03-15";
/**
 * Five years on SQLite (the default database) proves the size: every resource of a five-year
 * person, 400,000 heart-rate samples and more, equal to the emulator's. PostgreSQL runs the same
 * file for its dialect (its upserts, its bulk series writes, its transactions): one year and a
 * bit is enough for that, as it still takes every code path of the five years (the long first
 * request, a dozen 30-day windows of 1,000-sample pages, every collection with documents, the
 * crash after page 6 and its resume), for a fifth of the work.
 */
const ON_POSTGRES = /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? "");
const FIVE_YEARS = 1826;
const HISTORY_DAYS = ON_POSTGRES ? 400 : FIVE_YEARS;
const SIZE = ON_POSTGRES ? "400 days" : "five years";
let t: SyncTestEnv;
let m: SyncModules & {
  jobsRun: typeof import("@/lib/sync/jobs");
  series: typeof import("@/lib/db/ingest/series");
  seriesReads: typeof import("@/lib/db/queries/time-series");
};

/** The clock of the emulator's data: the end of its fixed last day. */
const clock = { now: () => Date.parse(`${TODAY}T20:00:00Z`), sleep: (ms: number) => new Promise<void>((r) => setTimeout(r, ms)) };

beforeAll(async () => {
  // the emulator's clock stands still at the end of its last day: "today"'s samples do not grow
  // while the test compares them (on a busy machine a run spans a new five-minute sample)
  t = await startSyncTestEnv({ pageSize: 100, historyDays: HISTORY_DAYS, today: TODAY }, {}, standingEmulator(clock.now()));
  m = {
    ...(await importSyncModules()),
    jobsRun: await import("@/lib/sync/jobs"),
    series: await import("@/lib/db/ingest/series"),
    seriesReads: await import("@/lib/db/queries/time-series"),
  };
});

afterAll(async () => {
  await m?.scheduler.replaceScheduler(null);
  await t?.close();
});

describe("everything the ring records", () => {
  it(`a person of ${SIZE} connects: for every resource the database equals the emulator's documents`, { timeout: 300_000 }, async () => {
    const person = await connectPerson(t, { tracksCycle: true });
    await clearEmulatorRequests(t);
    const s = new m.scheduler.Scheduler(new m.engine.SyncEngine({ clientOptions: { backoff: FAST_BACKOFF } }), { idleMs: 100, housekeepingMs: 3_600_000 });
    await m.scheduler.replaceScheduler(s);
    await m.jobsRun.enqueueAfterConnect(person.userId);
    m.index.wakeScheduler();
    await waitFor(
      "every collection backfilled, no job left",
      async () =>
        (await Promise.all(m.resources.SYNC_COLLECTIONS.map((c) => m.state.getSyncState(person.userId, c)))).every((st) => Boolean(st?.backfillDoneAt)) &&
        (await m.jobs.listActiveJobs(person.userId)).length === 0,
      { timeoutMs: 240_000 },
    );
    await m.scheduler.replaceScheduler(null);

    const counts: Record<string, number> = {};
    for (const c of m.resources.RING_COLLECTIONS) {
      const diff = await compareWithEmulator(t, person, c);
      expect({ c, missing: diff.missing.length, extra: diff.extra.length, changed: diff.changed.length, stored: diff.stored }).toEqual({
        c,
        missing: 0,
        extra: 0,
        changed: 0,
        stored: diff.expected,
      });
      counts[c] = diff.expected;
    }
    // five years of each new resource; the lower bounds hold for every generated person (sampled
    // over 60; tag counts follow the person's habits). On PostgreSQL's shorter history: at least
    // half the five years' bound in proportion, and one of each (the equality above is the proof).
    const least = { workout: 200, enhanced_tag: 100, tag: 40, vO2_max: 150, sleep_time: 1000, rest_mode_period: 10, ring_configuration: 1 };
    const share = HISTORY_DAYS / FIVE_YEARS;
    for (const [c, n] of Object.entries(least)) expect(counts[c], c).toBeGreaterThanOrEqual(share === 1 ? n : Math.max(1, Math.floor((n * share) / 2)));
    for (const c of m.resources.SERIES_COLLECTIONS) {
      const diff = await compareSeriesWithEmulator(t, person, c);
      expect({ c, stored: diff.stored, firstDifference: diff.firstDifference }).toEqual({ c, stored: diff.expected, firstDifference: null });
      expect((await m.state.getSyncState(person.userId, c))?.documentsTotal).toBe(diff.expected);
      counts[c] = diff.expected;
    }
    expect(counts.heartrate).toBeGreaterThan(400_000 * share);
    expect(counts.ring_battery_level).toBeGreaterThan(80_000 * share);

    // Heart rate cost what the facts file's windows allow: 1,000 rows a page, 30-day windows
    // (one long first request finds where the history starts): the full pages, and at most one
    // partial page per window (the split between the recent days and the history cuts one window
    // in two). A fixed share over the full pages held for one person and not another: a shorter
    // or sparser history has fewer full pages per window.
    const hr = (await emulatorRequests(t, "/v2/usercollection/heartrate")).filter((r) => r.user_id === person.ringUserId);
    expect(hr.every((r) => r.status === 200)).toBe(true);
    const windows = Math.ceil((HISTORY_DAYS + 1) / 30) + 1;
    expect(hr.length).toBeLessThanOrEqual(Math.floor(counts.heartrate! / 1000) + windows + 1);
  });

  it("re-checks a time series' recent days: a day synced upstream is replaced, a sample the service dropped is removed", { timeout: 120_000 }, async () => {
    // a generated person who wore the ring on the day the service revises below (not worn on about one day in 30)
    const person = await connectPerson(t, { tracksCycle: true, email: wornEmail("recheck-series", ["2026-03-14"], [], undefined, TODAY) });
    const engine = new m.engine.SyncEngine({ clock, clientOptions: { backoff: FAST_BACKOFF }, backfillStart: "2025-06-01", trailingDays: 10 });
    await engine.backfillUser(person.userId, ["heartrate"]);
    const since = { start: "2025-06-01" };
    expect(JSON.stringify(await storedSamples(person, "heartrate"))).toBe(JSON.stringify(await emulatorSamples(t, person.ringUserId, "heartrate", since)));

    // A sample stored earlier that the service no longer has, inside the trailing window: gone after the re-check.
    const day = "2026-03-12";
    const stray = { t: Date.parse(`${day}T03:03:03Z`), v: [222, "awake"] };
    await m.series.mergeSampleDays({ collection: "heartrate", userId: person.userId, days: new Map([[day, [stray]]]) });
    expect((await storedSamples(person, "heartrate")).some((r) => r.bpm === 222)).toBe(true);
    // The service revises a recent day (new revision: the day's documents change, and with them its samples).
    await emulatorControl(t, "POST", `/users/${person.ringUserId}/sync`, { day: "2026-03-14" });
    const before = await emulatorSamples(t, person.ringUserId, "heartrate", { start: "2026-03-14", end: "2026-03-14" });
    expect(before.length).toBeGreaterThan(0);

    const outcome = await engine.incrementalCollection(person.userId, "heartrate");
    expect(outcome).toMatchObject({ result: "done" });
    const have = await storedSamples(person, "heartrate");
    expect(have.some((r) => r.bpm === 222)).toBe(false);
    expect(JSON.stringify(have)).toBe(JSON.stringify(await emulatorSamples(t, person.ringUserId, "heartrate", since)));
  });

  it(
    "a night's sample at 23:59:59.6 is stored at midnight and stays there through a re-check whose window starts at that midnight",
    { timeout: 120_000 },
    async () => {
      // the re-check below reads windows from trailingDays before today, at midnight: the night that ends that day is planted
      const day = addDays(TODAY, -10);
      const person = await connectPerson(t, { email: wornEmail("midnight-series", [addDays(day, -1), day], [], undefined, TODAY) });
      const night = (await emulatorDocuments(t, person.ringUserId, "sleep")).find((s) => s.day === day && s.type === "long_sleep")!;
      const midnight = Date.parse(`${day}T00:00:00Z`);
      const t0 = midnight - 400 - 5 * 300_000;
      const iso = (ms: number) => new Date(ms).toISOString();
      const items = Array.from({ length: 12 }, (_, i) => 50 + i);
      await emulatorControl(t, "PATCH", `/users/${person.ringUserId}/documents/sleep/${String(night.id)}`, {
        bedtime_start: iso(t0),
        bedtime_end: iso(t0 + items.length * 300_000),
        heart_rate: { interval: 300, items, timestamp: iso(t0) },
      });
      const since = { start: addDays(day, -5) };
      const engine = new m.engine.SyncEngine({ clock, clientOptions: { backoff: FAST_BACKOFF }, backfillStart: since.start, trailingDays: 10 });
      const atMidnight = (rows: Array<Record<string, unknown>>) => rows.filter((r) => r.timestamp_unix === midnight);
      await engine.backfillUser(person.userId, ["heartrate"]);
      const want = await emulatorSamples(t, person.ringUserId, "heartrate", since);
      expect(atMidnight(want)).toEqual([{ bpm: 55, source: "sleep", timestamp: `${day}T00:00:00+00:00`, timestamp_unix: midnight }]);
      expect(JSON.stringify(await storedSamples(person, "heartrate"))).toBe(JSON.stringify(want));

      expect(await engine.incrementalCollection(person.userId, "heartrate")).toMatchObject({ result: "done", deleted: 0 });
      const have = await storedSamples(person, "heartrate");
      expect(atMidnight(have)).toEqual(atMidnight(want));
      expect(JSON.stringify(have)).toBe(JSON.stringify(await emulatorSamples(t, person.ringUserId, "heartrate", since)));
    },
  );

  it("resumes a heart-rate backfill after a crash inside a page's transaction: no gap, no duplicate", { timeout: 120_000 }, async () => {
    const person = await connectPerson(t, { tracksCycle: true, email: "crash-series@example.test" });
    let crashed = 0;
    const crashing = new m.engine.SyncEngine({
      clock,
      backfillStart: "2024-01-01",
      clientOptions: { backoff: FAST_BACKOFF },
      hooks: {
        beforeCommit: ({ collection, page }) => {
          if (collection === "heartrate" && page === 6) {
            crashed++;
            throw new Error("simulated crash inside the page's transaction");
          }
        },
      },
    });
    const first = await crashing.backfillUser(person.userId, ["heartrate"]);
    expect(crashed).toBe(1);
    expect(first[0]?.result).toBe("failed");
    const st = (await m.state.getSyncState(person.userId, "heartrate"))!;
    expect(st.backfillDoneAt).toBeNull();
    const partial = (await m.seriesReads.seriesSummary("heartrate", person.userId)).documents;
    expect(partial).toBeGreaterThan(3000);

    const fresh = new m.engine.SyncEngine({ clock, backfillStart: "2024-01-01", clientOptions: { backoff: FAST_BACKOFF } });
    const second = await fresh.backfillUser(person.userId, ["heartrate"]);
    expect(second[0]?.result).toBe("done");
    const want = await emulatorSamples(t, person.ringUserId, "heartrate", { start: "2024-01-01" });
    const have = await storedSamples(person, "heartrate");
    expect(have.length).toBe(want.length);
    expect(JSON.stringify(have)).toBe(JSON.stringify(want));
  });
});

describe("a service that refuses long ranges", () => {
  let limited: SyncTestEnv;
  beforeAll(async () => {
    await t.close();
    limited = await startSyncTestEnv({ pageSize: 100, historyDays: 200, today: TODAY, timeseriesMaxDays: 30 }, {}, standingEmulator(clock.now()));
    t = limited;
  });

  it("reads the time series in 30-day windows from the backfill start instead", { timeout: 120_000 }, async () => {
    const person = await connectPerson(limited, { tracksCycle: true });
    await clearEmulatorRequests(limited);
    const engine = new m.engine.SyncEngine({ clock, backfillStart: "2025-01-01", clientOptions: { backoff: FAST_BACKOFF, baseUrl: limited.url } });
    const outcomes = await engine.backfillUser(person.userId, ["heartrate", "ring_battery_level"]);
    expect(outcomes.map((o) => [o.result, o.reason ?? null])).toEqual([
      ["done", null],
      ["done", null],
    ]);
    for (const c of ["heartrate", "ring_battery_level"] as const) {
      const diff = await compareSeriesWithEmulator(limited, person, c);
      expect({ c, stored: diff.stored, firstDifference: diff.firstDifference }).toEqual({ c, stored: diff.expected, firstDifference: null });
    }
    const requests = await emulatorRequests(limited, "/v2/usercollection/heartrate");
    // the long first request is refused once; every other request is a window of at most 30 days
    expect(requests.filter((r) => r.status === 400).length).toBe(1);
    expect(requests.filter((r) => r.status !== 200 && r.status !== 400)).toEqual([]);
  });
});
