// Integration: daily_cycle_phases from the emulator to the database. A woman who granted
// reproductive_cycle and tracks her cycle gets every day of her cycles stored as the service sent
// them, the phases agreeing with her temperature; while she does not track, nothing is asked for
// or stored (turning tracking on fetches them, turning it off or removing her cycle data deletes
// them, and a page already in flight when she turns it off stores nothing); without the scope
// nothing is asked for or stored; a man has no documents. A document with fields and values
// Ringside does not know is stored whole and its known fields are read (a value of the wrong type
// is no value).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dayToIndex, addDays } from "@/lib/days";
import { ResourceSource } from "@/lib/emulator/resources";
import { userIdFor } from "@/lib/emulator/store";
import { resourceEmail, TEST_SEED, TEST_TODAY, uniqueEmail } from "@/lib/test/emulator-kit";
import { sqlAll } from "@/lib/test/sql";
import {
  clearEmulatorRequests,
  compareWithEmulator,
  connectPerson,
  emulatorControl,
  emulatorDocuments,
  emulatorRequests,
  FAST_BACKOFF,
  startSyncTestEnv,
  type SyncTestEnv,
} from "@/lib/test/sync-kit";

let t: SyncTestEnv;

beforeAll(async () => {
  t = await startSyncTestEnv({ historyDays: 400, pageSize: 100 });
});

afterAll(async () => {
  await t?.close();
});

const ALL_BUT_CYCLE = "email personal daily heartrate workout tag session spo2Daily";

/** A person with no cycle (a man, or a woman over 50). */
function noCycleEmail(): string {
  for (let i = 0; i < 200; i++) {
    const email = uniqueEmail("nocycle");
    if (new ResourceSource({ seed: TEST_SEED, userKey: userIdFor(TEST_SEED, email) }).cycle(dayToIndex(TEST_TODAY)) === null) return email;
  }
  throw new Error("no generated person without a cycle");
}

async function engine(hooks: import("@/lib/sync/engine").EngineHooks = {}) {
  const { SyncEngine } = await import("@/lib/sync/engine");
  return new SyncEngine({ clientOptions: { backoff: FAST_BACKOFF }, hooks });
}

/** Her cycle tracking on or off, as Settings turns it. */
async function tracking(userId: string, on: boolean): Promise<void> {
  const { saveCycleSettings } = await import("@/lib/services/cycle-entries");
  await saveCycleSettings(userId, { tracking: on });
}

const phasesState = (userId: string) =>
  sqlAll<{ status: string; backfillDoneAt: unknown }>(
    `SELECT status, backfillDoneAt FROM sync_state WHERE userId = ? AND collection = 'daily_cycle_phases'`,
    userId,
  );
const phasesJobs = (userId: string) =>
  sqlAll<{ kind: string }>(`SELECT kind FROM job WHERE userId = ? AND collection = 'daily_cycle_phases' AND status = 'queued'`, userId);

type Stored = { day: string; cycle_day: number | null; phase: string | null; predicted: number | boolean | null; raw: string };
const storedOf = (userId: string) =>
  sqlAll<Stored>(`SELECT day, cycle_day, phase, predicted, raw FROM daily_cycle_phases WHERE userId = ? ORDER BY day`, userId);

describe("daily_cycle_phases", () => {
  it("stores every day of a woman's cycles as sent, the luteal nights the warmer ones", async () => {
    const email = resourceEmail("cycle", [TEST_TODAY], ["daily_cycle_phases"]);
    const person = await connectPerson(t, { email });
    await tracking(person.userId, true);
    const outcomes = await (await engine()).backfillUser(person.userId, ["daily_cycle_phases", "daily_readiness"]);
    expect(outcomes.map((o) => [o.collection, o.result]).sort()).toEqual([
      ["daily_cycle_phases", "done"],
      ["daily_readiness", "done"],
    ]);
    const diff = await compareWithEmulator(t, person, "daily_cycle_phases");
    expect(diff).toMatchObject({ missing: [], extra: [], changed: [] });
    expect(diff.expected).toBeGreaterThanOrEqual(400);
    const rows = await storedOf(person.userId);
    expect(rows.length).toBe(diff.expected);
    expect(new Set(rows.map((r) => r.phase))).toEqual(new Set(["menstrual", "follicular", "luteal"]));
    for (const r of rows) expect(Number.isInteger(r.cycle_day) && r.cycle_day! >= 1 && r.cycle_day! <= 47, r.day).toBe(true);
    // cycles begin on day 1 with a period: a day after the last of a cycle is day 1 again
    const starts = rows.filter((r) => r.cycle_day === 1);
    expect(starts.length).toBeGreaterThanOrEqual(10);
    for (const s of starts) expect(s.phase).toBe("menstrual");
    // the temperature the same service reports: the luteal nights are warmer (≈ +0.3 °C)
    const temps = new Map(
      (await sqlAll<{ day: string; t: number | null }>(`SELECT day, temperature_deviation AS t FROM daily_readiness WHERE userId = ?`, person.userId)).map(
        (r) => [r.day, r.t],
      ),
    );
    const mean = (phase: string) => {
      const v = rows.filter((r) => r.phase === phase).flatMap((r) => (typeof temps.get(r.day) === "number" ? [temps.get(r.day)!] : []));
      return v.reduce((a, b) => a + b, 0) / v.length;
    };
    expect(mean("luteal") - mean("follicular")).toBeGreaterThan(0.15);
  });

  it("while she does not track her cycle: nothing asked for or stored, though she granted the scope; tracking on fetches it, off deletes it", async () => {
    const woman = await connectPerson(t, { email: resourceEmail("cycle-off", [TEST_TODAY], ["daily_cycle_phases"]) });
    await clearEmulatorRequests(t);
    const e = await engine();
    expect(await e.backfillUser(woman.userId, ["daily_cycle_phases"])).toEqual([
      expect.objectContaining({ collection: "daily_cycle_phases", result: "skipped", reason: "cycle_off" }),
    ]);
    expect(await e.syncUser(woman.userId, ["daily_cycle_phases"])).toEqual([expect.objectContaining({ result: "skipped" })]);
    expect((await emulatorRequests(t)).filter((r) => r.path.includes("daily_cycle_phases"))).toEqual([]);
    expect(await storedOf(woman.userId)).toEqual([]);

    // turning tracking on queues the backfill of her phases, which stores them
    await tracking(woman.userId, true);
    expect(await phasesJobs(woman.userId)).toEqual([{ kind: "backfill" }]);
    expect(await e.backfillUser(woman.userId, ["daily_cycle_phases"])).toEqual([expect.objectContaining({ result: "done" })]);
    expect((await storedOf(woman.userId)).length).toBeGreaterThanOrEqual(400);

    // turning it off deletes them and forgets their sync (on again starts over)
    await tracking(woman.userId, false);
    expect(await storedOf(woman.userId)).toEqual([]);
    expect(await phasesState(woman.userId)).toEqual([]);
    await tracking(woman.userId, true);
    await e.backfillUser(woman.userId, ["daily_cycle_phases"]);
    expect((await storedOf(woman.userId)).length).toBeGreaterThanOrEqual(400);
    // "Remove cycle data…" deletes them too
    const { removeCycleData } = await import("@/lib/services/cycle-entries");
    expect((await removeCycleData(woman.userId)).documents).toBeGreaterThanOrEqual(400);
    expect(await storedOf(woman.userId)).toEqual([]);
  });

  it("a page in flight when she turns tracking off stores nothing", async () => {
    const woman = await connectPerson(t, { email: resourceEmail("cycle-race", [TEST_TODAY], ["daily_cycle_phases"]) });
    await tracking(woman.userId, true);
    let turnedOff = false;
    const e = await engine({
      afterPage: async ({ collection, page }) => {
        if (collection === "daily_cycle_phases" && page === 1) {
          await tracking(woman.userId, false);
          turnedOff = true;
        }
      },
    });
    const [outcome] = await e.backfillUser(woman.userId, ["daily_cycle_phases"]);
    expect(turnedOff).toBe(true);
    expect(outcome).toMatchObject({ collection: "daily_cycle_phases", result: "skipped", reason: "cycle_off" });
    expect(await storedOf(woman.userId)).toEqual([]);
  });

  it("asks for nothing and stores nothing without reproductive_cycle; a man has no documents", async () => {
    const woman = await connectPerson(t, { email: resourceEmail("cycle-no-scope", [TEST_TODAY], ["daily_cycle_phases"]), grant: ALL_BUT_CYCLE });
    await tracking(woman.userId, true);
    await clearEmulatorRequests(t);
    const [outcome] = await (await engine()).backfillUser(woman.userId, ["daily_cycle_phases"]);
    expect(outcome).toMatchObject({ collection: "daily_cycle_phases", result: "skipped", reason: "not_shared" });
    expect((await emulatorRequests(t)).filter((r) => r.path.includes("daily_cycle_phases"))).toEqual([]);
    expect(await storedOf(woman.userId)).toEqual([]);
    // the service holds her documents: Ringside only did not ask for them
    expect((await emulatorDocuments(t, woman.ringUserId, "daily_cycle_phases")).length).toBeGreaterThan(0);
    const { sync } = await sqlAll<{ sync: string }>(
      `SELECT status AS sync FROM sync_state WHERE userId = ? AND collection = ?`,
      woman.userId,
      "daily_cycle_phases",
    ).then((r) => r[0]!);
    expect(sync).toBe("not_shared");

    const man = await connectPerson(t, { email: noCycleEmail() });
    await tracking(man.userId, true);
    const [done] = await (await engine()).backfillUser(man.userId, ["daily_cycle_phases"]);
    expect(done).toMatchObject({ collection: "daily_cycle_phases", result: "done" });
    expect(await emulatorDocuments(t, man.ringUserId, "daily_cycle_phases")).toEqual([]);
    expect(await storedOf(man.userId)).toEqual([]);
  });

  it("stores a document with unknown fields and values whole, and reads its known fields", async () => {
    const email = resourceEmail("cycle-odd", [TEST_TODAY], ["daily_cycle_phases"]);
    const person = await connectPerson(t, { email });
    await tracking(person.userId, true);
    const docs = await emulatorDocuments(t, person.ringUserId, "daily_cycle_phases");
    const odd = docs.find((d) => d.day === addDays(TEST_TODAY, -3))!;
    const other = docs.find((d) => d.day === addDays(TEST_TODAY, -4))!;
    await emulatorControl(t, "PATCH", `/users/${person.ringUserId}/documents/daily_cycle_phases/${String(odd.id)}`, {
      phase: "late_luteal_spotting",
      fertile_window: { start: "2026-01-01", confidence: "high" },
      ovulation_confirmed: true,
    });
    await emulatorControl(t, "PATCH", `/users/${person.ringUserId}/documents/daily_cycle_phases/${String(other.id)}`, {
      cycle_day: "twelve",
      predicted: "maybe",
      phase: null,
    });
    const [outcome] = await (await engine()).backfillUser(person.userId, ["daily_cycle_phases"]);
    expect(outcome).toMatchObject({ result: "done" });
    const rows = await storedOf(person.userId);
    const a = rows.find((r) => r.day === odd.day)!;
    expect(JSON.parse(a.raw)).toEqual({
      ...odd,
      phase: "late_luteal_spotting",
      fertile_window: { start: "2026-01-01", confidence: "high" },
      ovulation_confirmed: true,
    });
    expect(a).toMatchObject({ phase: "late_luteal_spotting", cycle_day: odd.cycle_day });
    const b = rows.find((r) => r.day === other.day)!;
    expect(JSON.parse(b.raw)).toMatchObject({ cycle_day: "twelve", predicted: "maybe", phase: null });
    expect(b).toMatchObject({ cycle_day: null, phase: null, predicted: null });
    expect(Number(await sqlAll(`SELECT COUNT(*) AS n FROM rejected_document WHERE userId = ?`, person.userId).then((r) => r[0]!.n))).toBe(0);
  });
});
