// GET /api/v1/cycle, the state document's cycle and GET /api/cycle on a real (temporary) database
// with two planted people: the data kind `cycle` is needed (403 without), nothing while the
// person's tracking is off (no rows, no state field), one row per day once it is on, bad input a
// 422 that changes nothing, and each person reads only their own cycle (a token, a session).
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ManualClock, setClock } from "@/lib/clock";
import { CYCLE_DATA_KIND, DATA_KINDS, type DataKind } from "@/lib/auth/api-scopes";
import { seedPerson } from "@/lib/test/people";

const session = vi.hoisted(() => ({ user: { id: "u-cyc-a", email: "a@example.test", role: "owner" as const } }));
vi.mock("@/lib/services/auth/session", () => ({
  requireUser: async () => session.user,
  currentUser: async () => session.user,
}));

const A = "u-cyc-a";
const B = "u-cyc-b";
const TODAY = "2024-07-01";
type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
let v1: Handler;
let ui: Handler;
let state: Handler;
const tokens: Record<string, string> = {};

async function token(userId: string, kinds: readonly DataKind[]): Promise<string> {
  const { createApiToken } = await import("@/lib/services/api-tokens");
  return (await createApiToken(userId, { name: `cycle ${kinds.length} ${Object.keys(tokens).length}`, kinds })).token;
}

async function get(handler: Handler, url: string, bearer?: string, method = "GET") {
  const res = await handler(new Request(`http://localhost${url}`, { method, headers: bearer ? { authorization: `Bearer ${bearer}` } : {} }), {
    params: Promise.resolve({}),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, any>) : null };
}

beforeAll(async () => {
  setClock(new ManualClock(Date.parse(`${TODAY}T12:00:00Z`)));
  await seedPerson({ userId: A, seed: "cycle-a", from: "2024-03-01", to: "2024-06-30" });
  await seedPerson({ userId: B, seed: "cycle-b", from: "2024-03-01", to: "2024-06-30" });
  tokens.aCycle = await token(A, [CYCLE_DATA_KIND]);
  tokens.aAllButCycle = await token(
    A,
    DATA_KINDS.filter((k) => k !== CYCLE_DATA_KIND),
  );
  tokens.aAll = await token(A, DATA_KINDS);
  tokens.bCycle = await token(B, [CYCLE_DATA_KIND]);
  v1 = (await import("@/app/api/v1/cycle/route")).GET as unknown as Handler;
  ui = (await import("@/app/api/cycle/route")).GET as unknown as Handler;
  state = (await import("@/app/api/v1/state/route")).GET as unknown as Handler;
});

afterAll(() => setClock(undefined));

const RANGE = "from=2024-06-01&to=2024-06-30";

describe("GET /api/v1/cycle", () => {
  it("needs the data kind cycle: a token with every other kind gets 403", async () => {
    const r = await get(v1, `/api/v1/cycle?${RANGE}`, tokens.aAllButCycle);
    expect(r.status).toBe(403);
    expect(r.body?.error.code).toBe("forbidden");
    expect((await get(v1, `/api/v1/cycle?${RANGE}`)).status).toBe(401);
  });

  it("with tracking off: status off, no rows, and no cycle field in the state", async () => {
    const r = await get(v1, `/api/v1/cycle?${RANGE}`, tokens.aCycle);
    expect(r.status).toBe(200);
    expect([r.body?.status, r.body?.days, r.body?.entries]).toEqual(["off", [], []]);
    const s = await get(state, "/api/v1/state", tokens.aAll);
    expect(s.status).toBe(200);
    expect(s.body).not.toHaveProperty("cycle");
  });

  it("with tracking on: one row per day, the entries, no temperature (another kind's value); the state's cycle only with the kind", async () => {
    const { saveCycleSettings, logCycleEntry } = await import("@/lib/services/cycle-entries");
    await saveCycleSettings(A, { tracking: true });
    await logCycleEntry(A, { day: "2024-06-10", kind: "period_start" });
    const r = await get(v1, `/api/v1/cycle?${RANGE}`, tokens.aCycle);
    expect(r.status).toBe(200);
    const days = r.body!.days as Array<Record<string, unknown>>;
    expect(days.map((d) => d.day)).toHaveLength(30);
    expect(days[0]).toEqual({
      day: "2024-06-01",
      cycle_day: expect.toBeOneOf([null, expect.any(Number)]),
      phase: expect.any(String),
      ovulation: expect.any(Boolean),
      next_period: expect.toBeOneOf([null, expect.any(Object)]),
    });
    expect(days.find((d) => d.day === "2024-06-12")).toMatchObject({ cycle_day: 3 });
    expect(r.body).not.toHaveProperty("temperature");
    expect(r.body!.entries).toEqual([{ id: expect.any(String), day: "2024-06-10", kind: "period_start" }]);

    const withKind = await get(state, "/api/v1/state", tokens.aAll);
    expect(withKind.body!.cycle).toMatchObject({ day: TODAY, cycle_day: 22, phase: expect.any(String) });
    expect((await get(state, "/api/v1/state", tokens.aAllButCycle)).body).not.toHaveProperty("cycle");
  });

  it("hormonal contraception pauses it: no rows, no state field", async () => {
    const { saveCycleSettings } = await import("@/lib/services/cycle-entries");
    await saveCycleSettings(A, { hormonalContraception: true });
    try {
      const r = await get(v1, `/api/v1/cycle?${RANGE}`, tokens.aCycle);
      expect([r.body?.status, r.body?.days]).toEqual(["not_applicable", []]);
      expect((await get(state, "/api/v1/state", tokens.aAll)).body).not.toHaveProperty("cycle");
    } finally {
      await saveCycleSettings(A, { hormonalContraception: false });
    }
  });

  it("bad input is a 422 naming the problem: dates, order, more than 366 days; writes are 405", async () => {
    for (const q of ["from=2024-02-30&to=2024-03-01", "from=2024-06-30&to=2024-06-01", "from=2023-01-01&to=2024-06-30", "from=yesterday", "to=2024-13-01"]) {
      const r = await get(v1, `/api/v1/cycle?${q}`, tokens.aCycle);
      expect({ q, status: r.status, code: r.body?.error.code }).toEqual({ q, status: 422, code: "unprocessable_entity" });
    }
    expect((await get(v1, `/api/v1/cycle?from=2023-07-01&to=2024-06-30`, tokens.aCycle)).status).toBe(200);
    expect((await get((await import("@/app/api/v1/cycle/route")).POST as unknown as Handler, "/api/v1/cycle", tokens.aCycle, "POST")).status).toBe(405);
  });

  it("each person reads only their own cycle", async () => {
    const off = await get(v1, `/api/v1/cycle?${RANGE}`, tokens.bCycle);
    expect([off.body?.status, off.body?.days, off.body?.entries]).toEqual(["off", [], []]);
    const { saveCycleSettings } = await import("@/lib/services/cycle-entries");
    await saveCycleSettings(B, { tracking: true });
    const on = await get(v1, `/api/v1/cycle?${RANGE}`, tokens.bCycle);
    expect(on.body?.entries).toEqual([]);
    expect((on.body?.days as Array<{ cycle_day: number | null }>).find((d) => d.cycle_day !== null)).toBeUndefined();
  });
});

describe("the report's cycle section", () => {
  it("needs the cycle kind; shows the cycles that started in the period while tracking is on, 'not tracked' while off", async () => {
    const report = (await import("@/app/api/v1/report/route")).GET as unknown as Handler;
    const q = "/api/v1/report?from=2024-06-01&to=2024-06-30&sections=cycle";
    const refused = await get(report, q, tokens.aAllButCycle);
    expect([refused.status, refused.body?.error.message]).toEqual([403, expect.stringContaining("cycle")]);
    const a = await get(report, q, tokens.aCycle);
    expect(a.status).toBe(200);
    expect(a.body!.cycle).toMatchObject({ tracked: true, cycles: [expect.objectContaining({ start: "2024-06-10" })] });
    const { saveCycleSettings } = await import("@/lib/services/cycle-entries");
    await saveCycleSettings(B, { tracking: false });
    expect((await get(report, q, tokens.bCycle)).body!.cycle).toEqual({ tracked: false });
  });
});

describe("GET /api/cycle (the pages' route)", () => {
  it("answers the signed-in person's own cycle, with the nights' temperature", async () => {
    session.user = { id: A, email: "a@example.test", role: "owner" };
    const r = await get(ui, `/api/cycle?${RANGE}`);
    expect(r.status).toBe(200);
    expect(r.body!.entries).toHaveLength(1);
    expect(r.body!.temperature).toHaveLength(30);
    session.user = { id: B, email: "b@example.test", role: "owner" };
    expect((await get(ui, `/api/cycle?${RANGE}`)).body!.entries).toEqual([]);
    expect((await get(ui, "/api/cycle?from=2024-06-30&to=2024-06-01")).status).toBe(422);
  });
});
