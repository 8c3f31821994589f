// GET /api/v1/state on a real (temporary) database filled by a real backfill from the emulator:
// the fields for a person with data, each equal to what the emulator served; 304 on a repeat
// with the ETag (until the data or the person's day changes); only what a token's kinds allow.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock, setClock } from "@/lib/clock";
import type { DataKind } from "@/lib/auth/api-scopes";
import type { RingCollection } from "@/lib/resources";
import { DATA_KINDS } from "@/lib/auth/api-scopes";
import { addDays } from "@/lib/days";
import {
  connectPerson,
  emulatorControl,
  emulatorDocuments,
  emulatorSamples,
  startSyncTestEnv,
  type ConnectedPerson,
  type SyncTestEnv,
  standingEmulator,
} from "@/lib/test/sync-kit";

const TODAY = "2026-11-23";
const clock = new ManualClock(Date.parse(`${TODAY}T20:00:00Z`));
let t: SyncTestEnv;
let p: ConnectedPerson;
type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
let GET: Handler;

async function token(kinds: readonly DataKind[]): Promise<string> {
  const { createApiToken } = await import("@/lib/services/api-tokens");
  return (await createApiToken(p.userId, { name: `state ${kinds.length} ${Math.random()}`, kinds })).token;
}

async function state(bearer: string, headers: Record<string, string> = {}) {
  const res = await GET(new Request("http://localhost/api/v1/state", { headers: { authorization: `Bearer ${bearer}`, ...headers } }), {
    params: Promise.resolve({}),
  });
  return { status: res.status, etag: res.headers.get("etag"), headers: res.headers, body: res.status === 200 ? await res.json() : await res.text() };
}

beforeAll(async () => {
  setClock(clock);
  t = await startSyncTestEnv({ historyDays: 20, pageSize: 100, today: TODAY }, {}, standingEmulator(clock.now()));
  const email = "state@state.test";
  const u = (await emulatorControl(t, "POST", "/users", { email, data_key: "state-endpoint", wear: "always", history_days: 20, tz_offset_minutes: 60 })) as {
    user_id: string;
  };
  // tonight's guidance with a window, 22:30–23:30 at UTC+1
  const tonight = (await emulatorDocuments(t, u.user_id, "sleep_time")).find((d) => d.day === TODAY);
  expect(tonight).toBeDefined();
  await emulatorControl(t, "PATCH", `/users/${u.user_id}/documents/sleep_time/${String(tonight!.id)}`, {
    optimal_bedtime: { day_tz: 3600, start_offset: -5400, end_offset: -1800 },
    status: "optimal_found",
    recommendation: "earlier_bedtime",
  });
  // today's values the answer reads, planted: a generated day may lack one (a readiness without a
  // temperature deviation), and the answer then gives an earlier day's
  const plant = async (collection: RingCollection, fields: Record<string, unknown>, pick: (d: Record<string, unknown>) => boolean = () => true) => {
    const doc = (await emulatorDocuments(t, u.user_id, collection)).find((d) => d.day === TODAY && pick(d));
    expect(doc, `${collection} of ${TODAY}`).toBeDefined();
    await emulatorControl(t, "PATCH", `/users/${u.user_id}/documents/${collection}/${String(doc!.id)}`, fields);
  };
  await plant("daily_readiness", { score: 81, temperature_deviation: -0.12 });
  await plant("daily_sleep", { score: 77 });
  await plant("daily_activity", { score: 68 });
  await plant("sleep", { lowest_heart_rate: 49, average_hrv: 52, average_breath: 14.5 }, (d) => d.type === "long_sleep");
  p = await connectPerson(t, { email });
  const { SyncEngine } = await import("@/lib/sync/engine");
  const engine = new SyncEngine({ clock: { now: () => clock.now(), sleep: async () => undefined } });
  expect((await engine.backfillUser(p.userId)).filter((o) => o.result !== "done" && o.reason !== "cycle_off")).toEqual([]);
  GET = (await import("@/app/api/v1/state/route")).GET as unknown as Handler;
});

afterAll(async () => {
  setClock(undefined);
  await t?.close();
});

describe("GET /api/v1/state", () => {
  it("answers the newest scores, last night's values, the battery and tonight's bedtime window, each with its freshness", async () => {
    const r = await state(await token(DATA_KINDS));
    expect(r.status).toBe(200);
    const doc = (c: "daily_readiness" | "daily_sleep" | "daily_activity") =>
      emulatorDocuments(t, p.ringUserId, c).then((ds) => ds.find((d) => d.day === TODAY)!);
    const [readiness, sleepScore, activity] = await Promise.all([doc("daily_readiness"), doc("daily_sleep"), doc("daily_activity")]);
    const mains = (await emulatorDocuments(t, p.ringUserId, "sleep")).filter((s) => s.day === TODAY && s.type === "long_sleep");
    expect(mains).toHaveLength(1);
    const night = mains[0]!;
    // the newest reading stored (the emulator's clock stands at the sync's now: the series it serves ends there)
    const battery = (await emulatorSamples(t, p.ringUserId, "ring_battery_level", { start: `${TODAY}T00:00:00Z` })).at(-1)!;
    const v = (value: unknown, unit: string) => ({ value, unit, day: TODAY, ageDays: 0 });
    expect(r.body).toEqual({
      today: TODAY,
      timeZone: "UTC",
      scores: { readiness: v(readiness.score, "score"), sleep: v(sleepScore.score, "score"), activity: v(activity.score, "score") },
      night: {
        lowestHeartRate: v(night.lowest_heart_rate, "bpm"),
        averageHrv: v(night.average_hrv, "ms"),
        breathingRate: v(night.average_breath, "/min"),
        temperatureDeviation: v(readiness.temperature_deviation, "°C"),
      },
      battery: {
        level: battery.level,
        charging: battery.charging,
        inCharger: battery.in_charger,
        at: new Date(String(battery.timestamp)).toISOString(),
        freshUntil: new Date(Date.parse(String(battery.timestamp)) + 3 * 3_600_000).toISOString(),
      },
      bedtime: {
        day: TODAY,
        start: `${TODAY}T22:30:00+01:00`,
        end: `${TODAY}T23:30:00+01:00`,
        status: "optimal_found",
        recommendation: "earlier_bedtime",
        ageDays: 0,
      },
    });
    for (const x of [readiness.score, night.lowest_heart_rate, night.average_hrv, battery.level]) expect(typeof x).toBe("number");
    expect(r.headers.get("x-ratelimit-limit")).toBe("120");
  });

  it("is cheap to poll: 304 on a repeat with the ETag, a new answer when the data or the person's day changes", async () => {
    const bearer = await token(DATA_KINDS);
    const first = await state(bearer);
    expect(first.etag).toMatch(/^W\/"/);
    expect(first.headers.get("cache-control")).toBe("private, no-cache");
    const again = await state(bearer, { "if-none-match": first.etag! });
    expect(again.status).toBe(304);
    expect(again.body).toBe("");
    expect(again.etag).toBe(first.etag);
    // the ring service sends a change: a new version of the data
    const { setDayNote } = await import("@/lib/db/queries/notes");
    await setDayNote({ userId: p.userId, day: TODAY, text: "a note", tags: [] });
    const changed = await state(bearer, { "if-none-match": first.etag! });
    expect(changed.status).toBe(200);
    expect(changed.etag).not.toBe(first.etag);
    // midnight in the person's zone: the same data, a day older
    clock.set(Date.parse(`${addDays(TODAY, 1)}T00:30:00Z`));
    const tomorrow = await state(bearer, { "if-none-match": changed.etag! });
    expect(tomorrow.status).toBe(200);
    expect(tomorrow.body).toMatchObject({ today: addDays(TODAY, 1), scores: { sleep: { day: TODAY, ageDays: 1 } }, bedtime: { ageDays: 1 } });
    expect((await state(bearer, { "if-none-match": tomorrow.etag! })).status).toBe(304);
    // another time zone in Settings → Alerts: another answer
    const { saveAlertSettings } = await import("@/lib/services/alerts");
    await saveAlertSettings(p.userId, { includeValues: false, timeZone: "Europe/London" }, null);
    const zoned = await state(bearer, { "if-none-match": tomorrow.etag! });
    expect(zoned.status).toBe(200);
    expect(zoned.body.timeZone).toBe("Europe/London");
    await saveAlertSettings(p.userId, { includeValues: false, timeZone: "UTC" }, null);
    clock.set(Date.parse(`${TODAY}T20:00:00Z`));
  });

  it("answers only what the token's data kinds allow", async () => {
    const sleepOnly = await state(await token(["daily_sleep"]));
    expect(sleepOnly.status).toBe(200);
    expect(sleepOnly.body.scores).toEqual({ readiness: null, sleep: expect.objectContaining({ day: TODAY }), activity: null });
    expect(sleepOnly.body.night).toEqual({ lowestHeartRate: null, averageHrv: null, breathingRate: null, temperatureDeviation: null });
    expect(sleepOnly.body.battery).toBeNull();
    expect(sleepOnly.body.bedtime).toBeNull();
    const ring = await state(await token(["ring_battery_level", "sleep_time"]));
    expect(ring.body.scores).toEqual({ readiness: null, sleep: null, activity: null });
    expect(ring.body.battery).toMatchObject({ level: expect.any(Number) });
    expect(ring.body.bedtime).toMatchObject({ day: TODAY });
    const night = await state(await token(["sleep"]));
    expect(Object.values(night.body.night).map((x) => x !== null)).toEqual([true, true, true, false]);
    // two tokens with other kinds never share a tag
    expect(sleepOnly.etag).not.toBe(ring.etag);
  });

  it("refuses a request without a token", async () => {
    const res = await GET(new Request("http://localhost/api/v1/state"), { params: Promise.resolve({}) });
    expect(res.status).toBe(401);
  });
});
