// Integration (issue 51): a heart-rate backfill killed at each of its commit points resumes to
// exactly the emulator's samples. For every page k of a short history, one person's backfill
// fails inside page k's transaction (the engine's beforeCommit hook: the page's samples are
// written, its checkpoint not yet) or just after page k committed (afterPage); the database then
// holds exactly the pages before it (through it, when it died after its commit), and a fresh engine finishes the backfill: every sample once,
// in order, and the sync state's totals agree. Three histories: three days in pages of 60 (all of
// them recent days), 40 days in pages of 1,500 (newest first: the newest day's window, the rest of the
// recent 30 days', then the history behind them), and 75 days in pages of 3,000 (the history behind the recent days in
// two windows read at once, their pages stored in order).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays } from "@/lib/days";
import {
  connectPerson,
  emulatorControl,
  emulatorSamples,
  FAST_BACKOFF,
  importSyncModules,
  startSyncTestEnv,
  storedSamples,
  type ConnectedPerson,
  type SyncModules,
  type SyncTestEnv,
  standingEmulator,
} from "@/lib/test/sync-kit";
import { uniqueEmail } from "@/lib/test/emulator-kit";
import { waitFor } from "@/lib/test/wait";

const TODAY = "2026-03-15";
/** The emulator's clock and the engine's stand still at the end of the data's last day: the samples do not grow between runs. */
const clock = { now: () => Date.parse(`${TODAY}T20:00:00Z`), sleep: (ms: number) => new Promise<void>((r) => setTimeout(r, ms)) };
const BACKFILL_START = addDays(TODAY, -90);

let t: SyncTestEnv | undefined;
let m: SyncModules & { series: typeof import("@/lib/db/queries/time-series") };

afterAll(async () => {
  await t?.close();
});

type Kill = "before commit" | "after commit";

async function start(history: { days: number; page: number }) {
  await t?.close();
  t = await startSyncTestEnv({ historyDays: history.days, timeseriesPageSize: history.page, today: TODAY }, {}, standingEmulator(clock.now()));
  // the app's modules read the first emulator's address at import: the engine is given this one's
  m = { ...(await importSyncModules()), series: await import("@/lib/db/queries/time-series") };
}

/** A new person with the history's data (the same for every person of the key: worn every day). */
async function person(dataKey: string, days: number): Promise<ConnectedPerson> {
  const email = uniqueEmail("series-kill");
  await emulatorControl(t!, "POST", "/users", { email, history_days: days, data_key: dataKey, wear: "always" });
  return connectPerson(t!, { email });
}

function engine(hooks: import("@/lib/sync/engine/context").EngineHooks = {}) {
  return new m.engine.SyncEngine({ clock, backfillStart: BACKFILL_START, clientOptions: { backoff: FAST_BACKOFF, baseUrl: t!.url }, hooks });
}

const storedCount = async (p: ConnectedPerson) => (await m.series.seriesSummary("heartrate", p.userId)).documents;

for (const history of [
  { days: 3, page: 60, windows: 0 },
  { days: 40, page: 1_500, windows: 1 },
  // newest first, then a history of 45 days: its probe, then two windows (30 days and the rest) read at once
  { days: 75, page: 3_000, windows: 2 },
]) {
  describe(`a ${history.days}-day heart-rate history in pages of ${history.page}`, () => {
    const key = `series-kill-${history.days}`;
    /** samples stored after each page of an uninterrupted backfill (index 0: before the first) */
    let after: number[] = [];
    let samples = 0;
    /** pages of the recent pass (the history's are asked for once it has ended) */
    let recentPages = 0;
    /** the newest day stored once the first page was, and the emulator's newest sample's day */
    let newestAfterFirst: string | null = null;
    let newestDay = "";

    beforeAll(async () => {
      await start(history);
      const p = await person(key, history.days);
      after = [0];
      recentPages = 0;
      const outcome = await engine({
        afterPage: async ({ collection }) => {
          if (collection !== "heartrate") return;
          after.push(await storedCount(p));
          if (after.length === 2) newestAfterFirst = (await m.series.seriesSummary("heartrate", p.userId)).newestDay;
          if (!(await m.state.getSyncState(p.userId, "heartrate"))?.backfillFrom) recentPages++;
        },
      }).backfillUser(p.userId, ["heartrate"]);
      expect(outcome[0]?.result).toBe("done");
      const all = await emulatorSamples(t!, p.ringUserId, "heartrate", { start: BACKFILL_START });
      samples = all.length;
      newestDay = String(all.at(-1)!.timestamp).slice(0, 10);
    });

    it("an uninterrupted backfill takes several pages, the recent days' first, and stores every sample", () => {
      expect(after.length - 1).toBeGreaterThanOrEqual(8);
      expect(after.at(-1)).toBe(samples);
      // newest first: the newest UTC day's window first (Today's heart rate with the first page),
      // then the rest of the recent days; each of the two ends with a page that is not full; then
      // the history behind them (the sample on a bound is stored once); the last page is the
      // history's end
      const sizes = after.slice(1).map((n, i) => n - after[i]!);
      expect(sizes[0]).toBeGreaterThan(0);
      expect(newestAfterFirst).toBe(newestDay);
      // (several windows: each one's last page too)
      expect(sizes.slice(0, -1).filter((n) => n < history.page - 1)).toHaveLength(1 + Math.max(1, history.windows));
    });

    for (const kill of ["before commit", "after commit"] as Kill[]) {
      it(`killed ${kill} k, for every page k: the pages before it stay, and a fresh engine resumes to exactly the emulator's samples`, async () => {
        const pages = after.length - 1;
        const seen: Array<{ k: number; left: number; resumed: string; equal: boolean }> = [];
        for (let k = 1; k <= pages; k++) {
          const p = await person(key, history.days);
          let killed = 0;
          const die = (page: number, collection: string) => {
            if (collection !== "heartrate" || page !== k) return;
            killed++;
            throw new Error(`killed ${kill} page ${k}`);
          };
          const hooks =
            kill === "before commit"
              ? { beforeCommit: ({ page, collection }: { page: number; collection: string }) => die(page, collection) }
              : { afterPage: ({ page, collection }: { page: number; collection: string }) => die(page, collection) };
          const first = await engine(hooks).backfillUser(p.userId, ["heartrate"]);
          expect({ k, killed, result: first[0]?.result }).toEqual({ k, killed: 1, result: "failed" });
          // nothing of the killed page when it died before its commit; all of it when after
          const left = await storedCount(p);
          expect({ k, left }).toEqual({ k, left: after[kill === "before commit" ? k - 1 : k] });

          const second = await engine().backfillUser(p.userId, ["heartrate"]);
          const want = await emulatorSamples(t!, p.ringUserId, "heartrate", { start: BACKFILL_START });
          const have = await storedSamples(p, "heartrate");
          const st = (await m.state.getSyncState(p.userId, "heartrate"))!;
          const equal = JSON.stringify(have) === JSON.stringify(want);
          seen.push({ k, left, resumed: second[0]?.result ?? "none", equal });
          expect({ k, result: second[0]?.result, stored: have.length, equal, total: st.documentsTotal, done: st.backfillDoneAt !== null }).toEqual({
            k,
            result: "done",
            stored: samples,
            equal: true,
            total: samples,
            done: true,
          });
        }
        expect(seen).toHaveLength(pages);
      });
    }

    it("killed mid-pipeline, the next pages fetched and not yet stored, for every page k: a fresh engine resumes to exactly the emulator's samples", async () => {
      const pages = after.length - 1;
      // pages asked for beyond the one stored when it dies: the next one; in a history of windows
      // read at once, two (the next window's, or its own window's next but one)
      const ahead = (k: number) => (history.windows > 1 && k > recentPages ? 2 : 1);
      let killed = 0;
      for (let k = 1; k < pages; k++) {
        // the last page of the recent pass has none after it in its pass
        if (k === recentPages) continue;
        killed++;
        const p = await person(key, history.days);
        // it dies once page k is stored and the pages after it, asked for while k was stored, have come back
        const dying: { engine?: import("@/lib/sync/engine").SyncEngine } = {};
        const asked = Math.min(pages, k + ahead(k));
        dying.engine = engine({
          afterPage: async ({ page, collection }) => {
            if (collection !== "heartrate" || page !== k) return;
            await waitFor(`${asked} pages fetched`, () => dying.engine!.stats.requests >= asked, { timeoutMs: 30_000 });
            throw new Error(`killed mid-pipeline after page ${k}`);
          },
        });
        const first = await dying.engine.backfillUser(p.userId, ["heartrate"]);
        expect({ k, result: first[0]?.result, fetchedAhead: dying.engine.stats.requests >= asked, left: await storedCount(p) }).toEqual({
          k,
          result: "failed",
          fetchedAhead: true,
          left: after[k],
        });
        const second = await engine().backfillUser(p.userId, ["heartrate"]);
        const want = await emulatorSamples(t!, p.ringUserId, "heartrate", { start: BACKFILL_START });
        const have = await storedSamples(p, "heartrate");
        expect({ k, result: second[0]?.result, equal: JSON.stringify(have) === JSON.stringify(want), stored: have.length }).toEqual({
          k,
          result: "done",
          equal: true,
          stored: samples,
        });
      }
      expect(killed).toBeGreaterThanOrEqual(pages - 2);
    });
  });
}
