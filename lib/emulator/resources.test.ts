// The derived resources and the time series: schema-valid, consistent with the documents they
// come from (which they never change), deterministic, and bounded in size.
import { describe, expect, it } from "vitest";
import { addDays, dayToIndex, indexToDay } from "@/lib/days";
import { COLLECTIONS, generateRange, type RingDocument } from "./generator";
import { validateResponse, validateSchema } from "./openapi";
import {
  DAY_RESOURCES,
  RESOURCE_COLLECTIONS,
  TAG_CODES,
  ResourceSource,
  generateDayResources,
  resourcesOfDay,
  ringReplacementIndex,
  webhookDataType,
  workoutWindows,
} from "./resources";
import { BATTERY_CHARGING, BATTERY_IN_CHARGER, HEART_RATE_SOURCES, batteryRow, dayStartMs, heartRateRow, type Series } from "./timeseries";
import { UserDocuments, type AnyDocument } from "./user-data";

const MODEL: Record<string, string> = {
  daily_cycle_phases: "DailyCyclePhasesModel",
  enhanced_tag: "EnhancedTagModel",
  rest_mode_period: "PublicRestModePeriod",
  ring_configuration: "PublicRingConfiguration",
  session: "PublicSession",
  sleep_time: "PublicSleepTime",
  tag: "TagModel",
  vO2_max: "PublicVO2Max",
  workout: "PublicWorkout",
};
const ROUTE: Record<string, string> = { ...Object.fromEntries(RESOURCE_COLLECTIONS.map((c) => [c, c])) };

const LAST = "2026-03-15";
const FIVE_YEARS_FIRST = addDays(LAST, -1825);
/** A five-year person, generated once for the file. */
const person = new UserDocuments({ seed: "resources-test", userKey: "five-years" }, FIVE_YEARS_FIRST, () => LAST);
const days = (first: string, last: string) => {
  const out: number[] = [];
  for (let i = dayToIndex(first); i <= dayToIndex(last); i++) out.push(i);
  return out;
};
const epoch = (s: unknown) => Date.parse(String(s));

function samples(docs: UserDocuments, kind: "heartrate" | "ring_battery_level", idx: number): Series {
  return docs.seriesDay(kind, idx);
}

/** Heart-rate samples of [from, to) (instants) across the local days they fall on. */
function hrBetween(docs: UserDocuments, from: number, to: number): Array<{ t: number; bpm: number; source: string }> {
  const out: Array<{ t: number; bpm: number; source: string }> = [];
  for (let idx = Math.floor(from / 86_400_000) - 1; idx <= Math.floor(to / 86_400_000) + 1; idx++) {
    const s = samples(docs, "heartrate", idx);
    for (let i = 0; i < s.n; i++) if (s.t[i]! >= from && s.t[i]! < to) out.push({ t: s.t[i]!, bpm: s.v[i]!, source: HEART_RATE_SOURCES[s.k[i]!]! });
  }
  return out;
}

function activityOn(docs: UserDocuments, day: string): RingDocument | undefined {
  return docs.list("daily_activity").find((d) => d.day === day);
}

/** The activity class (0–5) of the block an instant falls in (offset 0), from its day's document. */
function classAt(docs: UserDocuments, t: number): number | null {
  const local = new Date(t);
  let day = local.toISOString().slice(0, 10);
  let seconds = local.getUTCHours() * 3600 + local.getUTCMinutes() * 60 + local.getUTCSeconds();
  if (seconds < 4 * 3600) {
    day = addDays(day, -1);
    seconds += 86_400;
  }
  const act = activityOn(docs, day);
  if (!act) return null;
  return Number(String(act.class_5_min)[Math.floor((seconds - 4 * 3600) / 300)]);
}

describe("the resources conform to the OpenAPI 1.37 schemas", () => {
  const users = [
    new UserDocuments({ seed: "schema-seed", userKey: "utc" }, "2025-01-01", () => LAST),
    new UserDocuments({ seed: "schema-seed", userKey: "cet", tzOffsetMinutes: 60 }, "2025-01-01", () => LAST),
  ];
  for (const c of RESOURCE_COLLECTIONS) {
    it(`${c}: every document validates against ${MODEL[c]}, and the list wrapper too`, () => {
      let n = 0;
      for (const u of users) {
        const docs = u.list(c);
        for (const d of docs) {
          const r = validateSchema(MODEL[c]!, d);
          expect(r.ok, `${c} ${JSON.stringify(d).slice(0, 300)}: ${JSON.stringify(r)}`).toBe(true);
        }
        const page = validateResponse(`/v2/usercollection/${ROUTE[c]}`, "get", 200, { data: docs.slice(0, 50), next_token: null }, { typedOnly: true });
        expect(page.ok, JSON.stringify(page)).toBe(true);
        n += docs.length;
      }
      expect(n, `${c} has documents`).toBeGreaterThan(0);
    });
  }

  it("heart-rate and battery rows validate against PublicHeartRateRow and PublicRingBatteryLevelRow (required keys included)", () => {
    for (const u of users) {
      const idx = dayToIndex(LAST) - 3;
      const hr = samples(u, "heartrate", idx);
      const bat = samples(u, "ring_battery_level", idx);
      expect(hr.n).toBeGreaterThan(100);
      expect(bat.n).toBeGreaterThan(20);
      const hrRows = Array.from({ length: hr.n }, (_, i) => heartRateRow(hr, i));
      const batRows = Array.from({ length: bat.n }, (_, i) => batteryRow(bat, i));
      for (const row of hrRows) expect(Object.keys(row).sort()).toEqual(["bpm", "source", "timestamp", "timestamp_unix"]);
      expect(validateResponse("/v2/usercollection/heartrate", "get", 200, { data: hrRows, next_token: null }, { typedOnly: true }).ok).toBe(true);
      expect(validateResponse("/v2/usercollection/ring_battery_level", "get", 200, { data: batRows, next_token: null }, { typedOnly: true }).ok).toBe(true);
      for (const row of hrRows) {
        expect(row.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/);
        expect(epoch(row.timestamp)).toBe(row.timestamp_unix);
      }
    }
  });
});

describe("the existing documents are untouched", () => {
  it("a user's nine collections equal the generator's output, with the resources added beside them", () => {
    const opts = { seed: "untouched", userKey: "someone" };
    const docs = new UserDocuments(opts, "2025-10-01", () => LAST);
    const expected = generateRange(opts, "2025-10-01", LAST);
    for (const c of COLLECTIONS) expect(docs.list(c), c).toEqual(expected[c]);
    expect(docs.list("sleep_time").length).toBeGreaterThan(100);
  });
});

describe("workouts", () => {
  const workouts = person.list("workout");

  it("about two to four a week over five years, each on the day's high-activity blocks", () => {
    expect(workouts.length).toBeGreaterThan(260 * 2);
    expect(workouts.length).toBeLessThan(260 * 5);
    for (const w of workouts) {
      const act = activityOn(person, String(w.day))!;
      expect(act, `activity of ${String(w.day)}`).toBeDefined();
      const cls = String(act.class_5_min);
      const from = Math.floor((epoch(w.start_datetime) - epoch(act.timestamp)) / 300_000);
      const to = Math.ceil((epoch(w.end_datetime) - epoch(act.timestamp)) / 300_000);
      const blocks = cls.slice(from, to);
      expect(blocks.length).toBeGreaterThan(0);
      const high = [...blocks].filter((c) => c >= "4").length;
      if (w.activity === "walking")
        expect(
          [...blocks].every((c) => c >= "3"),
          `walk ${blocks}`,
        ).toBe(true);
      else expect(high / blocks.length, `${String(w.id)} ${blocks}`).toBeGreaterThanOrEqual(0.6);
      expect(epoch(w.end_datetime)).toBeGreaterThan(epoch(w.start_datetime));
      if (w.intensity === "hard") expect(blocks).toContain("5");
    }
  });

  it("calories are the active METs of those minutes; hard workouts burn more per minute than easy ones", () => {
    const perMinute: Record<string, number[]> = { easy: [], moderate: [], hard: [] };
    for (const w of workouts) {
      const minutes = (epoch(w.end_datetime) - epoch(w.start_datetime)) / 60_000;
      expect(Number(w.calories)).toBeGreaterThan(0);
      perMinute[String(w.intensity)]!.push(Number(w.calories) / minutes);
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(mean(perMinute.hard!)).toBeGreaterThan(mean(perMinute.moderate!));
    expect(mean(perMinute.moderate!)).toBeGreaterThan(mean(perMinute.easy!));
  });

  it("raise heart rate: the samples during a workout all have source workout, well above that day's awake samples", () => {
    let checked = 0;
    for (const w of workouts.slice(-60)) {
      const from = epoch(w.start_datetime);
      const to = epoch(w.end_datetime);
      const during = hrBetween(person, from, to);
      expect(during.length, String(w.id)).toBeGreaterThan(5);
      expect(new Set(during.map((s) => s.source))).toEqual(new Set(["workout"]));
      const dayStart = epoch(`${String(w.day)}T00:00:00Z`);
      const awake = hrBetween(person, dayStart, dayStart + 86_400_000).filter((s) => s.source === "awake");
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
      const steady = during.filter((s) => s.t - from > 240_000).map((s) => s.bpm);
      if (steady.length > 0 && awake.length > 0) {
        expect(mean(steady), String(w.id)).toBeGreaterThan(mean(awake.map((s) => s.bpm)) + 15);
        checked++;
      }
      // 5-second bursts
      const gaps = during.slice(1).map((s, i) => s.t - during[i]!.t);
      expect(gaps.filter((g) => g === 5000).length).toBeGreaterThan(gaps.length / 2);
    }
    expect(checked).toBeGreaterThan(30);
  });

  it("follow facts §3.10: activity, intensity, source from the enums, label mostly null, distance often null", () => {
    const sources = new Set(workouts.map((w) => w.source));
    expect([...sources].every((s) => ["manual", "autodetected", "confirmed", "workout_heart_rate"].includes(String(s)))).toBe(true);
    expect(workouts.filter((w) => w.source === "confirmed").length).toBeGreaterThan(workouts.length / 2);
    expect(workouts.filter((w) => w.label === null).length).toBeGreaterThan(workouts.length * 0.9);
    const nullDistance = workouts.filter((w) => w.distance === null).length;
    expect(nullDistance).toBeGreaterThan(workouts.length * 0.2);
    expect(nullDistance).toBeLessThan(workouts.length);
  });

  it("workoutWindows finds the high-activity runs and trims their low edges", () => {
    const cls =
      `${"1".repeat(30)}${"2".repeat(20)}333${"5".repeat(8)}33${"2".repeat(20)}${"4443".repeat(3)}444${"2".repeat(10)}4333334444${"2".repeat(20)}`.padEnd(
        288,
        "1",
      );
    const w = workoutWindows(cls);
    expect(w).toEqual([
      { from: 53, to: 61, intensity: "hard", walk: false },
      { from: 83, to: 98, intensity: "moderate", walk: false },
    ]);
    // a walk with a few brisk stretches is no workout; a long one may be an autodetected walk
    expect(workoutWindows(`${"2".repeat(60)}${"3".repeat(12)}${"2".repeat(60)}`.padEnd(288, "1"))).toEqual([
      { from: 60, to: 72, intensity: "easy", walk: true },
    ]);
  });
});

describe("sessions", () => {
  const sessions = person.list("session");

  it("lie on inactive blocks and show in heart rate with source session, the session's own samples", () => {
    expect(sessions.length).toBeGreaterThan(100);
    let withHr = 0;
    for (const s of sessions.slice(-80)) {
      const from = epoch(s.start_datetime);
      const to = epoch(s.end_datetime);
      for (let t = from; t < to; t += 300_000) expect(classAt(person, t), String(s.id)).toBe(2);
      const hr = s.heart_rate as { interval: number; items: Array<number | null>; timestamp: string } | null;
      const during = hrBetween(person, from, to);
      if (!hr) continue;
      withHr++;
      const expected = hr.items.flatMap((v, i) => (v === null ? [] : [{ t: epoch(hr.timestamp) + i * 5000, bpm: v, source: "session" }]));
      expect(during).toEqual(expected);
    }
    expect(withHr).toBeGreaterThan(20);
  });

  it("carry 5-second series that may be null or hold nulls, .000 timestamps and the documented types and moods", () => {
    for (const s of sessions) {
      expect(String(s.start_datetime)).toMatch(/\.000\+00:00$/);
      expect(["breathing", "meditation", "nap", "relaxation", "rest", "body_status"]).toContain(s.type);
      if (s.mood !== null) expect(["bad", "worse", "same", "good", "great"]).toContain(s.mood);
      for (const key of ["heart_rate", "heart_rate_variability", "motion_count"]) {
        const series = s[key] as { interval: number; items: unknown[] } | null;
        if (series) {
          expect(series.interval).toBe(5);
          expect(series.items.length).toBe((epoch(s.end_datetime) - epoch(s.start_datetime)) / 5000);
        }
      }
    }
    expect(sessions.some((s) => s.heart_rate === null)).toBe(true);
    expect(sessions.some((s) => (s.heart_rate as { items: unknown[] } | null)?.items.includes(null))).toBe(true);
  });
});

describe("sleep in heart rate", () => {
  it("every sleep period's own heart_rate samples are in the series, with source sleep (rest for rest periods)", () => {
    const periods = person.list("sleep").slice(-120);
    let matched = 0;
    for (const p of periods) {
      const hr = p.heart_rate as { interval: number; items: Array<number | null>; timestamp: string } | null;
      const from = epoch(p.bedtime_start);
      const to = epoch(p.bedtime_end);
      const during = hrBetween(person, from, to);
      expect(new Set(during.map((s) => s.source)), String(p.id)).toEqual(new Set([p.type === "rest" ? "rest" : hr ? "sleep" : "rest"]));
      if (!hr) continue;
      const expected = hr.items.flatMap((v, i) =>
        v === null ? [] : [{ t: epoch(hr.timestamp) + i * 300_000, bpm: v, source: p.type === "rest" ? "rest" : "sleep" }],
      );
      expect(during).toEqual(expected);
      matched++;
    }
    expect(matched).toBeGreaterThan(100);
  });

  it("outside sleep, workouts and sessions the samples are awake (or rest), and none fall on non-wear blocks", () => {
    const idx = dayToIndex(LAST) - 10;
    for (let d = idx; d < idx + 7; d++) {
      const s = samples(person, "heartrate", d);
      for (let i = 0; i < s.n; i++) {
        const source = HEART_RATE_SOURCES[s.k[i]!]!;
        if (source === "awake") expect(classAt(person, s.t[i]!)).toBeGreaterThanOrEqual(2);
        if (source !== "sleep" && source !== "session" && source !== "workout") expect(classAt(person, s.t[i]!)).not.toBe(0);
      }
    }
  });
});

describe("rest mode", () => {
  const periods = person.list("rest_mode_period");

  it("real periods start on low-activity days (steps well below the 28-day median) and end on a more active one", () => {
    const real = periods.filter((p) => p.start_time !== p.end_time);
    expect(real.length).toBeGreaterThan(5);
    const steps = new Map(person.list("daily_activity").map((a) => [a.day, Number(a.steps)]));
    for (const p of real) {
      const start = String(p.start_day);
      const before: number[] = [];
      for (let k = 1; k <= 28; k++) {
        const v = steps.get(addDays(start, -k));
        if (v !== undefined) before.push(v);
      }
      before.sort((a, b) => a - b);
      const median = before[Math.floor(before.length / 2)]!;
      expect(steps.get(start)!, start).toBeLessThan(0.8 * median);
      if (p.end_day !== null) expect(String(p.end_day) > start).toBe(true);
    }
  });

  it("most rows are zero-length toggles (start_time == end_time), some carry episodes of tags", () => {
    expect(periods.filter((p) => p.start_time === p.end_time).length).toBeGreaterThan(0);
    expect(periods.some((p) => (p.episodes as unknown[]).length > 0)).toBe(true);
  });

  it("inactive awake time during rest mode shows in heart rate as rest", () => {
    const real = periods.filter((p) => p.start_time !== p.end_time && p.end_time !== null).slice(-5);
    for (const p of real) {
      const during = hrBetween(person, epoch(p.start_time), epoch(p.end_time));
      expect(during.some((s) => s.source === "rest")).toBe(true);
      for (const s of during) if (classAt(person, s.t) === 2 && !["session", "workout", "sleep"].includes(s.source)) expect(s.source).toBe("rest");
    }
  });
});

describe("tags, VO2 max, bedtime guidance, the ring", () => {
  it('enhanced tags: realistic codes or custom names, comment "" unless written, no end for most', () => {
    const tags = person.list("enhanced_tag");
    expect(tags.length).toBeGreaterThan(300);
    for (const t of tags) {
      if (t.tag_type_code === "custom") expect(typeof t.custom_name).toBe("string");
      else {
        expect(TAG_CODES).toContain(t.tag_type_code);
        expect(t.custom_name).toBeNull();
      }
      expect(typeof t.comment).toBe("string");
      expect(String(t.start_time).slice(0, 10)).toBe(t.start_day);
    }
    expect(tags.filter((t) => t.end_time === null).length).toBeGreaterThan(tags.length * 0.9);
  });

  it("alcohol is tagged more often before a night of lower HRV (so comparisons find something)", () => {
    const hrvByDay = new Map(
      person
        .list("sleep")
        .filter((s) => s.type === "long_sleep")
        .map((s) => [s.day, Number(s.average_hrv)]),
    );
    const tagged = new Set(
      person
        .list("enhanced_tag")
        .filter((t) => t.tag_type_code === "tag_generic_alcohol")
        .map((t) => String(t.start_day)),
    );
    const next = (day: string) => hrvByDay.get(addDays(day, 1));
    const withTag = [...tagged].map(next).filter((v): v is number => v !== undefined && !Number.isNaN(v));
    const without = [...hrvByDay.keys()]
      .filter((d) => !tagged.has(d))
      .map(next)
      .filter((v): v is number => v !== undefined && !Number.isNaN(v));
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(withTag.length).toBeGreaterThan(20);
    expect(mean(withTag)).toBeLessThan(mean(without));
  });

  it("the deprecated tag route mirrors some enhanced tags in the old note shape", () => {
    const old = person.list("tag");
    const enhanced = person.list("enhanced_tag");
    expect(old.length).toBeGreaterThan(0);
    expect(old.length).toBeLessThan(enhanced.length);
    for (const note of old.slice(-50)) {
      const sameDay = enhanced.filter((t) => t.start_day === note.day).map((t) => t.tag_type_code);
      for (const code of note.tags as string[]) expect(sameDay).toContain(code);
    }
  });

  it("VO2 max about weekly, trending slowly", () => {
    const vo2 = person.list("vO2_max");
    expect(vo2.length).toBeGreaterThan(5 * 40);
    expect(vo2.length).toBeLessThan(5 * 70);
    const values = vo2.map((v) => Number(v.vo2_max));
    const steps = values.slice(1).map((v, i) => Math.abs(v - values[i]!));
    expect(steps.filter((s) => s <= 3).length).toBeGreaterThan(steps.length * 0.9);
    expect(Math.max(...values) - Math.min(...values)).toBeGreaterThan(1);
  });

  it("sleep_time most days: optimal_bedtime only with status optimal_found, often null", () => {
    const st = person.list("sleep_time");
    expect(st.length).toBeGreaterThan(1500);
    for (const s of st) {
      if (s.status === "optimal_found") expect(s.optimal_bedtime).not.toBeNull();
      else expect(s.optimal_bedtime).toBeNull();
    }
    const statuses = new Set(st.map((s) => s.status));
    expect(statuses.has("optimal_found") && statuses.has("only_recommended_found")).toBe(true);
    expect(st.filter((s) => s.optimal_bedtime === null).length).toBeGreaterThan(st.length * 0.3);
  });

  it("ring_configuration: one ring, replaced once in a long history; an old set_up_at may be 1970-01-01", () => {
    const users = Array.from({ length: 40 }, (_, i) => ({ seed: "rings", userKey: `u${i}` }));
    let two = 0;
    let epochSetUp = 0;
    for (const opts of users) {
      const rings = new ResourceSource(opts);
      const replaced = ringReplacementIndex(opts);
      const docs = new UserDocuments(opts, addDays(LAST, -20), () => LAST).list("ring_configuration");
      expect(docs.length).toBe(replaced <= dayToIndex(LAST) ? 2 : 1);
      if (docs.length === 2) {
        two++;
        expect(String(docs[1]!.set_up_at).slice(0, 10)).toBe(indexToDay(replaced));
      }
      if (docs[0]!.set_up_at === "1970-01-01T00:00:00+00:00") epochSetUp++;
      expect(rings.habits.ring.replacedIdx).toBe(replaced);
    }
    expect(two).toBeGreaterThan(5);
    expect(epochSetUp).toBeGreaterThan(5);
  });
});

describe("determinism and revisions", () => {
  it("the same seed and user give the same resources and samples; another seed other ones", () => {
    const a = new UserDocuments({ seed: "det", userKey: "x" }, "2026-01-01", () => LAST);
    const b = new UserDocuments({ seed: "det", userKey: "x" }, "2026-01-01", () => LAST);
    const c = new UserDocuments({ seed: "det-2", userKey: "x" }, "2026-01-01", () => LAST);
    for (const r of RESOURCE_COLLECTIONS) expect(a.list(r)).toEqual(b.list(r));
    const idx = dayToIndex(LAST) - 2;
    expect(samples(a, "heartrate", idx)).toEqual(samples(b, "heartrate", idx));
    expect(samples(a, "ring_battery_level", idx)).toEqual(samples(b, "ring_battery_level", idx));
    expect(JSON.stringify(samples(a, "heartrate", idx))).not.toBe(JSON.stringify(samples(c, "heartrate", idx)));
  });

  it("a later revision keeps each resource's set of ids (values may change)", () => {
    const opts = { seed: "rev", userKey: "y" };
    const src = new ResourceSource(opts);
    let changed = 0;
    for (const idx of days("2026-01-01", "2026-02-15")) {
      const r0 = generateDayResources(src, idx, 0, dayToIndex(LAST));
      const r1 = generateDayResources(src, idx, 1, dayToIndex(LAST));
      for (const c of DAY_RESOURCES) {
        expect(
          r1[c].map((d) => d.id),
          `${c} ${indexToDay(idx)}`,
        ).toEqual(r0[c].map((d) => d.id));
        if (JSON.stringify(r0[c]) !== JSON.stringify(r1[c])) changed++;
      }
    }
    expect(changed).toBeGreaterThan(10);
  });

  it("resourcesOfDay equals what a user's history holds for that day (history length does not matter)", () => {
    const opts = { seed: "pure", userKey: "z" };
    const short = new UserDocuments(opts, addDays(LAST, -10), () => LAST);
    const long = new UserDocuments(opts, addDays(LAST, -100), () => LAST);
    const day = addDays(LAST, -5);
    const alone = resourcesOfDay(opts, day, 0, LAST);
    for (const c of DAY_RESOURCES) {
      const key = c === "enhanced_tag" || c === "rest_mode_period" ? "start_day" : "day";
      const pick = (u: UserDocuments) => u.list(c).filter((d: AnyDocument) => d[key] === day);
      expect(pick(short), c).toEqual(alone[c]);
      expect(pick(long), c).toEqual(alone[c]);
    }
  });

  it("vO2_max is the webhook data_type vo2_max", () => {
    expect(webhookDataType("vO2_max")).toBe("vo2_max");
    expect(webhookDataType("workout")).toBe("workout");
    expect(webhookDataType("daily_cycle_phases")).toBeNull();
  });
});

describe("size of the time series", () => {
  it("five years: about half a million heart-rate samples and ~90 000 battery samples, in time order", () => {
    const { first, last } = person.seriesDays();
    let hr = 0;
    let battery = 0;
    const sources = new Set<string>();
    for (let idx = first; idx <= last; idx++) {
      const s = samples(person, "heartrate", idx);
      for (let i = 1; i < s.n; i++) expect(s.t[i]!).toBeGreaterThan(s.t[i - 1]!);
      if (s.n > 0) {
        expect(s.t[0]!).toBeGreaterThanOrEqual(dayStartMs(idx, 0));
        expect(s.t[s.n - 1]!).toBeLessThan(dayStartMs(idx + 1, 0));
      }
      for (let i = 0; i < s.n; i++) sources.add(HEART_RATE_SOURCES[s.k[i]!]!);
      hr += s.n;
      battery += samples(person, "ring_battery_level", idx).n;
    }
    expect(hr).toBeGreaterThan(420_000);
    expect(hr).toBeLessThan(620_000);
    expect(battery).toBeGreaterThan(60_000);
    expect(battery).toBeLessThan(130_000);
    expect([...sources].sort()).toEqual(["awake", "rest", "session", "sleep", "workout"]);
  });

  it("battery: 0–100, rising while charging in the day's non-wear blocks, falling on the finger", () => {
    const idx0 = dayToIndex(LAST) - 60;
    let charges = 0;
    for (let idx = idx0; idx < idx0 + 60; idx++) {
      const s = samples(person, "ring_battery_level", idx);
      for (let i = 0; i < s.n; i++) {
        expect(s.v[i]!).toBeGreaterThanOrEqual(0);
        expect(s.v[i]!).toBeLessThanOrEqual(100);
        if (s.k[i]! & BATTERY_IN_CHARGER) {
          expect(classAt(person, s.t[i]!) ?? 0).toBe(0);
          if (s.k[i]! & BATTERY_CHARGING && i + 1 < s.n && s.k[i + 1]! & BATTERY_IN_CHARGER) {
            expect(s.v[i + 1]!).toBeGreaterThanOrEqual(s.v[i]!);
            charges++;
          }
        } else if (i + 1 < s.n && !(s.k[i + 1]! & BATTERY_IN_CHARGER)) expect(s.v[i + 1]!).toBeLessThanOrEqual(s.v[i]!);
      }
    }
    expect(charges).toBeGreaterThan(10);
    // neighbouring days agree: the level entering a day continues the one leaving the day before
    for (let idx = idx0; idx < idx0 + 30; idx++) {
      const a = samples(person, "ring_battery_level", idx);
      const b = samples(person, "ring_battery_level", idx + 1);
      if (a.n && b.n && !(a.k[a.n - 1]! & BATTERY_IN_CHARGER)) expect(Math.abs(b.v[0]! - a.v[a.n - 1]!)).toBeLessThanOrEqual(2);
    }
  });
});
