// Integration: the battery and bedtime rules on the real SQLite database, fed by real syncs from
// the real emulator, sent through the real ntfy sender to a receiver on localhost. The ring's
// battery series is the emulator's own, shaped by the activity documents planted through its
// control API (a "0" block between worn blocks is the ring on its charger); the bedtime window
// is a sleep_time document planted the same way, for a person far east and one far west of
// Greenwich. Time is lib/clock.ts's manual clock, walked forward: no sleeps.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock, setClock } from "@/lib/clock";
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
import { startNtfyReceiver, type NtfyReceiver } from "@/lib/test/alert-receivers";
import { importAlertApp, type AlertApp } from "@/lib/test/alert-kit";

const TODAY = "2026-11-23";
const MIN = 60_000;
const HOUR = 60 * MIN;
const clock = new ManualClock(Date.parse(`${addDays(TODAY, 1)}T00:00:00Z`));

let t: SyncTestEnv;
let ntfy: NtfyReceiver;
let app: AlertApp;

beforeAll(async () => {
  setClock(clock);
  ntfy = await startNtfyReceiver();
  // the receivers listen on this machine, as ntfy on the LAN would
  t = await startSyncTestEnv(
    { historyDays: 30, pageSize: 100, today: TODAY },
    { AUTH_URL: "https://ringside.test", ALERT_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" },
    standingEmulator(clock.now()),
  );
  app = await importAlertApp(clock);
});

afterAll(async () => {
  setClock(undefined);
  await t?.close();
  await ntfy?.close();
});

type Person = ConnectedPerson & { topic: string };

/** A test person of the emulator (worn every day, in its own UTC offset), with documents edited before Ringside connects. */
async function person(tag: string, opts: { tzOffsetMinutes?: number; timeZone?: string; plant?: (ringUserId: string) => Promise<void> } = {}): Promise<Person> {
  const email = `${tag}@ring-rules.test`;
  const u = (await emulatorControl(t, "POST", "/users", {
    email,
    data_key: `ring-rules-${tag}`,
    wear: "always",
    history_days: 30,
    tz_offset_minutes: opts.tzOffsetMinutes ?? 0,
  })) as { user_id: string };
  await opts.plant?.(u.user_id);
  // Ringside syncs after the emulator's last day: the database holds the whole series, and the
  // rules read the readings up to the clock's now (what a sync at that moment would have had).
  clock.set(Date.parse(`${addDays(TODAY, 1)}T00:00:00Z`));
  const p = await connectPerson(t, { email });
  expect((await app.engine.backfillUser(p.userId)).filter((o) => o.result !== "done" && o.reason !== "cycle_off")).toEqual([]);
  const topic = `${tag}-topic`;
  await app.service.saveAlertSettings(p.userId, { includeValues: false, timeZone: opts.timeZone ?? "UTC" }, null);
  await app.service.addAlertChannel(p.userId, { kind: "ntfy", url: ntfy.topicUrl(topic) });
  return { ...p, topic };
}

async function patchDoc(ringUserId: string, collection: "daily_activity" | "sleep_time", day: string, fields: Record<string, unknown>): Promise<void> {
  const doc = (await emulatorDocuments(t, ringUserId, collection)).find((d) => d.day === day);
  expect(doc, `${collection} on ${day}`).toBeDefined();
  await emulatorControl(t, "PATCH", `/users/${ringUserId}/documents/${collection}/${String(doc!.id)}`, fields);
}

/**
 * A day's activity (5-minute blocks from 04:00 that day to 04:00 the next): worn and busy
 * ("5", so the battery drains about a fifth a day) but for the charges, each [first block, blocks].
 */
const activityWith = (...charges: Array<[number, number]>) => {
  const blocks = Array.from({ length: 288 }, () => "5");
  for (const [from, n] of charges) for (let b = from; b < from + n; b++) blocks[b] = "0";
  return { class_5_min: blocks.join("") };
};

const episodes = (p: Person, kind: string) =>
  (
    app.raw.rawDb().prepare(`SELECT key, startedAt FROM alert_episode WHERE userId = ? AND kind = ? ORDER BY id`).all(p.userId, kind) as Array<{
      key: string;
      startedAt: string | number;
    }>
  ).map((e) => ({
    key: e.key,
    at: typeof e.startedAt === "number" ? e.startedAt : Date.parse(e.startedAt),
  }));
const messages = (p: Person) => ntfy.messages.filter((m) => m.topic === p.topic);

/** Walks the clock from `from` to `to` in steps, the worker looking after each (as after a sync). */
async function walk(p: Person, from: number, to: number, step: number): Promise<void> {
  for (let now = from; now <= to; now += step) {
    clock.set(now);
    app.worker.markSynced(p.userId);
    await app.worker.tick();
  }
}

type Reading = { t: number; level: number; charging: boolean; in_charger: boolean };

describe("the battery rules, on the emulator's battery series", () => {
  it("ring_battery_low fires once per discharge cycle as the level crosses 20 %; ring_charged once per charge", async () => {
    // T-8: a full charge at noon too, so the walk starts well over 20 % whatever the generated
    // days before (with RING_EMULATOR_SEED=seed-eleven-2027 the level crossed 20 % on T-7's morning).
    // T-7: a full charge at noon. T-6 … T-2: worn, draining to the floor (20 % is crossed once).
    // The night to T-1: a short charge (10 min, about +32 points), then draining through 20 % again.
    // T: two full charges, 06:00 and 18:00. The walk goes from T-7 00:00 to the end of T.
    const day = (d: number) => addDays(TODAY, d);
    const p = await person("battery", {
      plant: async (id) => {
        await patchDoc(id, "daily_activity", day(-8), activityWith([96, 12]));
        await patchDoc(id, "daily_activity", day(-7), activityWith([96, 12]));
        for (const d of [-6, -5, -4, -3]) await patchDoc(id, "daily_activity", day(d), activityWith());
        await patchDoc(id, "daily_activity", day(-2), activityWith([276, 2])); // 03:00–03:10 on T-1
        await patchDoc(id, "daily_activity", day(-1), activityWith());
        await patchDoc(id, "daily_activity", day(0), activityWith([24, 12], [168, 12]));
      },
    });
    await app.service.addAlertRule(p.userId, { kind: "ring_battery_low", params: { level: 20 } });
    await app.service.addAlertRule(p.userId, { kind: "ring_charged", params: { level: 100 } });

    // The series as the emulator serves it: on the charger exactly where planted.
    const series = (await emulatorSamples(t, p.ringUserId, "ring_battery_level", { start: `${day(-7)}T00:00:00Z`, end: `${day(0)}T23:59:59Z` })).map((s) => ({
      t: Date.parse(String(s.timestamp)),
      level: Number(s.level),
      charging: s.charging === true,
      in_charger: s.in_charger === true,
    })) as Reading[];
    const hourOf = (r: Reading) => new Date(r.t).toISOString().slice(0, 13);
    expect([...new Set(series.filter((r) => r.in_charger).map(hourOf))]).toEqual([`${day(-7)}T12`, `${day(-1)}T03`, `${day(0)}T06`, `${day(0)}T18`]);
    const partial = series.filter((r) => r.in_charger && hourOf(r) === `${day(-1)}T03`);
    expect(Math.max(...partial.map((r) => r.level))).toBeLessThan(100);
    const firstAtOrUnder = (from: number) => series.find((r) => r.t >= from && !r.in_charger && r.level <= 20)!;
    const crossing1 = firstAtOrUnder(Date.parse(`${day(-7)}T13:00:00Z`));
    const crossing2 = firstAtOrUnder(partial.at(-1)!.t);
    expect(crossing1.t).toBeLessThan(partial[0]!.t);
    expect(crossing2.t).toBeLessThan(Date.parse(`${day(0)}T06:00:00Z`));
    const full = (hour: string) => series.find((r) => r.in_charger && r.level === 100 && hourOf(r) === hour)!;

    const STEP = 15 * MIN;
    await walk(p, Date.parse(`${day(-7)}T00:00:00Z`), Date.parse(`${day(0)}T23:50:00Z`), STEP);

    const low = episodes(p, "ring_battery_low");
    expect(low).toHaveLength(2);
    // each at the first look after the reading at or under 20 % (the walk looks every 15 minutes)
    for (const [e, crossing] of [
      [low[0]!, crossing1],
      [low[1]!, crossing2],
    ] as const) {
      expect(e.at).toBeGreaterThanOrEqual(crossing.t);
      expect(e.at - crossing.t).toBeLessThan(STEP);
    }
    // the three full charges, none for the short one
    const charged = episodes(p, "ring_charged");
    expect(charged).toHaveLength(3);
    for (const [e, hour] of [
      [charged[0]!, `${day(-7)}T12`],
      [charged[1]!, `${day(0)}T06`],
      [charged[2]!, `${day(0)}T18`],
    ] as const) {
      expect(e.at).toBeGreaterThanOrEqual(full(hour).t);
      expect(e.at - full(hour).t).toBeLessThan(STEP);
    }
    const sent = messages(p);
    expect(sent.map((m) => m.title)).toEqual(["Ring charged", "Ring battery low", "Ring battery low", "Ring charged", "Ring charged"]);
    expect(sent[1]!.message).toContain("at or under 20 %");
    expect(sent[1]!.click).toBe("https://ringside.test/");
  }, 240_000);

  it("nothing fires on stale data: a low level read over three hours ago, until a fresh reading arrives", async () => {
    // a full charge at noon five days ago, worn since: at the floor by the end of today
    const p = await person("stale", {
      plant: async (id) => {
        await patchDoc(id, "daily_activity", addDays(TODAY, -5), activityWith([96, 12]));
        for (const d of [-4, -3, -2, -1, 0]) await patchDoc(id, "daily_activity", addDays(TODAY, d), activityWith());
      },
    });
    const last = (await emulatorSamples(t, p.ringUserId, "ring_battery_level", { start: `${TODAY}T00:00:00Z` })).at(-1)!;
    expect(Number(last.level)).toBeLessThanOrEqual(20);
    // three and a half hours after the newest reading, the rule is added: nothing
    clock.set(Date.parse(String(last.timestamp)) + 3.5 * HOUR);
    await app.service.addAlertRule(p.userId, { kind: "ring_battery_low", params: { level: 20 } });
    await walk(p, clock.now(), clock.now() + HOUR, 10 * MIN);
    expect(episodes(p, "ring_battery_low")).toEqual([]);
    expect(messages(p)).toEqual([]);
    // the ring syncs the next day's first hours: a fresh reading, still low: one message
    await emulatorControl(t, "POST", `/users/${p.ringUserId}/sync`, { day: addDays(TODAY, 1) });
    await app.engine.syncUser(p.userId);
    await walk(p, clock.now() + 10 * MIN, clock.now() + 2 * HOUR, 10 * MIN);
    expect(messages(p).map((m) => m.title)).toEqual(["Ring battery low"]);
  });
});

describe("the bedtime window, in the person's time zone", () => {
  for (const { tag, offsetMinutes, zone, startOffset, start, words } of [
    // UTC+14: 22:30 on the evening of TODAY is 08:30 UTC that day
    { tag: "kiritimati", offsetMinutes: 840, zone: "Pacific/Kiritimati", startOffset: -5400, start: `${TODAY}T08:30:00Z`, words: "22:30 – 23:30" },
    // UTC−11: 00:15 after the evening of TODAY is 11:15 UTC the next day
    { tag: "pago-pago", offsetMinutes: -660, zone: "Pacific/Pago_Pago", startOffset: 900, start: `${addDays(TODAY, 1)}T11:15:00Z`, words: "00:15 – 01:15" },
  ]) {
    it(`bedtime_window fires once at the window's start (${zone})`, async () => {
      const window = { day_tz: offsetMinutes * 60, start_offset: startOffset, end_offset: startOffset + 3600 };
      const p = await person(tag, {
        tzOffsetMinutes: offsetMinutes,
        timeZone: zone,
        plant: (id) => patchDoc(id, "sleep_time", TODAY, { optimal_bedtime: window, status: "optimal_found", recommendation: "follow_optimal_bedtime" }),
      });
      await app.service.addAlertRule(p.userId, { kind: "bedtime_window", params: {} });
      const s = Date.parse(start);
      await walk(p, s - 15 * MIN, s + 75 * MIN, 30_000);
      const e = episodes(p, "bedtime_window");
      expect(e).toEqual([{ key: TODAY, at: s }]);
      expect(messages(p).map((m) => m.title)).toEqual([`Bedtime window open: ${words}`]);
      expect(messages(p)[0]!.message).toContain("The ring's advice: keep to your optimal bedtime.");
    });
  }
});
