// Integration: the incremental sync re-reads the trailing days and brings late, edited and
// deleted documents in line with the service.
import { clock } from "@/lib/clock";
import { afterAll, beforeAll, expect, it } from "vitest";
import { wornEmail } from "@/lib/test/emulator-kit";
import {
  compareWithEmulator,
  connectPerson,
  emulatorControl,
  emulatorDocuments,
  emulatorRequests,
  clearEmulatorRequests,
  startSyncTestEnv,
  type SyncTestEnv,
} from "@/lib/test/sync-kit";

let t: SyncTestEnv;

beforeAll(async () => {
  t = await startSyncTestEnv({ historyDays: 60 });
});

afterAll(async () => {
  await t?.close();
});

const day = (offset: number) => new Date(clock.now() + offset * 86_400_000).toISOString().slice(0, 10);

it("picks up edited, new and deleted documents of the trailing days", async () => {
  const { SyncEngine } = await import("@/lib/sync/engine");
  const { RING_COLLECTIONS } = await import("@/lib/resources");
  const { listRawDocuments } = await import("@/lib/db/queries/ring-documents");
  const { getSyncState } = await import("@/lib/db/queries/sync-state");
  // a generated person who wore the ring on every day this test edits or deletes
  const p = await connectPerson(t, { tracksCycle: true, email: wornEmail("inc", [day(-40), day(-3), day(-2), day(0), day(1)], []) });
  const engine = new SyncEngine();
  await engine.backfillUser(p.userId);

  await emulatorControl(t, "POST", `/users/${p.ringUserId}/sync`, { day: day(0) }); // today edited
  await emulatorControl(t, "POST", `/users/${p.ringUserId}/sync`, { day: day(-2) }); // a late edit
  await emulatorControl(t, "POST", `/users/${p.ringUserId}/sync`, { day: day(1) }); // a new day (east of UTC)
  const sleep = await emulatorDocuments(t, p.ringUserId, "sleep");
  const recentSleep = sleep.filter((d) => String(d.day) === day(-3))[0]!;
  await emulatorControl(t, "POST", `/users/${p.ringUserId}/documents/sleep/${String(recentSleep.id)}/delete`);
  const stress = await emulatorDocuments(t, p.ringUserId, "daily_stress");
  const oldStress = stress.find((d) => String(d.day) === day(-40))!;
  await emulatorControl(t, "POST", `/users/${p.ringUserId}/documents/daily_stress/${String(oldStress.id)}/delete`);

  await clearEmulatorRequests(t);
  const outcomes = await engine.syncUser(p.userId);
  expect(outcomes.every((o) => o.result === "done")).toBe(true);
  // One request per collection: the trailing window fits a page or two.
  expect((await emulatorRequests(t, "/v2/usercollection/")).length).toBeLessThanOrEqual(RING_COLLECTIONS.length * 3);
  for (const c of RING_COLLECTIONS) {
    const diff = await compareWithEmulator(t, p, c);
    if (c === "daily_stress") {
      // A deletion older than the trailing window is not seen by the re-check (documented).
      expect(diff.extra).toEqual([String(oldStress.id)]);
      expect(diff.missing).toEqual([]);
    } else {
      expect({ c, missing: diff.missing, extra: diff.extra, changed: diff.changed }).toEqual({ c, missing: [], extra: [], changed: [] });
    }
  }
  expect((await listRawDocuments("sleep", p.userId)).some((d) => d.documentId === recentSleep.id)).toBe(false);
  expect((await listRawDocuments("daily_activity", p.userId)).at(-1)?.day).toBe(day(1));
  const st = (await getSyncState(p.userId, "daily_activity"))!;
  expect(st.status).toBe("idle");
  expect(st.newestDay).toBe(day(1));
  expect(st.lastSuccessAt).not.toBeNull();
});
