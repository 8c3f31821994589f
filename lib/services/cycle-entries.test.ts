// The person's own cycle data (lib/services/cycle-entries.ts on lib/db/queries/cycle.ts), on
// both databases: settings default to tracking off and change one at a time; period starts and
// ends are logged once per day and kind, never after the person's today (their time zone) nor
// before 2000; edits and removals reach only the person's own entries; bad input is refused
// with a 4xx and changes nothing; every write moves the person's data version.
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { ManualClock, setClock } from "@/lib/clock";
import { AppError } from "@/lib/http/errors";
import { sqlRun, sqlValue } from "@/lib/test/sql";

// 12:00 UTC on 10 March 2026: already 11 March at UTC+14 (Kiritimati)
const T0 = Date.parse("2026-03-10T12:00:00Z");

async function person(id: string, timeZone?: string): Promise<void> {
  const at = new Date(T0).toISOString();
  await sqlRun(
    `INSERT INTO "User" (id, email, role, units, theme, createdAt, updatedAt) VALUES (?, ?, 'member', 'metric', 'system', ?, ?)`,
    id,
    `${id}@x.test`,
    at,
    at,
  );
  if (timeZone) await sqlRun(`INSERT INTO alert_settings (userId, includeValues, timeZone, updatedAt) VALUES (?, ?, ?, ?)`, id, false, timeZone, at);
}

async function refusal(p: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await p;
  } catch (err) {
    if (err instanceof AppError) return { status: err.status, message: err.message };
    throw err;
  }
  throw new Error("it was not refused");
}

const version = async (id: string) => Number(await sqlValue(`SELECT dataVersion FROM "User" WHERE id = ?`, id));
const entryCount = async (id: string) => Number(await sqlValue(`SELECT COUNT(*) FROM cycle_entry WHERE userId = ?`, id));
const svc = () => import("@/lib/services/cycle-entries");

beforeAll(async () => {
  for (const id of ["ann", "bob", "cat", "dot", "eve"]) await person(id);
  await person("kir", "Pacific/Kiritimati");
});
afterEach(() => setClock(undefined));

describe("cycle settings", () => {
  it("are the defaults (tracking off) until the person changes one, then change only what the patch names", async () => {
    const { getCycleSettings, saveCycleSettings } = await svc();
    expect(await getCycleSettings("ann")).toEqual({ tracking: false, hormonalContraception: false, pregnant: false });
    const v0 = await version("ann");
    expect(await saveCycleSettings("ann", { tracking: true })).toEqual({ tracking: true, hormonalContraception: false, pregnant: false });
    expect(await version("ann")).toBeGreaterThan(v0);
    expect(await saveCycleSettings("ann", { hormonalContraception: true })).toEqual({ tracking: true, hormonalContraception: true, pregnant: false });
    expect(await saveCycleSettings("ann", { tracking: false, pregnant: true })).toEqual({ tracking: false, hormonalContraception: true, pregnant: true });
    expect(await getCycleSettings("ann")).toEqual({ tracking: false, hormonalContraception: true, pregnant: true });
    // another person's settings are their own
    expect(await getCycleSettings("bob")).toEqual({ tracking: false, hormonalContraception: false, pregnant: false });
  });

  it("refuses a patch that names nothing, a value that is not a boolean, or no object, and changes nothing", async () => {
    const { getCycleSettings, saveCycleSettings } = await svc();
    const v0 = await version("bob");
    for (const bad of [{}, { tracking: "yes" }, { pregnant: 1 }, null, "tracking", [true]]) {
      expect((await refusal(saveCycleSettings("bob", bad))).status).toBe(422);
    }
    expect(await getCycleSettings("bob")).toEqual({ tracking: false, hormonalContraception: false, pregnant: false });
    expect(Number(await sqlValue(`SELECT COUNT(*) FROM cycle_settings WHERE userId = ?`, "bob"))).toBe(0);
    expect(await version("bob")).toBe(v0);
  });
});

describe("cycle entries", () => {
  it("logs a period start once per day and kind: the same again answers the same entry and writes nothing", async () => {
    setClock(new ManualClock(T0));
    const { logCycleEntry, listCycleEntriesFor } = await svc();
    const v0 = await version("cat");
    const first = await logCycleEntry("cat", { day: "2026-03-02", kind: "period_start" });
    expect(first).toEqual({ id: expect.any(String), day: "2026-03-02", kind: "period_start" });
    const v1 = await version("cat");
    expect(v1).toBeGreaterThan(v0);
    expect(await logCycleEntry("cat", { day: "2026-03-02", kind: "period_start" })).toEqual(first);
    expect(await version("cat")).toBe(v1);
    const end = await logCycleEntry("cat", { day: "2026-03-06", kind: "period_end" });
    const sameDayEnd = await logCycleEntry("cat", { day: "2026-03-02", kind: "period_end" });
    const earlier = await logCycleEntry("cat", { day: "2026-02-03", kind: "period_start" });
    // by day, a start before an end on the same day
    expect(await listCycleEntriesFor("cat", "2026-01-01", "2026-03-10")).toEqual([earlier, first, sameDayEnd, end]);
    expect(await listCycleEntriesFor("cat", "2026-03-01", "2026-03-05")).toEqual([first, sameDayEnd]);
    expect(await entryCount("cat")).toBe(4);
  });

  it("refuses a day after the person's today (in their time zone), before 2000, a bad kind or date, and stores nothing", async () => {
    setClock(new ManualClock(T0));
    const { logCycleEntry } = await svc();
    const v0 = await version("dot");
    for (const bad of [
      { day: "2026-03-11", kind: "period_start" },
      { day: "1999-12-31", kind: "period_start" },
      { day: "2026-02-30", kind: "period_start" },
      { day: "2026-03-01", kind: "ovulation" },
      { day: "2026-03-01" },
      { kind: "period_start" },
      "2026-03-01",
      null,
    ]) {
      expect((await refusal(logCycleEntry("dot", bad))).status).toBe(422);
    }
    expect((await refusal(logCycleEntry("dot", { day: "2026-03-11", kind: "period_start" }))).message).toMatch(/after today/);
    expect(await entryCount("dot")).toBe(0);
    expect(await version("dot")).toBe(v0);
    // today itself is fine; at UTC+14 it is already the 11th
    await logCycleEntry("dot", { day: "2026-03-10", kind: "period_start" });
    expect((await logCycleEntry("kir", { day: "2026-03-11", kind: "period_start" })).day).toBe("2026-03-11");
    expect((await refusal(logCycleEntry("kir", { day: "2026-03-12", kind: "period_start" }))).status).toBe(422);
  });

  it("edits and removes only the person's own entries: another's is not found, a clash is a conflict", async () => {
    setClock(new ManualClock(T0));
    const { logCycleEntry, editCycleEntry, removeCycleEntry, listCycleEntriesFor } = await svc();
    const a = await logCycleEntry("eve", { day: "2026-02-01", kind: "period_start" });
    const b = await logCycleEntry("eve", { day: "2026-02-05", kind: "period_end" });
    const v0 = await version("eve");
    expect(await editCycleEntry("eve", a.id, { day: "2026-02-02" })).toEqual({ id: a.id, day: "2026-02-02", kind: "period_start" });
    expect(await version("eve")).toBeGreaterThan(v0);
    expect(await editCycleEntry("eve", b.id, { kind: "period_start", day: "2026-03-01" })).toEqual({ id: b.id, day: "2026-03-01", kind: "period_start" });
    // the same day and kind as another entry: 409, nothing moves
    expect((await refusal(editCycleEntry("eve", a.id, { day: "2026-03-01" }))).status).toBe(409);
    // a change to nothing, a future day, a bad kind, no such entry
    expect((await refusal(editCycleEntry("eve", a.id, {}))).status).toBe(422);
    expect((await refusal(editCycleEntry("eve", a.id, { day: "2026-03-11" }))).status).toBe(422);
    expect((await refusal(editCycleEntry("eve", a.id, { kind: "spotting" }))).status).toBe(422);
    expect((await refusal(editCycleEntry("eve", "no-such-id", { day: "2026-02-03" }))).status).toBe(404);
    expect((await refusal(editCycleEntry("eve", "x".repeat(65), { day: "2026-02-03" }))).status).toBe(422);
    // another person's entry does not exist for them
    const v1 = await version("eve");
    expect((await refusal(editCycleEntry("ann", a.id, { day: "2026-02-03" }))).status).toBe(404);
    expect((await refusal(removeCycleEntry("ann", a.id))).status).toBe(404);
    expect(await version("eve")).toBe(v1);
    expect(await listCycleEntriesFor("eve", "2026-01-01", "2026-03-10")).toEqual([
      { id: a.id, day: "2026-02-02", kind: "period_start" },
      { id: b.id, day: "2026-03-01", kind: "period_start" },
    ]);
    await removeCycleEntry("eve", a.id);
    expect(await version("eve")).toBeGreaterThan(v1);
    expect((await refusal(removeCycleEntry("eve", a.id))).status).toBe(404);
    expect(await listCycleEntriesFor("eve", "2026-01-01", "2026-03-10")).toEqual([{ id: b.id, day: "2026-03-01", kind: "period_start" }]);
  });

  it("removing the cycle data deletes the person's entries and the ring's cycle documents, nobody else's, and keeps the settings", async () => {
    setClock(new ManualClock(T0));
    const { logCycleEntry, removeCycleData, saveCycleSettings, getCycleSettings } = await svc();
    await person("fay");
    await person("gus");
    await saveCycleSettings("fay", { tracking: true });
    for (const id of ["fay", "gus"]) {
      await logCycleEntry(id, { day: "2026-02-01", kind: "period_start" });
      await logCycleEntry(id, { day: "2026-02-05", kind: "period_end" });
      for (const day of ["2026-02-01", "2026-02-02", "2026-02-03"])
        await sqlRun(
          `INSERT INTO daily_cycle_phases (userId, documentId, day, cycle_day, phase, raw) VALUES (?, ?, ?, ?, ?, ?)`,
          id,
          `${id}-${day}`,
          day,
          1,
          "menstrual",
          JSON.stringify({ id: `${id}-${day}`, day, cycle_day: 1, phase: "menstrual" }),
        );
    }
    const v0 = await version("fay");
    expect(await removeCycleData("fay")).toEqual({ entries: 2, documents: 3 });
    expect(await version("fay")).toBeGreaterThan(v0);
    expect(await entryCount("fay")).toBe(0);
    expect(Number(await sqlValue(`SELECT COUNT(*) FROM daily_cycle_phases WHERE userId = ?`, "fay"))).toBe(0);
    expect(await getCycleSettings("fay")).toEqual({ tracking: true, hormonalContraception: false, pregnant: false });
    expect(await entryCount("gus")).toBe(2);
    expect(Number(await sqlValue(`SELECT COUNT(*) FROM daily_cycle_phases WHERE userId = ?`, "gus"))).toBe(3);
    expect(await removeCycleData("fay")).toEqual({ entries: 0, documents: 0 });
  });

  it("lists a range only when both ends are days in order", async () => {
    const { listCycleEntriesFor } = await svc();
    for (const [from, to] of [
      ["2026-03-10", "2026-03-01"],
      ["2026-3-1", "2026-03-10"],
      [undefined, "2026-03-10"],
      ["2026-03-01", 5],
    ]) {
      expect((await refusal(listCycleEntriesFor("ann", from, to))).status).toBe(422);
    }
  });
});
