// The emulator's routes of the derived resources and time series beyond what the conformance
// suite checks: the series follow the clock on the data's last day, follow the documents they
// come from (revisions, deletions), and the control API edits the new documents.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "@/lib/clock";
import { DAILY_COLLECTIONS } from "./generator";
import { RESOURCE_COLLECTIONS } from "./resources";
import { addDays } from "@/lib/days";
import { startEmulator, type RunningEmulator } from "./server";
import { TEST_TODAY, call, connect, uniqueEmail, wornEmail } from "@/lib/test/emulator-kit";

type Row = { bpm: number; source: string; timestamp: string; timestamp_unix: number };

let emu: RunningEmulator;
let base: string;
const clock = new ManualClock(Date.parse(`${TEST_TODAY}T12:00:00Z`));

beforeAll(async () => {
  emu = await startEmulator({ port: 0, pageSize: 7, webhookDelayMs: 0, historyDays: 30, today: TEST_TODAY }, { clock });
  base = emu.url;
});
afterAll(() => emu.close());

async function rows(token: string, query: Record<string, string> = {}, collection = "heartrate"): Promise<Row[]> {
  const out: Row[] = [];
  let next: string | null = null;
  do {
    const q = new URLSearchParams(next ? { ...query, next_token: next } : query);
    const r = await call(base, `/v2/usercollection/${collection}?${q}`, { token });
    expect(r.status, r.text).toBe(200);
    out.push(...r.body.data);
    next = r.body.next_token;
  } while (next);
  return out;
}

describe("time series and the clock", () => {
  it("on the data's last day the samples stop at now and the default window is the 24 hours before it; later samples appear as time passes", async () => {
    const t = await connect(base, undefined, { email: wornEmail("now", [TEST_TODAY]) });
    const noon = clock.now();
    const before = await rows(t.access_token);
    expect(before.length).toBeGreaterThan(50);
    for (const r of before) {
      expect(r.timestamp_unix).toBeLessThanOrEqual(noon);
      expect(r.timestamp_unix).toBeGreaterThanOrEqual(noon - 86_400_000);
    }
    const latest = (await call(base, "/v2/usercollection/heartrate?latest=true", { token: t.access_token })).body.data;
    expect(latest).toEqual([before.at(-1)]);
    await clock.advance(3 * 3600_000);
    const after = await rows(t.access_token, { start_datetime: `${TEST_TODAY}T00:00:00Z` });
    expect(after.at(-1)!.timestamp_unix).toBeGreaterThan(noon);
    expect(after.at(-1)!.timestamp_unix).toBeLessThanOrEqual(clock.now());
    // the emulator's own listing shows what the routes serve: nothing after now
    const listed = (await call(base, `/_emulator/users/${t.user_id}/documents/heartrate?start=${TEST_TODAY}&end=${TEST_TODAY}`)).body.data as Row[];
    expect(listed).toEqual(after);
  });

  it("an expired membership gets 403 on the new routes too", async () => {
    const t = await connect(base, undefined, { email: uniqueEmail("exp") });
    await call(base, `/_emulator/users/${t.user_id}`, { method: "PATCH", json: { subscription: "expired" } });
    for (const c of ["heartrate", "ring_battery_level", "workout", "ring_configuration"])
      expect((await call(base, `/v2/usercollection/${c}`, { token: t.access_token })).status, c).toBe(403);
  });
});

describe("the series follow the documents they come from", () => {
  it("a revised night's own heart_rate samples are the series' sleep samples after sync", async () => {
    const day = addDays(TEST_TODAY, -4);
    const t = await connect(base, undefined, { email: wornEmail("rev", [day]) });
    const sleepOf = async () =>
      ((await call(base, `/_emulator/users/${t.user_id}/documents/sleep`)).body.data as Array<Record<string, any>>).find(
        (s) => s.day === day && s.type === "long_sleep",
      )!;
    const series = async (night: Record<string, any>) =>
      (await rows(t.access_token, { start_datetime: night.bedtime_start, end_datetime: night.bedtime_end })).filter((r) => r.source === "sleep");
    const expected = (night: Record<string, any>) => (night.heart_rate.items as Array<number | null>).flatMap((v) => (v === null ? [] : [v]));
    const before = await sleepOf();
    expect((await series(before)).map((r) => r.bpm)).toEqual(expected(before));
    await call(base, `/_emulator/users/${t.user_id}/sync`, { json: { day } });
    const after = await sleepOf();
    expect(after.id).toBe(before.id);
    expect(after.heart_rate).not.toEqual(before.heart_rate);
    expect((await series(after)).map((r) => r.bpm)).toEqual(expected(after));
  });

  it("a deleted sleep period leaves its night without sleep samples; a deleted workout leaves no workout samples", async () => {
    const day = addDays(TEST_TODAY, -6);
    const t = await connect(base, undefined, { email: wornEmail("del", [day]) });
    const night = ((await call(base, `/_emulator/users/${t.user_id}/documents/sleep`)).body.data as Array<Record<string, any>>).find(
      (s) => s.day === day && s.type === "long_sleep",
    )!;
    await call(base, `/_emulator/users/${t.user_id}/documents/sleep/${night.id}/delete`, { method: "POST" });
    const during = await rows(t.access_token, { start_datetime: night.bedtime_start, end_datetime: night.bedtime_end });
    expect(during.length).toBeGreaterThan(0);
    expect(during.some((r) => r.source === "sleep")).toBe(false);
    const workouts = (await call(base, `/_emulator/users/${t.user_id}/documents/workout`)).body.data as Array<Record<string, any>>;
    expect(workouts.length).toBeGreaterThan(0);
    const w = workouts[0]!;
    expect((await rows(t.access_token, { start_datetime: w.start_datetime, end_datetime: w.end_datetime })).some((r) => r.source === "workout")).toBe(true);
    await call(base, `/_emulator/users/${t.user_id}/documents/workout/${w.id}/delete`, { method: "POST" });
    const gone = await rows(t.access_token, { start_datetime: w.start_datetime, end_datetime: w.end_datetime });
    expect(gone.some((r) => r.source === "workout")).toBe(false);
  });
});

describe("the control API and the new documents", () => {
  it("edits a new resource's document (served as edited, update event); vO2_max events say vo2_max", async () => {
    const t = await connect(base, undefined, { email: uniqueEmail("edit") });
    const vo2 = (await call(base, `/_emulator/users/${t.user_id}/documents/vO2_max`)).body.data as Array<Record<string, any>>;
    expect(vo2.length).toBeGreaterThan(0);
    const doc = vo2.at(-1)!;
    const edit = await call(base, `/_emulator/users/${t.user_id}/documents/vO2_max/${doc.id}`, { method: "PATCH", json: { vo2_max: 61 } });
    expect(edit.status).toBe(200);
    expect(edit.body.document).toEqual({ ...doc, vo2_max: 61 });
    expect(edit.body.events).toEqual([expect.objectContaining({ event_type: "update", data_type: "vo2_max", object_id: doc.id })]);
    expect((await call(base, `/v2/usercollection/vO2_max/${doc.id}`, { token: t.access_token })).body.vo2_max).toBe(61);
    const tag = ((await call(base, `/_emulator/users/${t.user_id}/documents/enhanced_tag`)).body.data as Array<Record<string, any>>)[0]!;
    const edited = await call(base, `/_emulator/users/${t.user_id}/documents/enhanced_tag/${tag.id}`, { method: "PATCH", json: { comment: "later" } });
    expect(edited.body.document).toEqual({ ...tag, comment: "later" });
    expect("day" in edited.body.document).toBe(false);
    expect((await call(base, `/_emulator/users/${t.user_id}/documents/heartrate/1/delete`, { method: "POST" })).status).toBe(404);
    expect((await call(base, `/_emulator/users/${t.user_id}/documents/ring_battery_level/1`, { method: "PATCH", json: { level: 1 } })).status).toBe(404);
  });

  it("sync of a new day answers every collection's documents (the new ones included) and the day's sample counts", async () => {
    const day = addDays(TEST_TODAY, 2);
    const t = await connect(base, undefined, { email: wornEmail("sync", [day]) });
    const r = await call(base, `/_emulator/users/${t.user_id}/sync`, { json: { day } });
    expect(Object.keys(r.body.documents).sort()).toEqual([...DAILY_COLLECTIONS, "sleep", ...RESOURCE_COLLECTIONS].sort());
    expect(r.body.events.every((e: { event_type: string }) => e.event_type === "create")).toBe(true);
    for (const d of r.body.documents.sleep_time) expect(d.day).toBe(day);
    expect(r.body.samples.heartrate).toBeGreaterThan(100);
    expect(r.body.samples.ring_battery_level).toBeGreaterThan(20);
  });
});

describe("windows that meet at a midnight", () => {
  const iso = (ms: number) => new Date(ms).toISOString();

  it("a night's sample at 23:59:59.6 is served at midnight by the window that starts there, and by no window that ends before it", async () => {
    const day = addDays(TEST_TODAY, -5);
    // a person who wore the ring both days and slept a main sleep that night (a generated person
    // may not): the first of ten, looked at through the control API (only that one signs in: an
    // unapproved app takes ten people)
    let email: string | null = null;
    let night: Record<string, any> | undefined;
    for (let k = 0; k < 10 && !night; k++) {
      email = wornEmail(k === 0 ? "midnight" : `midnight-${k}`, [addDays(day, -1), day]);
      const user = (await call(base, "/_emulator/users", { json: { email } })).body as { user_id: string };
      night = ((await call(base, `/_emulator/users/${user.user_id}/documents/sleep`)).body.data as Array<Record<string, any>>).find(
        (s) => s.day === day && s.type === "long_sleep",
      );
    }
    if (!email || !night) throw new Error("none of ten test people slept a main sleep that night");
    const t = await connect(base, undefined, { email });
    // the night's samples every five minutes, the sixth at 23:59:59.6 (the service's own are whole seconds)
    const midnight = Date.parse(`${day}T00:00:00Z`);
    const t0 = midnight - 400 - 5 * 300_000;
    const items = Array.from({ length: 12 }, (_, i) => 50 + i);
    const edit = await call(base, `/_emulator/users/${t.user_id}/documents/sleep/${night.id}`, {
      method: "PATCH",
      json: { bedtime_start: iso(t0), bedtime_end: iso(t0 + items.length * 300_000), heart_rate: { interval: 300, items, timestamp: iso(t0) } },
    });
    expect(edit.status, edit.text).toBe(200);
    const sleepRows = async (start: number, end: number) =>
      (await rows(t.access_token, { start_datetime: iso(start), end_datetime: iso(end) })).filter((r) => r.source === "sleep");
    const hour = 3_600_000;

    const before = await sleepRows(midnight - hour, midnight - 1000);
    const from = await sleepRows(midnight, midnight + hour);
    const across = await sleepRows(midnight - hour, midnight + hour);
    expect(before.map((r) => r.timestamp_unix)).toEqual([-1500, -1200, -900, -600, -300].map((s) => midnight + s * 1000));
    expect(from[0]).toEqual({ bpm: 55, source: "sleep", timestamp: `${day}T00:00:00+00:00`, timestamp_unix: midnight });
    expect(across).toEqual([...before, ...from]);
    // a window that ends at midnight serves it too (the end is inclusive)
    expect((await sleepRows(midnight - hour, midnight)).at(-1)).toEqual(from[0]);
    // the emulator's own listing has it once
    const listed = (await call(base, `/_emulator/users/${t.user_id}/documents/heartrate?start=${addDays(day, -1)}&end=${day}`)).body.data as Row[];
    expect(listed.filter((r) => r.timestamp_unix === midnight)).toEqual([from[0]]);
  });

  for (const tz of [0, 330, -480]) {
    it(`days read window by window equal the listing, for both series, whichever side of each midnight a window starts (UTC${tz >= 0 ? "+" : ""}${tz / 60})`, async () => {
      const email = uniqueEmail(`edges${tz}`);
      await call(base, "/_emulator/users", { json: { email, tz_offset_minutes: tz, wear: "always" } });
      const t = await connect(base, undefined, { email });
      const first = addDays(TEST_TODAY, -12);
      const midnights = Array.from({ length: 11 }, (_, k) => Date.parse(`${addDays(first, k)}T00:00:00Z`) - tz * 60_000);
      for (const collection of ["heartrate", "ring_battery_level"]) {
        const listed = (
          (await call(base, `/_emulator/users/${t.user_id}/documents/${collection}?start=${addDays(first, -1)}&end=${addDays(first, 12)}`)).body.data as Row[]
        ).map((r) => r.timestamp_unix);
        const between = (a: number, b: number) => listed.filter((x) => x >= a && x <= b);
        const read = async (a: number, b: number) =>
          (await rows(t.access_token, { start_datetime: iso(a), end_datetime: iso(b) }, collection)).map((r) => r.timestamp_unix);
        // each window starts at a midnight and ends a second before the next; then each starts a second after one and ends at the next
        const startingAt: number[] = [];
        const endingAt: number[] = [];
        for (let k = 0; k + 1 < midnights.length; k++) {
          startingAt.push(...(await read(midnights[k]!, midnights[k + 1]! - 1000)));
          endingAt.push(...(await read(midnights[k]! + 1000, midnights[k + 1]!)));
        }
        expect(startingAt.length, collection).toBeGreaterThan(10 * (collection === "heartrate" ? 100 : 20));
        expect(startingAt, collection).toEqual(between(midnights[0]!, midnights.at(-1)! - 1000));
        expect(endingAt, collection).toEqual(between(midnights[0]! + 1000, midnights.at(-1)!));
      }
    });
  }
});
