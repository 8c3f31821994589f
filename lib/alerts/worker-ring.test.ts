// The worker's battery and bedtime rules on an in-memory store, fake facts, recording senders
// and the manual clock of lib/clock.ts: no database, no network, no sleeps. Each rule reaches
// each channel once per discharge cycle, charge or night; nothing goes out on stale data; quiet
// hours hold an alert until they end.
import { beforeEach, describe, expect, it } from "vitest";
import { ManualClock } from "@/lib/clock";
import { AlertWorker } from "@/lib/alerts/worker";
import { MemoryAlertStore, quietFacts, recordingSenders } from "@/lib/test/alert-kit";
import type { AlertFacts } from "@/lib/alerts/facts";
import type { AlertSettingsRow } from "@/lib/db/queries/alert-rows";
import type { BatterySample } from "@/lib/alerts/battery";
import type { BedtimeRow } from "@/lib/metrics/bedtime";

const USER = "user-1";
const MIN = 60_000;
const HOUR = 60 * MIN;

type Facts = AlertFacts & { battery: BatterySample[]; bedtime: BedtimeRow | null };

function fakeFacts(): Facts {
  const f: Facts = {
    battery: [],
    bedtime: null,
    ...quietFacts({
      // what the database holds: readings the ring has sent, never one from after now
      batterySamples: async (_u, from, to) => f.battery.filter((s) => s.t >= from && s.t <= to),
      newestBedtime: async () => f.bedtime,
    }),
  };
  return f;
}

let clock: ManualClock;
let store: MemoryAlertStore;
let facts: Facts;

function worker() {
  const rec = recordingSenders();
  const w = new AlertWorker({
    store,
    facts,
    senders: rec.senders,
    clock,
    decrypt: (s) => s,
    linkBase: "https://ring.example",
    evaluateEveryMs: 5 * MIN,
    log: { info: () => undefined, warn: () => undefined, error: () => undefined },
  });
  return { w, sent: rec.sent };
}

function settings(patch: Partial<AlertSettingsRow>): void {
  store.settings.set(USER, { userId: USER, includeValues: false, timeZone: "UTC", linkBase: null, quietHours: null, ...patch });
}

/** A reading every 30 minutes from `start`: "d" discharging, "c" charging, "f" full in the charger. */
function plant(start: number, levels: number[], flags: string): BatterySample[] {
  return levels.map((level, i) => {
    const f = flags[i] ?? "d";
    return { t: start + i * 30 * MIN, level, charging: f === "c", inCharger: f !== "d" };
  });
}

/** The ring syncs each reading a minute after taking it; the worker looks after each sync. */
async function replay(w: AlertWorker, readings: BatterySample[]): Promise<void> {
  for (const r of readings) {
    facts.battery.push(r);
    clock.set(r.t + MIN);
    w.markSynced(USER);
    await w.tick();
  }
}

const T0 = Date.parse("2026-11-23T08:00:00Z");

beforeEach(() => {
  clock = new ManualClock(T0);
  store = new MemoryAlertStore();
  facts = fakeFacts();
  store.addChannel(USER, "ntfy", { url: "https://ntfy.sh/t" });
  store.addChannel(USER, "webhook", { url: "https://hook.example/x", secret: "s" });
});

describe("ring_battery_low", () => {
  it("fires once when the level crosses the threshold while discharging, and not again until after a charge", async () => {
    store.addRule(USER, "ring_battery_low", { level: 20 });
    const { w, sent } = worker();
    // drains from 24 through 20 to 15, wobbling back to 21 once (one cycle)
    await replay(w, plant(T0, [24, 23, 21], "ddd"));
    expect(sent).toHaveLength(0);
    await replay(w, plant(T0 + 90 * MIN, [19], "d"));
    expect(sent.map((s) => [s.target.kind, s.message.title])).toEqual([
      ["ntfy", "Ring battery low"],
      ["webhook", "Ring battery low"],
    ]);
    expect(sent[0]!.message.body).toContain("at or under 20 %");
    expect(JSON.stringify(sent.map((s) => s.message))).not.toContain("19"); // no reading without values
    await replay(w, plant(T0 + 120 * MIN, [18, 21, 17, 15], "dddd"));
    // hours later, still draining: nothing more
    for (let i = 0; i < 12; i++) await replay(w, plant(clock.now() + 29 * MIN, [14], "d"));
    expect(sent).toHaveLength(2);
    // a charge to 100 ends the cycle; the next discharge through 20 is a new message
    await replay(w, plant(clock.now() + 29 * MIN, [40, 80, 100, 100], "ccff"));
    await replay(w, plant(clock.now() + 29 * MIN, [60, 35, 21], "ddd"));
    expect(sent).toHaveLength(2);
    await replay(w, plant(clock.now() + 29 * MIN, [20, 19], "dd"));
    expect(sent).toHaveLength(4);
    expect(new Set(sent.map((s) => s.message.id)).size).toBe(2);
    expect(store.episodes.filter((e) => e.kind === "ring_battery_low").map((e) => e.endedAt === null)).toEqual([false, true]);
  });

  it("with values included, says the level and when it was read", async () => {
    settings({ includeValues: true, timeZone: "Europe/Berlin" });
    store.addRule(USER, "ring_battery_low", { level: 25 });
    const { w, sent } = worker();
    await replay(w, plant(T0, [26, 24], "dd"));
    expect(sent[0]!.message).toMatchObject({ title: "Ring battery at 24 %", data: { threshold: 25, values: { level: 24 } } });
    expect(sent[0]!.message.body).toContain("at 24 % at 09:30"); // 08:30 UTC in Berlin
  });
});

describe("ring_charged", () => {
  it("fires once per charge, when the level is reached on the charger", async () => {
    store.addRule(USER, "ring_charged", { level: 100 });
    const { w, sent } = worker();
    await replay(w, plant(T0, [30, 60, 90, 99], "dccc"));
    expect(sent).toHaveLength(0);
    await replay(w, plant(T0 + 120 * MIN, [100, 100, 100, 100], "ffff"));
    expect(sent.map((s) => s.message.title)).toEqual(["Ring charged", "Ring charged"]);
    // off the charger, worn for a day, then a second charge
    await replay(w, plant(clock.now() + 29 * MIN, [99, 95, 80], "ddd"));
    await replay(w, plant(clock.now() + 29 * MIN, [95, 100, 100], "cff"));
    expect(sent).toHaveLength(4);
    // a partial charge that stops short of the level: nothing
    await replay(w, plant(clock.now() + 29 * MIN, [90, 70, 85, 96, 90], "ddccd"));
    expect(sent).toHaveLength(4);
  });
});

describe("nothing fires on stale data", () => {
  it("battery readings older than three hours neither open nor close anything", async () => {
    store.addRule(USER, "ring_battery_low", { level: 20 });
    store.addRule(USER, "ring_charged", { level: 100 });
    facts.battery = [...plant(T0, [25, 15], "dd"), ...plant(T0 + 2 * HOUR, [100], "f")];
    const { w, sent } = worker();
    clock.set(T0 + 2 * HOUR + 3 * HOUR + 1); // the newest reading is 3 h 0.001 s old
    w.markSynced(USER);
    await w.tick();
    expect(sent).toHaveLength(0);
    expect(store.episodes).toHaveLength(0);
  });

  it("bedtime guidance for an earlier night sends nothing tonight", async () => {
    store.addRule(USER, "bedtime_window", {});
    facts.bedtime = { day: "2026-11-22", status: "optimal_found", recommendation: null, start_offset: -5400, end_offset: -1800, day_tz: 0 };
    const { w, sent } = worker();
    for (let t = Date.parse("2026-11-23T22:00:00Z"); t < Date.parse("2026-11-24T00:00:00Z"); t += 5 * MIN) {
      clock.set(t);
      await w.tick();
    }
    expect(sent).toHaveLength(0);
  });
});

describe("bedtime_window", () => {
  /** Ticks every 30 s (the worker's own period) from `from` to `to`; the instants at which something was sent. */
  async function tickThrough(w: AlertWorker, sent: unknown[], from: number, to: number): Promise<number[]> {
    const at: number[] = [];
    for (let t = from; t < to; t += 30_000) {
      clock.set(t);
      const before = sent.length;
      await w.tick();
      if (sent.length > before) at.push(t);
    }
    return at;
  }

  for (const { zone, offsetH, day, start, localStart } of [
    { zone: "Pacific/Kiritimati", offsetH: 14, day: "2026-11-23", start: "2026-11-23T08:30:00Z", localStart: "22:30 – 23:30" },
    { zone: "Pacific/Pago_Pago", offsetH: -11, day: "2026-11-23", start: "2026-11-24T11:15:00Z", localStart: "00:15 – 01:15" },
  ]) {
    it(`fires once at the window's start in the person's zone (${zone}, UTC${offsetH > 0 ? "+" : "−"}${Math.abs(offsetH)})`, async () => {
      settings({ timeZone: zone });
      store.addRule(USER, "bedtime_window", {});
      const startOffset = offsetH > 0 ? -5400 : 900; // 22:30 the same evening; 00:15 after midnight
      facts.bedtime = {
        day,
        status: "optimal_found",
        recommendation: "earlier_bedtime",
        start_offset: startOffset,
        end_offset: startOffset + 3600,
        day_tz: offsetH * 3600,
      };
      const { w, sent } = worker();
      const s = Date.parse(start);
      expect(await tickThrough(w, sent, s - 10 * MIN, s + 2 * HOUR)).toEqual([s]);
      expect(sent.map((x) => x.message.title)).toEqual([`Bedtime window open: ${localStart}`, `Bedtime window open: ${localStart}`]);
      expect(sent[0]!.message.body).toContain("The ring's advice: go to bed earlier.");
      expect(sent[1]!.message.data).toMatchObject({ day, start: new Date(s).toISOString(), recommendation: "earlier_bedtime" });
      // the next night's guidance: once more, a day later
      const next = { ...facts.bedtime, day: new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10) };
      facts.bedtime = next;
      expect(await tickThrough(w, sent, s + 22 * HOUR, s + 26 * HOUR)).toEqual([s + 24 * HOUR]);
      expect(store.episodes.map((e) => [e.kind, e.key])).toEqual([
        ["bedtime_window", day],
        ["bedtime_window", next.day],
      ]);
    });
  }

  it("skips a night without a recommendation", async () => {
    store.addRule(USER, "bedtime_window", {});
    facts.bedtime = {
      day: "2026-11-23",
      status: "only_recommended_found",
      recommendation: "earlier_bedtime",
      start_offset: null,
      end_offset: null,
      day_tz: null,
    };
    const { w, sent } = worker();
    expect(await tickThrough(w, sent, Date.parse("2026-11-23T20:00:00Z"), Date.parse("2026-11-24T02:00:00Z"))).toEqual([]);
  });
});

describe("quiet hours", () => {
  it("an alert that starts in them is kept, shown as waiting, and sent when they end", async () => {
    settings({ timeZone: "Europe/Berlin", quietHours: { from: 22 * 60, to: 7 * 60 } });
    store.addRule(USER, "ring_battery_low", { level: 20 });
    const { w, sent } = worker();
    await replay(w, plant(Date.parse("2026-11-23T22:00:00Z"), [22, 19], "dd")); // 23:30 Berlin
    expect(sent).toHaveLength(0);
    expect(store.deliveries.map((d) => [d.status, d.attempts, d.nextAttemptAt?.toISOString()])).toEqual([
      ["pending", 0, "2026-11-24T06:00:00.000Z"],
      ["pending", 0, "2026-11-24T06:00:00.000Z"],
    ]);
    clock.set(Date.parse("2026-11-24T05:59:59Z"));
    await w.tick();
    expect(sent).toHaveLength(0);
    clock.set(Date.parse("2026-11-24T06:00:00Z"));
    await w.tick();
    expect(sent).toHaveLength(2);
  });

  it("a bedtime window that opens in them is sent when they end if it is still open, else not at all", async () => {
    store.addRule(USER, "bedtime_window", {});
    const { w, sent } = worker();
    // window 21:45–22:45 UTC, quiet until 22:00: sent at 22:00
    settings({ quietHours: { from: 20 * 60, to: 22 * 60 } });
    facts.bedtime = { day: "2026-11-23", status: "optimal_found", recommendation: null, start_offset: -8100, end_offset: -4500, day_tz: 0 };
    const at: number[] = [];
    for (let t = Date.parse("2026-11-23T21:30:00Z"); t < Date.parse("2026-11-23T23:00:00Z"); t += 30_000) {
      clock.set(t);
      const n = sent.length;
      await w.tick();
      if (sent.length > n) at.push(t);
    }
    expect(at).toEqual([Date.parse("2026-11-23T22:00:00Z")]);
    // the next night, quiet from 21:00 until 07:00: the whole window is quiet
    settings({ quietHours: { from: 21 * 60, to: 7 * 60 } });
    facts.bedtime = { ...facts.bedtime, day: "2026-11-24" };
    for (let t = Date.parse("2026-11-24T21:30:00Z"); t < Date.parse("2026-11-25T07:30:00Z"); t += 5 * MIN) {
      clock.set(t);
      await w.tick();
    }
    expect(sent).toHaveLength(2);
  });
});
