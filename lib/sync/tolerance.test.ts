// Integration: what the real service adds over time, against the running emulator and SQLite.
// Documents carrying values Ringside has never seen (resilience `level`, stress `day_summary`,
// sleep `type`) are synced, stored with the field as unknown (null column, raw JSON kept),
// logged once, and charted with a gap on that day; a personal_info without `id` keeps the
// known account instead of failing the snapshot.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { connectPerson, emulatorDocuments, FAST_BACKOFF, startSyncTestEnv, type ConnectedPerson, type SyncTestEnv } from "@/lib/test/sync-kit";

const session = vi.hoisted(() => ({ user: { id: "", email: "tolerance@example.test", role: "owner" as const } }));
vi.mock("@/lib/services/auth/session", () => ({ requireUser: async () => session.user, currentUser: async () => session.user }));

const TODAY = "2026-03-15";
const FROM = "2026-02-14";

let t: SyncTestEnv;
let person: ConnectedPerson;
let app: {
  engine: typeof import("@/lib/sync/engine");
  raw: typeof import("@/lib/db");
  unknown: typeof import("@/lib/sync/unknown-values");
};
type Doc = Record<string, unknown> & { id: string; day: string };
const edited: Record<"daily_resilience" | "daily_stress" | "sleep", Doc | null> = { daily_resilience: null, daily_stress: null, sleep: null };

async function edit(collection: keyof typeof edited, doc: Doc, fields: Record<string, unknown>) {
  const res = await fetch(`${t.url}/_emulator/users/${person.ringUserId}/documents/${collection}/${doc.id}`, {
    method: "PATCH",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(fields),
  });
  expect(res.status).toBe(200);
  edited[collection] = doc;
}

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
async function series(metric: string): Promise<{ from: string; value: Array<unknown> }> {
  const { GET } = await import("@/app/api/metrics/[metric]/route");
  const res = await (GET as Handler)(new Request(`http://localhost/api/metrics/${metric}?from=${FROM}&to=${TODAY}`), { params: Promise.resolve({ metric }) });
  expect(res.status).toBe(200);
  return (await res.json()) as { from: string; value: Array<unknown> };
}
const dayIndex = (day: string) => Math.round((Date.parse(`${day}T00:00:00Z`) - Date.parse(`${FROM}T00:00:00Z`)) / 86_400_000);

let logLines: string[] = [];

beforeAll(async () => {
  t = await startSyncTestEnv({ historyDays: 60, today: TODAY });
  app = { engine: await import("@/lib/sync/engine"), raw: await import("@/lib/db"), unknown: await import("@/lib/sync/unknown-values") };
  person = await connectPerson(t, { tracksCycle: true });
  session.user.id = person.userId;

  const lastOf = (docs: Array<Record<string, unknown>>, pick: (d: Record<string, unknown>) => boolean = () => true) =>
    docs.filter((d) => pick(d) && String(d.day) >= FROM).at(-2) as Doc;
  await edit("daily_resilience", lastOf(await emulatorDocuments(t, person.ringUserId, "daily_resilience")), { level: "legendary" });
  await edit(
    "daily_stress",
    lastOf(await emulatorDocuments(t, person.ringUserId, "daily_stress"), (d) => d.day_summary !== null),
    { day_summary: "frantic" },
  );
  await edit(
    "sleep",
    lastOf(await emulatorDocuments(t, person.ringUserId, "sleep"), (d) => d.type === "long_sleep" && Number(d.time_in_bed) >= 4 * 3600),
    {
      type: "long_sleep_v2",
    },
  );
});

afterAll(async () => {
  await t?.close();
});

afterEach(() => vi.restoreAllMocks());

describe("values the service adds later", () => {
  it("documents with never-seen values are stored, not set aside: the field is unknown (null), the raw JSON keeps it, each value logged once", async () => {
    logLines = [];
    vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => (logLines.push(String(chunk)), true));
    const engine = new app.engine.SyncEngine({ clientOptions: { backoff: FAST_BACKOFF } });
    const outcomes = await engine.backfillUser(person.userId);
    expect(outcomes.filter((o) => o.result !== "done")).toEqual([]);
    await engine.syncUser(person.userId); // the same documents again: nothing logged twice

    const db = app.raw.rawDb();
    const rejected = db.prepare(`SELECT COUNT(*) AS n FROM rejected_document WHERE userId = ?`).get(person.userId) as { n: number };
    expect(rejected.n).toBe(0);
    const checks: Array<[string, keyof typeof edited, string, string]> = [
      ["daily_resilience", "daily_resilience", "level", "legendary"],
      ["daily_stress", "daily_stress", "day_summary", "frantic"],
      ["sleep_period", "sleep", "type", "long_sleep_v2"],
    ];
    for (const [table, collection, field, value] of checks) {
      const row = db.prepare(`SELECT ${field} AS v, raw FROM ${table} WHERE userId = ? AND documentId = ?`).get(person.userId, edited[collection]!.id) as
        { v: unknown; raw: string } | undefined;
      expect(row, `${table} ${edited[collection]!.id}`).toBeDefined();
      expect(row!.v).toBeNull();
      expect(JSON.parse(row!.raw)[field]).toBe(value);
      const lines = logLines.filter((l) => l.includes("does not know yet") && l.includes(`"value":"${value}"`));
      expect(lines, `${collection}.${field}`).toHaveLength(1);
      expect(JSON.parse(lines[0]!)).toMatchObject({ collection, field, value });
    }
  });

  it("the charts show the unknown field as a gap on that day, and everything else as before", async () => {
    const level = await series("resilience.level");
    const day = edited.daily_resilience!.day;
    expect(level.value[dayIndex(day)]).toBeNull();
    expect(level.value.filter((v) => typeof v === "string").length).toBeGreaterThan(5);
    const recovery = await series("resilience.sleep_recovery");
    expect(recovery.value[dayIndex(day)]).toBe((edited.daily_resilience!.contributors as { sleep_recovery: number }).sleep_recovery);

    const summary = await series("stress.day_summary");
    expect(summary.value[dayIndex(edited.daily_stress!.day)]).toBeNull();
    const high = await series("stress.stress_high");
    expect(high.value[dayIndex(edited.daily_stress!.day)]).toBe(edited.daily_stress!.stress_high);

    // a long night whose type is new still counts as the night (an untyped period of 3 h or more)
    const hrv = await series("night.average_hrv");
    const night = edited.sleep!;
    if (typeof night.average_hrv === "number") expect(hrv.value[dayIndex(night.day)]).toBe(night.average_hrv);
  });

  it("a personal_info without id keeps the known account instead of failing the snapshot", async () => {
    const stripId: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      if (!String(input instanceof Request ? input.url : input).endsWith("/v2/usercollection/personal_info") || !res.ok) return res;
      const { id: _gone, ...rest } = (await res.json()) as Record<string, unknown>;
      return new Response(JSON.stringify(rest), { status: 200, headers: { "content-type": "application/json" } });
    };
    const engine = new app.engine.SyncEngine({ clientOptions: { backoff: FAST_BACKOFF, fetch: stripId } });
    await engine.snapshotPersonalInfo(person.userId);
    const row = app.raw.rawDb().prepare(`SELECT ringUserId, email, raw FROM personal_info WHERE userId = ?`).get(person.userId) as {
      ringUserId: string;
      email: string | null;
      raw: string;
    };
    expect(row.ringUserId).toBe(person.ringUserId);
    expect(row.email).toBe(person.email);
    expect(JSON.parse(row.raw).id).toBeUndefined();
  });
});
