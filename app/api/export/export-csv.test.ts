// CSV export escapes what a spreadsheet would run (the import issue's finding: imported text —
// a workout's label, a note — was written as it is, so a cell starting with = + - @ was read as
// a formula). Escaped as OWASP describes for CSV injection: such a cell is prefixed with a
// single quote (and quoted); numbers stay numbers.
import { parse } from "csv-parse/sync";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { exportCsv } from "@/lib/test/import-kit";
import { sqlRun } from "@/lib/test/sql";

const session = vi.hoisted(() => ({ user: { id: "u-export-csv", email: "export-csv@example.test", role: "owner" as const } }));
vi.mock("@/lib/services/auth/session", () => ({
  requireUser: async () => session.user,
  currentUser: async () => session.user,
}));

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
let GET: Handler;
const FORMULAS = ['=HYPERLINK("http://evil.test","x")', "+1+1", "-2+3", "@SUM(A1)", "\t=1", "\r=1"];

async function exported(query: string): Promise<string[][]> {
  const res = await GET(new Request(`http://localhost/api/export?${query}`), { params: Promise.resolve({}) });
  expect(res.status).toBe(200);
  return parse(await res.text(), { relax_column_count: true }) as string[][];
}

beforeAll(async () => {
  const now = new Date().toISOString();
  await sqlRun(
    `INSERT INTO "User" (id, email, role, units, theme, createdAt, updatedAt) VALUES (?, ?, 'owner', 'metric', 'system', ?, ?)`,
    session.user.id,
    session.user.email,
    now,
    now,
  );
  // imported text: workouts whose labels are formulas, and a note
  const { runImport } = await import("@/lib/import/run");
  const { ManualClock } = await import("@/lib/clock");
  const planted = FORMULAS.map((label, i) => ({
    id: `w-${i}`,
    day: `2026-01-0${i + 1}`,
    activity: "running",
    start_datetime: `2026-01-0${i + 1}T07:00:00+00:00`,
    end_datetime: `2026-01-0${i + 1}T07:40:00+00:00`,
    intensity: "moderate",
    source: "manual",
    calories: 300 + i,
    distance: -1 - i,
    label,
  }));
  async function* body() {
    yield Buffer.from(exportCsv(planted));
  }
  await runImport(session.user.id, { type: "file", name: "workout.csv", body: body() }, { clock: new ManualClock(Date.parse("2026-03-01T12:00:00Z")) });
  const { setDayNote } = await import("@/lib/db/queries/notes");
  await setDayNote({ userId: session.user.id, day: "2026-01-05", text: "=1+2", tags: [] });
  ({ GET } = (await import("@/app/api/export/route")) as unknown as { GET: Handler });
});

describe("CSV export and formulas", () => {
  it("a workout's label and a note's text that start like a formula are written with a leading quote", async () => {
    const rows = await exported("collection=workout&format=csv");
    const col = rows[0]!.indexOf("label");
    const labels = rows.slice(1).map((r) => r[col]);
    expect(labels.sort()).toEqual(FORMULAS.map((f) => `'${f}`).sort());
    const notes = await exported("collection=notes&format=csv");
    expect(notes[1]).toEqual(["2026-01-05", "'=1+2", ""]);
    const all = await exported("collection=all&format=csv");
    expect(
      all
        .filter((r) => r[3] === "label")
        .map((r) => r[4])
        .sort(),
    ).toEqual(FORMULAS.map((f) => `'${f}`).sort());
    expect(all.find((r) => r[0] === "notes" && r[3] === "text")?.[4]).toBe("'=1+2");
    // numbers stay numbers (a negative one is no formula)
    for (const r of all.slice(1)) if (/^-\d/.test(r[4] ?? "")) expect(r[4]).toMatch(/^-\d+(\.\d+)?$/);
  });
});
