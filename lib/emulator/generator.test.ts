import { describe, expect, it } from "vitest";
import { addDays } from "@/lib/days";
import { COLLECTIONS, DAILY_COLLECTIONS, generateDay, generatePersonalInfo, generateRange, type Collection, type RingDocument } from "@/lib/emulator/generator";
import { SANDBOX_DOCUMENTS, SANDBOX_SLEEP_DOCUMENTS } from "@/lib/emulator/sandbox-data";
import { openApiDocument, validateResponse, validateSchema } from "@/lib/emulator/openapi";

const MODEL: Record<Collection, string> = {
  daily_activity: "PublicDailyActivity",
  daily_cardiovascular_age: "PublicDailyCardiovascularAge",
  daily_readiness: "PublicDailyReadiness",
  daily_resilience: "DailyResilienceModel",
  daily_sleep: "PublicDailySleep",
  daily_spo2: "PublicDailySpO2",
  daily_stress: "PublicDailyStress",
  sleep: "PublicModifiedSleepModel",
};

const UUID4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const OPTS = { seed: "test-seed", userKey: "alice", tzOffsetMinutes: 60 };
const FIRST = "2023-01-01";
const LAST = "2025-01-31"; // 762 days
const range = generateRange(OPTS, FIRST, LAST);

type Obj = Record<string, unknown>;
const num = (v: unknown) => v as number;
const obj = (v: unknown) => v as Obj;

function pearson(pairs: Array<[number, number]>): number {
  const n = pairs.length;
  const mx = pairs.reduce((a, p) => a + p[0], 0) / n;
  const my = pairs.reduce((a, p) => a + p[1], 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (const [x, y] of pairs) {
    sxy += (x - mx) * (y - my);
    sxx += (x - mx) ** 2;
    syy += (y - my) ** 2;
  }
  return sxy / Math.sqrt(sxx * syy);
}

/** Seconds since the epoch of a "YYYY-MM-DDTHH:MM:SS(.000)±HH:MM" string. */
const epoch = (s: unknown) => Date.parse(String(s)) / 1000;
/** Local clock seconds after midnight of such a string. */
function localSeconds(s: unknown): number {
  const m = /T(\d{2}):(\d{2}):(\d{2})/.exec(String(s))!;
  return Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]);
}
const isWeekend = (day: string) => [0, 6].includes(new Date(`${day}T00:00:00Z`).getUTCDay());

describe("generated documents conform to the OpenAPI 1.37 schemas", () => {
  // 400 days for two users with different offsets, every collection.
  const users = [
    { seed: "schema-seed", userKey: "u-east", tzOffsetMinutes: 180 },
    { seed: "schema-seed", userKey: "u-west", tzOffsetMinutes: -300 },
  ];
  for (const opts of users) {
    const docs = generateRange(opts, "2023-06-01", addDays("2023-06-01", 399));
    for (const c of COLLECTIONS) {
      it(`${c} (${opts.userKey}): every document validates against ${MODEL[c]}, and the list wrapper too`, () => {
        expect(docs[c].length).toBeGreaterThan(c === "sleep" ? 380 : 340);
        for (const d of docs[c]) {
          const r = validateSchema(MODEL[c], d);
          expect(r, `${c} ${d.day}`).toEqual({ ok: true });
        }
        const page = { data: docs[c], next_token: null };
        expect(validateSchema(`MultiDocumentResponse_${MODEL[c]}_`, page)).toEqual({ ok: true });
        const route = `/v2/usercollection/${c}`;
        expect(validateResponse(route, "get", 200, page, { typedOnly: true })).toEqual({ ok: true });
        const one = docs[c][0]!;
        expect(validateResponse(`${route}/{document_id}`, "get", 200, one)).toEqual({ ok: true });
      });
    }
  }

  it("personal_info validates against PersonalInfoResponse with plausible values", () => {
    for (let i = 0; i < 50; i++) {
      const info = generatePersonalInfo({ seed: "s", userKey: `user-${i}`, userId: `id-${i}`, email: `u${i}@example.test` });
      expect(validateSchema("PersonalInfoResponse", info)).toEqual({ ok: true });
      expect(info.id).toBe(`id-${i}`);
      expect(info.email).toBe(`u${i}@example.test`);
      expect(info.age).toBeGreaterThanOrEqual(25);
      expect(info.age).toBeLessThanOrEqual(60);
      expect(info.height).toBeGreaterThan(1.5);
      expect(info.height).toBeLessThan(2.0);
      expect(info.weight).toBeGreaterThan(40);
      expect(info.weight).toBeLessThan(120);
      expect(["male", "female"]).toContain(info.biological_sex);
    }
    const a = generatePersonalInfo({ seed: "s", userKey: "k", userId: "x", email: "e" });
    expect(generatePersonalInfo({ seed: "s", userKey: "k", userId: "x", email: "e" })).toEqual(a);
  });
});

describe("interface and ordering", () => {
  it("generates every daily collection of the interface, plus sleep", () => {
    // daily_cycle_phases, beyond the published document, is a derived resource (lib/emulator/resources)
    const daily = Object.keys(openApiDocument().paths)
      .map((p) => /^\/v2\/usercollection\/(daily_[a-z0-9_]+)$/.exec(p)?.[1])
      .filter((c): c is string => Boolean(c) && c !== "daily_cycle_phases");
    expect([...DAILY_COLLECTIONS].sort()).toEqual(daily.sort());
    expect([...COLLECTIONS]).toEqual([...DAILY_COLLECTIONS, "sleep"]);
  });

  it("generateRange is the concatenation of generateDay over the inclusive range, sorted by day", () => {
    const first = "2024-02-25";
    const last = "2024-03-05";
    const r = generateRange(OPTS, first, last);
    for (const c of COLLECTIONS) {
      const concat: RingDocument[] = [];
      for (let d = first; d <= last; d = addDays(d, 1)) concat.push(...generateDay(OPTS, d)[c]);
      expect(r[c]).toEqual(concat);
      for (const d of r[c]) {
        expect(d.day >= first && d.day <= last).toBe(true);
      }
    }
    const keys = r.sleep.map((d) => `${d.day} ${epoch(d.bedtime_start)}`);
    const sorted = [...r.sleep].sort((a, b) => a.day.localeCompare(b.day) || epoch(a.bedtime_start) - epoch(b.bedtime_start));
    expect(r.sleep.map((d) => `${d.day} ${epoch(d.bedtime_start)}`)).toEqual(sorted.map((d) => `${d.day} ${epoch(d.bedtime_start)}`));
    expect(keys.length).toBeGreaterThan(0);
    expect(generateRange(OPTS, last, first).sleep).toEqual([]);
  });

  it("every document of generateDay(D) has day D; ids are unique UUID-v4-shaped strings", () => {
    const ids = new Set<string>();
    for (const c of COLLECTIONS) {
      for (const d of range[c]) {
        expect(d.id).toMatch(UUID4);
        expect(ids.has(d.id!)).toBe(false);
        ids.add(d.id!);
      }
    }
    const day = generateDay(OPTS, "2024-06-12");
    for (const c of COLLECTIONS) for (const d of day[c]) expect(d.day).toBe("2024-06-12");
  });

  it("rejects bad options and arguments", () => {
    expect(() => generateDay({ ...OPTS, tzOffsetMinutes: 30.5 }, "2024-01-01")).toThrow(RangeError);
    expect(() => generateDay({ ...OPTS, tzOffsetMinutes: 15 * 60 }, "2024-01-01")).toThrow(RangeError);
    expect(() => generateDay(OPTS, "2024-13-01")).toThrow(RangeError);
    expect(() => generateDay(OPTS, "2024-01-01", -1)).toThrow(RangeError);
  });
});

describe("determinism and revisions", () => {
  it("the same inputs give deep-equal output; another user or seed gives other data", () => {
    const again = generateRange(OPTS, FIRST, LAST);
    expect(again).toEqual(range);
    const bob = generateRange({ ...OPTS, userKey: "bob" }, FIRST, LAST);
    const seed2 = generateRange({ ...OPTS, seed: "other-seed" }, FIRST, LAST);
    for (const other of [bob, seed2]) {
      const scores = (x: typeof range) => x.daily_sleep.map((d) => `${d.day}:${String(d.score)}`).join(",");
      expect(scores(other)).not.toBe(scores(range));
      const ids = new Set(range.daily_readiness.map((d) => d.id));
      expect(other.daily_readiness.some((d) => ids.has(d.id))).toBe(false);
    }
  });

  it("the offset changes only the rendering of local times, not the values or ids", () => {
    const a = generateDay({ ...OPTS, tzOffsetMinutes: 0 }, "2024-05-05");
    const b = generateDay({ ...OPTS, tzOffsetMinutes: -300 }, "2024-05-05");
    expect(b.daily_readiness[0]?.timestamp).toBe("2024-05-05T00:00:00-05:00");
    expect(a.daily_readiness[0]?.timestamp).toBe("2024-05-05T00:00:00+00:00");
    const strip = (x: unknown) => JSON.stringify(x).replace(/[+-]\d{2}:\d{2}"/g, '"');
    expect(strip(b)).toBe(strip(a));
  });

  it("a later revision keeps the set of documents and their ids but changes values", () => {
    let changedDays = 0;
    const changedCollections = new Set<Collection>();
    for (let i = 0; i < 30; i++) {
      const day = addDays("2024-03-01", i);
      const r0 = generateDay(OPTS, day, 0);
      expect(generateDay(OPTS, day)).toEqual(r0);
      const hasDocuments = COLLECTIONS.some((c) => r0[c].length > 0);
      const r1 = generateDay(OPTS, day, 1);
      const r2 = generateDay(OPTS, day, 2);
      expect(generateDay(OPTS, day, 1)).toEqual(r1);
      let changed = false;
      for (const c of COLLECTIONS) {
        expect(r1[c].map((d) => d.id)).toEqual(r0[c].map((d) => d.id));
        expect(r2[c].map((d) => d.id)).toEqual(r0[c].map((d) => d.id));
        if (JSON.stringify(r1[c]) !== JSON.stringify(r0[c])) {
          changed = true;
          changedCollections.add(c);
        }
        for (const d of r1[c]) expect(validateSchema(MODEL[c], d)).toEqual({ ok: true });
      }
      // The activity document always moves (more steps synced later); an empty day stays empty.
      if (r0.daily_activity.length > 0) {
        expect(changed).toBe(true);
        expect(JSON.stringify(r2)).not.toBe(JSON.stringify(r1));
      }
      if (!hasDocuments) expect(changed).toBe(false);
      if (changed) changedDays++;
    }
    expect(changedDays).toBeGreaterThan(25);
    for (const c of ["daily_activity", "daily_sleep", "daily_readiness", "sleep"] as const) {
      expect(changedCollections.has(c), c).toBe(true);
    }
  });
});

describe("realism", () => {
  const days = (() => {
    const out: string[] = [];
    for (let d = FIRST; d <= LAST; d = addDays(d, 1)) out.push(d);
    return out;
  })();
  const byDay = (c: Collection) => new Map(range[c].map((d) => [d.day, d] as const));

  it("some days are not worn: no sleep, readiness, spo2 or cardiovascular age; activity absent or mostly non-wear", () => {
    const readiness = byDay("daily_readiness");
    const activity = byDay("daily_activity");
    const notWorn = days.filter((d) => !readiness.has(d));
    expect(notWorn.length / days.length).toBeGreaterThan(0.01);
    expect(notWorn.length / days.length).toBeLessThan(0.07);
    const sleepDays = new Set(range.sleep.map((d) => d.day));
    for (const c of ["daily_sleep", "daily_spo2", "daily_cardiovascular_age", "daily_resilience"] as const) {
      expect(range[c].map((d) => d.day)).toEqual(range.daily_readiness.map((d) => d.day));
    }
    let withActivity = 0;
    for (const d of notWorn) {
      expect(sleepDays.has(d)).toBe(false);
      const a = activity.get(d);
      if (a) {
        withActivity++;
        expect(num(a.non_wear_time)).toBeGreaterThanOrEqual(8 * 3600);
        expect(a.score).toBeNull();
      }
    }
    expect(withActivity).toBeGreaterThan(0);
    expect(withActivity).toBeLessThan(notWorn.length);
  });

  it("nulls appear where the real service has them", () => {
    const count = (c: Collection, pick: (d: Obj) => unknown) => range[c].filter((d) => pick(d) === null).length;
    const n = range.daily_readiness.length;
    const hrvNull = count("daily_readiness", (d) => obj(d.contributors).hrv_balance);
    expect(hrvNull / n).toBeGreaterThan(0.1);
    expect(hrvNull / n).toBeLessThan(0.4);
    expect(count("daily_readiness", (d) => d.temperature_trend_deviation)).toBeGreaterThan(0);
    expect(count("daily_readiness", (d) => obj(d.contributors).sleep_regularity)).toBeGreaterThan(0);
    expect(count("daily_stress", (d) => d.day_summary)).toBeGreaterThan(0);
    expect(count("daily_cardiovascular_age", (d) => d.pulse_wave_velocity)).toBeGreaterThan(0);
    expect(count("sleep", (d) => d.readiness_score_delta)).toBeGreaterThan(0);
    expect(count("sleep", (d) => d.average_hrv)).toBeGreaterThan(0);
    const hrItems = range.sleep.flatMap((d) => (d.heart_rate ? (obj(d.heart_rate).items as unknown[]) : []));
    expect(hrItems.some((x) => x === null)).toBe(true);
    // BDI nulls are rare (3 of 804 in real data): a small fraction at most.
    expect(count("daily_spo2", (d) => d.breathing_disturbance_index) / range.daily_spo2.length).toBeLessThan(0.02);
  });

  it("a bad night means a lower readiness that morning (positive correlation)", () => {
    const readiness = byDay("daily_readiness");
    const pairs = range.daily_sleep
      .filter((d) => d.score !== null && readiness.get(d.day)?.score != null)
      .map((d) => [num(d.score), num(readiness.get(d.day)!.score)] as [number, number]);
    expect(pairs.length).toBeGreaterThan(600);
    expect(pearson(pairs)).toBeGreaterThan(0.4);
    // previous_night follows the sleep score.
    const pn = range.daily_sleep.map((d) => [num(d.score), num(obj(readiness.get(d.day)!.contributors).previous_night)] as [number, number]);
    expect(pearson(pn)).toBeGreaterThan(0.8);
  });

  it("more steps mean more active calories; total = BMR-ish + active", () => {
    const worn = range.daily_activity.filter((d) => d.score !== null);
    expect(pearson(worn.map((d) => [num(d.steps), num(d.active_calories)]))).toBeGreaterThan(0.6);
    for (const d of worn) expect(num(d.total_calories)).toBeGreaterThan(num(d.active_calories) + 1000);
  });

  it("weekly rhythm: later bedtimes before weekend mornings, more steps on Saturdays", () => {
    const bed = (weekend: boolean) => {
      const xs = range.sleep
        .filter((d) => d.type === "long_sleep" && isWeekend(d.day) === weekend)
        .map((d) => {
          const s = localSeconds(d.bedtime_start);
          return s > 12 * 3600 ? s - 24 * 3600 : s;
        });
      return xs.reduce((a, x) => a + x, 0) / xs.length;
    };
    expect(bed(true) - bed(false)).toBeGreaterThan(20 * 60);
    const steps = (dow: number[]) => {
      const xs = range.daily_activity.filter((d) => d.score !== null && dow.includes(new Date(`${d.day}T00:00:00Z`).getUTCDay())).map((d) => num(d.steps));
      return xs.reduce((a, x) => a + x, 0) / xs.length;
    };
    expect(steps([6])).toBeGreaterThan(steps([1, 2, 3, 4]));
  });

  it("temperature deviation centres on 0 with rare fever bumps", () => {
    const temps = range.daily_readiness.map((d) => d.temperature_deviation).filter((x): x is number => typeof x === "number");
    const mean = temps.reduce((a, x) => a + x, 0) / temps.length;
    expect(Math.abs(mean)).toBeLessThan(0.1);
    const high = temps.filter((t) => t > 0.6).length;
    expect(high / temps.length).toBeLessThan(0.03);
    // Over five years a fever shows up, and body_temperature drops with it.
    const long = generateRange(OPTS, "2020-01-01", "2024-12-31");
    const fevers = long.daily_readiness.filter((d) => num(d.temperature_deviation) > 0.6);
    expect(fevers.length).toBeGreaterThan(0);
    for (const d of fevers) expect(num(obj(d.contributors).body_temperature)).toBeLessThan(70);
  });

  it("stress summaries are mostly normal with stressful and restored days", () => {
    const s = range.daily_stress.map((d) => d.day_summary);
    const share = (v: unknown) => s.filter((x) => x === v).length / s.length;
    expect(share("normal")).toBeGreaterThan(0.3);
    expect(share("stressful")).toBeGreaterThan(0.03);
    expect(share("restored")).toBeGreaterThan(0.03);
  });
});

describe("document structure", () => {
  it("daily_activity: 04:00 local timestamp, 1440 METs at 60 s, 288 classes matching the time fields", () => {
    let negative = 0;
    for (const d of range.daily_activity) {
      expect(d.timestamp).toBe(`${d.day}T04:00:00+01:00`);
      const met = obj(d.met);
      expect(met.interval).toBe(60);
      expect(met.timestamp).toBe(`${d.day}T04:00:00.000+01:00`);
      expect((met.items as unknown[]).length).toBe(1440);
      const cls = String(d.class_5_min);
      expect(cls).toMatch(/^[0-5]{288}$/);
      const count = (ch: string) => cls.split(ch).length - 1;
      expect(d.non_wear_time).toBe(count("0") * 300);
      expect(d.resting_time).toBe(count("1") * 300);
      expect(d.sedentary_time).toBe(count("2") * 300);
      expect(d.low_activity_time).toBe(count("3") * 300);
      expect(d.medium_activity_time).toBe(count("4") * 300);
      expect(d.high_activity_time).toBe(count("5") * 300);
      expect(Math.abs(num(d.meters_to_target) - (num(d.target_meters) - num(d.equivalent_walking_distance)))).toBeLessThanOrEqual(50);
      if (num(d.meters_to_target) < 0) negative++;
      const items = met.items as number[];
      expect(num(d.average_met_minutes)).toBeCloseTo(items.reduce((a, x) => a + x, 0) / 1440, 2);
      if (d.score !== null) expect(num(d.score)).toBeGreaterThanOrEqual(1);
    }
    expect(negative).toBeGreaterThan(0);
  });

  it("readiness and daily sleep carry local midnight; spo2, stress, resilience, cardiovascular age carry no timestamp", () => {
    for (const c of ["daily_readiness", "daily_sleep"] as const) {
      for (const d of range[c]) expect(d.timestamp).toBe(`${d.day}T00:00:00+01:00`);
    }
    for (const c of ["daily_spo2", "daily_stress", "daily_resilience", "daily_cardiovascular_age"] as const) {
      for (const d of range[c]) expect(d).not.toHaveProperty("timestamp");
    }
  });

  it("stress in multiples of 900 s; resilience level and float contributors; vascular age in range", () => {
    for (const d of range.daily_stress) {
      expect(num(d.stress_high) % 900).toBe(0);
      expect(num(d.recovery_high) % 900).toBe(0);
    }
    const levels = new Set<unknown>();
    for (const d of range.daily_resilience) {
      levels.add(d.level);
      for (const v of Object.values(obj(d.contributors))) {
        expect(num(v)).toBeGreaterThanOrEqual(0);
        expect(num(v)).toBeLessThanOrEqual(100);
      }
    }
    expect(levels.size).toBeGreaterThanOrEqual(3);
    for (const d of range.daily_cardiovascular_age) {
      if (d.vascular_age === null) continue;
      expect(Number.isInteger(d.vascular_age)).toBe(true);
      expect(num(d.vascular_age)).toBeGreaterThanOrEqual(18);
      expect(num(d.vascular_age)).toBeLessThanOrEqual(100);
    }
  });

  it("sleep periods: overnight long sleep per worn day, occasional naps and rests, consistent durations and series", () => {
    const long = range.sleep.filter((d) => d.type === "long_sleep");
    expect(long.length).toBe(range.daily_sleep.length);
    const naps = range.sleep.filter((d) => d.type === "sleep").length / range.daily_sleep.length;
    expect(naps).toBeGreaterThan(0.02);
    expect(naps).toBeLessThan(0.2);
    expect(range.sleep.some((d) => d.type === "rest")).toBe(true);

    const perDay = new Map<string, RingDocument[]>();
    for (const d of range.sleep) perDay.set(d.day, [...(perDay.get(d.day) ?? []), d]);
    for (const list of perDay.values()) expect(list.map((d) => d.period)).toEqual(list.map((_, i) => i));

    for (const d of range.sleep) {
      const tib = num(d.time_in_bed);
      expect(epoch(d.bedtime_end) - epoch(d.bedtime_start)).toBe(tib);
      expect(num(d.total_sleep_duration)).toBe(num(d.deep_sleep_duration) + num(d.light_sleep_duration) + num(d.rem_sleep_duration));
      expect(tib).toBe(num(d.total_sleep_duration) + num(d.awake_time));
      expect(String(d.bedtime_end).slice(0, 10)).toBe(d.day);
      const phases = String(d.sleep_phase_5_min);
      expect(phases).toMatch(/^[1-4]+$/);
      expect(phases.length).toBe(Math.ceil(tib / 300));
      const count = (ch: string) => phases.split(ch).length - 1;
      for (const [ch, key] of [
        ["1", "deep_sleep_duration"],
        ["2", "light_sleep_duration"],
        ["3", "rem_sleep_duration"],
        ["4", "awake_time"],
      ] as const) {
        expect(Math.abs(count(ch) * 300 - num(d[key]))).toBeLessThan(300);
      }
      expect(String(d.movement_30_sec)).toMatch(/^[1-4]+$/);
      expect(String(d.movement_30_sec).length).toBe(tib / 30);
      expect(num(d.efficiency)).toBe(Math.round((100 * num(d.total_sleep_duration)) / tib));
      expect(d.sleep_algorithm_version).toBe("v2");
      expect(typeof d.low_battery_alert).toBe("boolean");
      if (d.heart_rate) {
        const hr = obj(d.heart_rate);
        expect(hr.interval).toBe(300);
        expect(hr.timestamp).toBe(String(d.bedtime_start).replace("+01:00", ".000+01:00"));
        expect((hr.items as unknown[]).length).toBe(Math.floor(tib / 300));
        const values = (hr.items as (number | null)[]).filter((x): x is number => x !== null);
        expect(num(d.lowest_heart_rate)).toBeLessThanOrEqual(Math.min(...values));
      }
      if (d.type === "long_sleep") {
        const start = localSeconds(d.bedtime_start);
        expect(start >= 21 * 3600 || start <= 2 * 3600).toBe(true);
        const end = localSeconds(d.bedtime_end);
        expect(end).toBeGreaterThanOrEqual(5 * 3600);
        expect(end).toBeLessThanOrEqual(10 * 3600);
        expect(d.readiness).not.toBeNull();
        expect(obj(d.readiness).score).toBe(range.daily_readiness.find((r) => r.day === d.day)!.score);
      } else {
        const start = localSeconds(d.bedtime_start);
        expect(start).toBeGreaterThanOrEqual(11 * 3600);
        expect(start).toBeLessThan(21 * 3600);
        expect(tib).toBeLessThanOrEqual(3 * 3600);
      }
    }
  });

  it("readiness contributors are consistent with the night's heart rate", () => {
    const night = new Map(range.sleep.filter((d) => d.type === "long_sleep").map((d) => [d.day, d] as const));
    const pairs = range.daily_readiness.map((d) => [num(night.get(d.day)!.lowest_heart_rate), num(obj(d.contributors).resting_heart_rate)] as [number, number]);
    expect(pearson(pairs)).toBeLessThan(-0.3);
  });
});

describe("sandbox documents", () => {
  it("14 days ending 2024-11-14 for each daily collection, valid and frozen", () => {
    const expectedDays: string[] = [];
    for (let i = 13; i >= 0; i--) expectedDays.push(addDays("2024-11-14", -i));
    for (const c of DAILY_COLLECTIONS) {
      const docs = SANDBOX_DOCUMENTS[c];
      expect(docs.map((d) => d.day)).toEqual(expectedDays);
      for (const d of docs) expect(validateSchema(MODEL[c], d)).toEqual({ ok: true });
      expect(Object.isFrozen(docs)).toBe(true);
      expect(Object.isFrozen(docs[0])).toBe(true);
    }
    expect(SANDBOX_SLEEP_DOCUMENTS.length).toBeGreaterThanOrEqual(14);
    for (const d of SANDBOX_SLEEP_DOCUMENTS) expect(validateSchema("PublicModifiedSleepModel", d)).toEqual({ ok: true });
  });
});
