// The sync status's history reach (issue 53): each collection's oldest stored day, read from the
// database (a collection's documents or a time series' daily rows) beside its newest day; still
// there while the back-fill is reaching further back (backfillDone false). On both databases
// (lib/vitest.config.ts BOTH_DATABASES), against the in-process emulator and the real engine.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock, setClock } from "@/lib/clock";
import { addDays } from "@/lib/days";
import { connectPerson, emulatorDocuments, emulatorSamples, startSyncTestEnv, type SyncTestEnv } from "@/lib/test/sync-kit";

const TODAY = "2026-03-15";
const HISTORY_DAYS = 40;
const clock = new ManualClock(Date.parse(`${TODAY}T12:00:00Z`));

let t: SyncTestEnv;

beforeAll(async () => {
  setClock(clock);
  t = await startSyncTestEnv({ historyDays: HISTORY_DAYS, pageSize: 100, today: TODAY });
});

afterAll(async () => {
  setClock(undefined);
  await t?.close();
});

const minDay = (days: string[]) => days.reduce((a, b) => (b < a ? b : a));
const maxDay = (days: string[]) => days.reduce((a, b) => (b > a ? b : a));

describe("the sync status's oldest day", () => {
  it("is null before anything is stored, then the oldest stored day of each collection, and stays while the back-fill reaches back", async () => {
    const p = await connectPerson(t, { email: "reach@status.test" });
    const { getSyncStatus } = await import("@/lib/sync/status");
    const { readSyncStatus } = await import("@/lib/api/v1/read");
    const { updateSyncState } = await import("@/lib/db/queries/sync-state");

    const before = await getSyncStatus(p.userId, clock.now());
    expect(before.collections.filter((c) => c.oldestDay !== null || c.backfillDone)).toEqual([]);

    const { SyncEngine } = await import("@/lib/sync/engine");
    const engine = new SyncEngine({ clock: { now: () => clock.now(), sleep: async () => undefined } });
    const outcomes = await engine.backfillUser(p.userId, ["daily_activity", "sleep", "heartrate"]);
    // the collections run side by side: their outcomes come in the order they end
    expect(Object.fromEntries(outcomes.map((o) => [o.collection, o.result]))).toEqual({ daily_activity: "done", sleep: "done", heartrate: "done" });

    const after = await getSyncStatus(p.userId, clock.now());
    const of = (collection: string) => after.collections.find((c) => c.collection === collection)!;
    for (const collection of ["daily_activity", "sleep"] as const) {
      const days = (await emulatorDocuments(t, p.ringUserId, collection)).map((d) => String(d.day));
      expect(days.length).toBeGreaterThan(HISTORY_DAYS / 2);
      const c = of(collection);
      expect({ collection, backfillDone: c.backfillDone, oldestDay: c.oldestDay, newestDay: c.newestDay }).toEqual({
        collection,
        backfillDone: true,
        oldestDay: minDay(days),
        newestDay: maxDay(days),
      });
    }
    // the history the emulator holds reaches HISTORY_DAYS back from its newest day
    expect(of("daily_activity").oldestDay! >= addDays(of("daily_activity").newestDay!, -HISTORY_DAYS)).toBe(true);
    // a time series: the UTC day of its oldest sample
    const samples = await emulatorSamples(t, p.ringUserId, "heartrate");
    expect(of("heartrate").unit).toBe("samples");
    expect(of("heartrate").oldestDay).toBe(minDay(samples.map((s) => String(s.timestamp).slice(0, 10))));
    // a collection not fetched yet reaches nowhere
    expect(of("daily_readiness")).toMatchObject({ oldestDay: null, newestDay: null, backfillDone: false, documents: 0 });

    // the back-fill still reaching back (a newest-first back-fill between pages): the oldest day
    // stored so far, with backfillDone false
    await updateSyncState(p.userId, "daily_activity", { status: "backfilling", backfillDoneAt: null });
    const reaching = (await getSyncStatus(p.userId, clock.now())).collections.find((c) => c.collection === "daily_activity")!;
    expect(reaching).toMatchObject({ status: "backfilling", backfillDone: false, oldestDay: of("daily_activity").oldestDay });

    // the public read API answers it too
    const { DATA_KINDS } = await import("@/lib/auth/api-scopes");
    const v1 = await readSyncStatus({ tokenId: "t", userId: p.userId, kinds: new Set(DATA_KINDS) });
    expect(v1.collections.find((c) => c.collection === "sleep")?.oldestDay).toBe(of("sleep").oldestDay);
  });
});
