// Ringside's own export carries the cycle: the person's cycle settings and period entries as
// the top-level `cycle` section, the ring's daily_cycle_phases documents among the collections.
// Imported by another person, the same settings, entries and documents come out; importing it
// again adds nothing; a dry run stores nothing; a bad cycle section refuses the file (422). The
// ring's phases are kept only for a person who tracks their cycle (or whose file turns it on).
import { beforeAll, describe, expect, it, vi } from "vitest";
import { ManualClock, setClock } from "@/lib/clock";
import { AppError } from "@/lib/http/errors";
import { sqlAll, sqlRun, sqlValue } from "@/lib/test/sql";

const session = vi.hoisted(() => ({ user: { id: "u-cycle-a", email: "cycle-a@example.test", role: "owner" as const } }));
vi.mock("@/lib/services/auth/session", () => ({
  requireUser: async () => session.user,
  currentUser: async () => session.user,
}));

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
const T0 = Date.parse("2026-03-10T12:00:00Z");

async function person(id: string): Promise<void> {
  const at = new Date(T0).toISOString();
  await sqlRun(
    `INSERT INTO "User" (id, email, role, units, theme, createdAt, updatedAt) VALUES (?, ?, 'member', 'metric', 'system', ?, ?)`,
    id,
    `${id}@x.test`,
    at,
    at,
  );
}

async function exported(query: string): Promise<Record<string, unknown> & { cycle: unknown; collections: Record<string, unknown[]> }> {
  const { GET } = (await import("@/app/api/export/route")) as unknown as { GET: Handler };
  const res = await GET(new Request(`http://localhost/api/export?${query}`), { params: Promise.resolve({}) });
  expect(res.status).toBe(200);
  return JSON.parse(await res.text());
}

async function importFor(userId: string, file: unknown, dryRun = false) {
  const { runImport } = await import("@/lib/import/run");
  async function* body() {
    yield Buffer.from(JSON.stringify(file));
  }
  return runImport(userId, { type: "file", name: "export.json", body: body() }, { dryRun, clock: new ManualClock(T0) });
}

const entriesOf = (userId: string) =>
  sqlAll<{ day: string; kind: string }>(`SELECT day, kind FROM cycle_entry WHERE userId = ? ORDER BY day, kind DESC`, userId);
const settingsOf = async (userId: string) => (await import("@/lib/services/cycle-entries")).getCycleSettings(userId);
const phasesOf = (userId: string) => sqlAll<{ day: string; raw: string }>(`SELECT day, raw FROM daily_cycle_phases WHERE userId = ? ORDER BY day`, userId);

const PHASES = [
  { id: "p-1", day: "2026-02-01", cycle_day: 1, phase: "menstrual", predicted: false },
  { id: "p-2", day: "2026-02-02", cycle_day: 2, phase: "menstrual", predicted: false, fertile_window: { start: "2026-02-12" } },
  { id: "p-3", day: "2026-02-20", cycle_day: 20, phase: "late_luteal", predicted: true },
];

beforeAll(async () => {
  setClock(new ManualClock(T0));
  for (const id of ["u-cycle-a", "u-cycle-b", "u-cycle-c", "u-cycle-d", "u-cycle-e"]) await person(id);
  const { logCycleEntry, saveCycleSettings } = await import("@/lib/services/cycle-entries");
  await saveCycleSettings("u-cycle-a", { tracking: true, hormonalContraception: true });
  for (const [day, kind] of [
    ["2026-01-04", "period_start"],
    ["2026-01-08", "period_end"],
    ["2026-02-01", "period_start"],
    ["2026-02-05", "period_end"],
    ["2026-03-01", "period_start"],
  ] as const)
    await logCycleEntry("u-cycle-a", { day, kind });
  // the ring's documents, as a sync stores them
  const a = await importFor("u-cycle-a", { format: "ringside-export-v1", collections: { daily_cycle_phases: PHASES } });
  expect(a.documents.daily_cycle_phases).toBe(3);
});

describe("the cycle in Ringside's export", () => {
  it("exports the settings, the entries and the ring's documents; another person imports the same", async () => {
    const file = await exported("collection=all&format=json");
    expect(file.cycle).toEqual({
      settings: { tracking: true, hormonalContraception: true, pregnant: false },
      entries: [
        { day: "2026-01-04", kind: "period_start" },
        { day: "2026-01-08", kind: "period_end" },
        { day: "2026-02-01", kind: "period_start" },
        { day: "2026-02-05", kind: "period_end" },
        { day: "2026-03-01", kind: "period_start" },
      ],
    });
    expect(file.collections.daily_cycle_phases).toEqual(PHASES);

    const r = await importFor("u-cycle-b", file);
    expect(r).toMatchObject({ cycleEntries: 5, rejected: 0, documents: { daily_cycle_phases: 3 } });
    expect(await entriesOf("u-cycle-b")).toEqual(await entriesOf("u-cycle-a"));
    expect(await settingsOf("u-cycle-b")).toEqual({ tracking: true, hormonalContraception: true, pregnant: false });
    expect((await phasesOf("u-cycle-b")).map((p) => JSON.parse(p.raw))).toEqual(PHASES);

    // again: nothing new, nothing changed
    const again = await importFor("u-cycle-b", file);
    expect(again.cycleEntries).toBe(0);
    expect(await entriesOf("u-cycle-b")).toHaveLength(5);
  });

  it("a range carries the entries of its days and the settings", async () => {
    const file = await exported("collection=all&format=json&from=2026-02-01&to=2026-02-28");
    expect(file.cycle).toEqual({
      settings: { tracking: true, hormonalContraception: true, pregnant: false },
      entries: [
        { day: "2026-02-01", kind: "period_start" },
        { day: "2026-02-05", kind: "period_end" },
      ],
    });
  });

  it("a dry run counts the new entries and stores nothing", async () => {
    const file = await exported("collection=all&format=json");
    const r = await importFor("u-cycle-c", file, true);
    expect(r).toMatchObject({ dryRun: true, cycleEntries: 5 });
    expect(await entriesOf("u-cycle-c")).toEqual([]);
    expect(Number(await sqlValue(`SELECT COUNT(*) FROM cycle_settings WHERE userId = ?`, "u-cycle-c"))).toBe(0);
  });

  it("keeps no phases of a person who does not track their cycle (and whose file does not turn it on)", async () => {
    const withoutSection = await importFor("u-cycle-e", { format: "ringside-export-v1", collections: { daily_cycle_phases: PHASES } });
    expect(withoutSection.documents.daily_cycle_phases ?? 0).toBe(0);
    expect(await phasesOf("u-cycle-e")).toEqual([]);
    const off = { settings: { tracking: false, hormonalContraception: false, pregnant: false }, entries: [] };
    await importFor("u-cycle-e", { format: "ringside-export-v1", collections: { daily_cycle_phases: PHASES }, cycle: off });
    expect(await phasesOf("u-cycle-e")).toEqual([]);
    const on = { ...off, settings: { ...off.settings, tracking: true } };
    await importFor("u-cycle-e", { format: "ringside-export-v1", collections: { daily_cycle_phases: PHASES }, cycle: on });
    expect(await phasesOf("u-cycle-e")).toHaveLength(3);
  });

  it("refuses a file whose cycle section is not valid (422), storing nothing", async () => {
    const file = await exported("collection=all&format=json");
    for (const cycle of [
      { entries: [{ day: "2026-02-30", kind: "period_start" }] },
      { entries: [{ day: "2026-02-03", kind: "ovulation" }] },
      { settings: { tracking: "yes", hormonalContraception: false, pregnant: false }, entries: [] },
      "period",
    ]) {
      const err = await importFor("u-cycle-d", { ...file, cycle }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).status).toBe(422);
    }
    expect(await entriesOf("u-cycle-d")).toEqual([]);
    expect(await phasesOf("u-cycle-d")).toEqual([]);
  });
});
