// The V2 resources beyond the seven daily collections, personal_info and sleep: workouts,
// sessions, enhanced tags, the deprecated tags, VO2 max, bedtime guidance (sleep_time), rest-mode
// periods and the ring's configuration. They are derived from a user's generated documents of
// fixtures.ts and never change them (tests pick generated people and days by those documents).
//
// Everything here is a pure function of (seed, user, day, revision) and, for rest mode and the
// ring, of the user's "today": no clock, no Math.random. A resource's existence and shape come from
// revision 0 of its day (and of neighbouring days), its values from the day's current revision, so
// `sync` of a day with data keeps the same set of ids and only edits values (update events), like
// the existing collections. Heart rate and the ring battery are time series: timeseries.ts.
//
// Conventions (OpenAPI 1.37 schemas, ring-api-facts §3.10 and its Addendum of 2026-11-23):
// - workouts lie on the day's high-activity blocks of daily_activity.class_5_min (runs of class
//   ≥ 3 holding ≥ 5 blocks of class ≥ 4, at least 60 % of the run), calories from that day's
//   minute METs; now and then a long walk (≥ 50 min of class ≥ 3) is an autodetected walk;
// - sessions lie on inactive blocks (class 2), with 5-second heart-rate, HRV and motion samples;
// - enhanced tags: realistic tag_type_codes with habits per person, some custom names; alcohol
//   is tagged more often before a night of lower HRV, late meals before a higher night heart rate,
//   sickness on fever days — so tagged-versus-untagged comparisons find something;
// - tag (deprecated) mirrors some enhanced tags in the old note shape, one note per day;
// - vO2_max about weekly, from resting heart rate (Uth et al.: 15.3 × HRmax / HRrest, scaled);
// - sleep_time for most days with data: status from the recent nights, optimal_bedtime only when
//   status is optimal_found (often null, as observed);
// - rest_mode_period on low-activity days (steps well below the person's 28-day median, more
//   readily with a fever), plus zero-length toggles (start_time == end_time, as observed);
// - ring_configuration: one ring, replaced once on a fixed day per person (the old one's
//   set_up_at may be 1970-01-01T00:00:00+00:00, as observed); firmware as of "today".
import {
  dayGenerator,
  dayToIndex,
  formatOffset,
  generatePersonalInfo,
  indexToDay,
  type Collection,
  type DayGenerator,
  type GenerateOptions,
  type RingDocument,
} from "./fixtures";
import { hashUnit, keyOf, rngFor, uuidFor, type Rng } from "./prng";

export const RESOURCE_COLLECTIONS = [
  "enhanced_tag",
  "rest_mode_period",
  "ring_configuration",
  "session",
  "sleep_time",
  "tag",
  "vO2_max",
  "workout",
] as const;
export type ResourceCollection = (typeof RESOURCE_COLLECTIONS)[number];
/** The resources that belong to one day (ring_configuration belongs to none). */
export const DAY_RESOURCES = RESOURCE_COLLECTIONS.filter((c) => c !== "ring_configuration") as readonly DayResource[];
export type DayResource = Exclude<ResourceCollection, "ring_configuration">;
export const TIME_SERIES = ["heartrate", "ring_battery_level"] as const;
export type TimeSeries = (typeof TIME_SERIES)[number];

export type ResourceDocument = Record<string, unknown> & { id: string };
type DayDocs = Record<Collection, RingDocument[]>;

/** The webhook data_type of a collection (vO2_max is `vo2_max` there; facts §6.1). */
export function webhookDataType(collection: string): string {
  return collection === "vO2_max" ? "vo2_max" : collection;
}

/** The day a document belongs to (its `day`, or `start_day` for tags and rest mode); null for the ring. */
export function dayKeyOf(collection: string, doc: Record<string, unknown>): string | null {
  if (collection === "ring_configuration") return null;
  const v = collection === "enhanced_tag" || collection === "rest_mode_period" ? doc.start_day : doc.day;
  return typeof v === "string" ? v : null;
}

// ---------------------------------------------------------------------------------------
// Time helpers (UTC arithmetic; local times carry the user's fixed offset)

const DAY_S = 86_400;
const HOUR = 3600;
const MIN = 60;
const BLOCK_S = 300;
const ACTIVITY_START_S = 4 * HOUR;
/** Activity blocks before local midnight (04:00 → 24:00); later ones belong to the next calendar day. */
const BLOCKS_BEFORE_MIDNIGHT = 240;

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));
const clamp = (x: number, lo: number, hi: number) => (x < lo ? lo : x > hi ? hi : x);

/** Local date-time `seconds` after local midnight of day `idx`, with the offset text. */
export function localIso(idx: number, seconds: number, offset: string, millis = false): string {
  const s = Math.round(seconds);
  const shift = Math.floor(s / DAY_S);
  const t = s - shift * DAY_S;
  return `${indexToDay(idx + shift)}T${pad2(Math.floor(t / HOUR))}:${pad2(Math.floor((t % HOUR) / MIN))}:${pad2(t % MIN)}${millis ? ".000" : ""}${offset}`;
}

/** "2024-11-11T22:30:00+01:00" → seconds relative to local midnight of day `idx` (may be negative). */
export function localSecondsFrom(idx: number, text: unknown): number | null {
  if (typeof text !== "string") return null;
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})/.exec(text);
  if (!m) return null;
  return (dayToIndex(m[1]!) - idx) * DAY_S + Number(m[2]) * HOUR + Number(m[3]) * MIN + Number(m[4]);
}

function utcIso(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "+00:00");
}

// ---------------------------------------------------------------------------------------
// Habits: per person, drawn once in a fixed order

export type Habits = {
  hardActivities: string[];
  moderateActivities: string[];
  /** Probability of a session on a day (0 = never does sessions). */
  sessionRate: number;
  sessionWeights: Array<[type: string, weight: number]>;
  caffeine: number;
  alcohol: number;
  lateMeal: number;
  sauna: number;
  custom: Array<{ name: string; rate: number; hour: number }>;
  vo2Dow: number;
  vo2Hour: number;
  /** Battery: % per hour on the finger and off it. */
  drainWorn: number;
  drainOff: number;
  ring: RingHabits;
};

type RingHabits = {
  replacedIdx: number;
  firstSetUpIdx: number;
  firstSetUpSecond: number;
  firstSetUpUnknown: boolean;
  secondSetUpSecond: number;
  first: { hardware: string; design: string; color: string; size: number };
  second: { hardware: string; design: string; color: string; size: number };
  firmwareLag: number;
};

const HARD = ["running", "cycling", "hiit", "rowing", "swimming"];
const MODERATE = ["strength_training", "cycling", "elliptical", "hiking", "yoga", "dancing", "tennis", "swimming"];
const CUSTOM_NAMES = ["Magnesium", "Cold plunge", "Late screen time", "Spicy dinner", "Dog woke me up", "Reading before bed", "Melatonin", "Nasal strip"];
const RING_FIRST_DAY = dayToIndex("2021-06-01");
const RING_REPLACEMENT_SPAN = 6 * 365;
const GEN4_RELEASE = dayToIndex("2024-10-15");
const OR5_RELEASE = dayToIndex("2025-10-01");
const FIRMWARE_EPOCH = dayToIndex("2020-01-06");
const FIRMWARE_EVERY_DAYS = 49;

function pickDistinct(r: Rng, from: readonly string[], n: number): string[] {
  const pool = [...from];
  const out: string[] = [];
  while (out.length < n && pool.length > 0) out.push(pool.splice(Math.floor(r.next() * pool.length), 1)[0]!);
  return out;
}

export function makeHabits(prefix: string): Habits {
  const r = rngFor(prefix, "ext", "habits");
  const hardActivities = pickDistinct(r, HARD, 2);
  const moderateActivities = pickDistinct(r, MODERATE, 3);
  const sessionRate = r.chance(0.2) ? 0 : 0.08 + 0.3 * r.next();
  const sessionWeights: Array<[string, number]> = [
    ["meditation", 0.2 + r.next()],
    ["breathing", 0.1 + 0.6 * r.next()],
    ["relaxation", 0.3 * r.next()],
    ["rest", 0.25 * r.next()],
    ["body_status", 0.08 * r.next()],
  ];
  const caffeine = r.chance(0.6) ? 0.1 + 0.3 * r.next() : 0;
  const alcohol = r.chance(0.75) ? 0.03 + 0.07 * r.next() : 0;
  const lateMeal = 0.03 + 0.08 * r.next();
  const sauna = r.chance(0.3) ? 0.03 + 0.08 * r.next() : 0;
  const custom = pickDistinct(r, CUSTOM_NAMES, r.int(0, 3)).map((name) => ({ name, rate: 0.02 + 0.08 * r.next(), hour: 7 + Math.floor(15 * r.next()) }));
  const vo2Dow = r.int(0, 6);
  const vo2Hour = 9 + Math.floor(9 * r.next());
  const drainWorn = 0.38 + 0.12 * r.next();
  const drainOff = 0.15 + 0.1 * r.next();
  // The ring: replaced once on a fixed day (some people's history has both rings).
  const replacedIdx = RING_FIRST_DAY + r.int(0, RING_REPLACEMENT_SPAN);
  const firstSetUpIdx = replacedIdx - r.int(500, 1200);
  const firstSetUpSecond = r.int(8 * HOUR, 22 * HOUR);
  const firstSetUpUnknown = r.chance(0.5);
  const secondSetUpSecond = r.int(8 * HOUR, 22 * HOUR);
  const size = r.int(6, 13);
  const firstDesign = r.chance(0.6) ? "heritage" : "horizon";
  const firstColors = firstDesign === "heritage" ? ["silver", "glossy_black", "stealth_black", "glossy_gold", "rose"] : ["silver", "stealth_black", "glossy_gold", "rose", "brushed_silver"];
  const firstColor = firstColors[r.int(0, firstColors.length - 1)]!;
  const firstHardware = firstSetUpIdx < dayToIndex("2020-10-01") && r.chance(0.5) ? "gen2" : "gen3";
  const secondHardware = replacedIdx >= OR5_RELEASE && r.chance(0.5) ? "or5" : replacedIdx >= GEN4_RELEASE ? "gen4" : "gen3";
  const secondDesign = secondHardware === "gen3" ? "horizon" : r.chance(0.8) ? "horizon" : "ceramic";
  const secondColors =
    secondDesign === "ceramic" ? ["cloud", "petal", "midnight", "tide"] : ["silver", "stealth_black", "brushed_silver", "rose", "glossy_gold", "titanium"];
  const secondColor = secondColors[r.int(0, secondColors.length - 1)]!;
  const secondSize = clamp(size + (r.chance(0.25) ? (r.chance(0.5) ? 1 : -1) : 0), 6, 13);
  const firmwareLag = r.int(0, 9);
  return {
    hardActivities,
    moderateActivities,
    sessionRate,
    sessionWeights,
    caffeine,
    alcohol,
    lateMeal,
    sauna,
    custom,
    vo2Dow,
    vo2Hour,
    drainWorn,
    drainOff,
    ring: {
      replacedIdx,
      firstSetUpIdx,
      firstSetUpSecond,
      firstSetUpUnknown,
      secondSetUpSecond,
      first: { hardware: firstHardware, design: firstDesign, color: firstColor, size },
      second: { hardware: secondHardware, design: secondDesign, color: secondColor, size: secondSize },
      firmwareLag,
    },
  };
}

// ---------------------------------------------------------------------------------------
// The source of a user's documents (revision 0 memoized, for neighbours)

/** One user's view for the derivations: generated documents of any day, profile and habits. */
export class ResourceSource {
  readonly prefix: string;
  readonly offsetMinutes: number;
  readonly offset: string;
  readonly age: number;
  readonly weightKg: number;
  readonly habits: Habits;
  private readonly gen: DayGenerator;
  private readonly memo = new Map<number, DayDocs>();

  constructor(readonly opts: GenerateOptions) {
    this.gen = dayGenerator(opts);
    this.prefix = keyOf([opts.seed, opts.userKey]);
    this.offsetMinutes = opts.tzOffsetMinutes ?? 0;
    this.offset = formatOffset(this.offsetMinutes);
    const info = generatePersonalInfo({ ...opts, userId: "", email: "" });
    this.age = info.age ?? 40;
    this.weightKg = info.weight ?? 75;
    this.habits = makeHabits(this.prefix);
  }

  /** The day's documents at revision 0 (memoized). */
  base(idx: number): DayDocs {
    let d = this.memo.get(idx);
    if (!d) {
      d = this.gen.generate(indexToDay(idx), 0);
      this.memo.set(idx, d);
    }
    return d;
  }

  /** The day's documents at a revision. */
  at(idx: number, revision: number): DayDocs {
    return revision === 0 ? this.base(idx) : this.gen.generate(indexToDay(idx), revision);
  }

  private readonly nights = new Map<number, { bed: number; efficiency: number | null } | null>();
  private readonly windows = new Map<number, WorkoutWindow[]>();

  /** Revision 0's long sleep of a day: bedtime (seconds relative to its day's midnight) and efficiency. */
  night(idx: number): { bed: number; efficiency: number | null } | null {
    let n = this.nights.get(idx);
    if (n === undefined) {
      const s = longSleep(this.base(idx));
      const bed = s ? localSecondsFrom(idx, s.bedtime_start) : null;
      n = s && bed !== null ? { bed, efficiency: num(s.efficiency) } : null;
      this.nights.set(idx, n);
    }
    return n;
  }

  /** Revision 0's workout windows of a day. */
  workoutWindows(idx: number, cls: string): WorkoutWindow[] {
    let w = this.windows.get(idx);
    if (!w) {
      w = workoutWindows(cls);
      this.windows.set(idx, w);
    }
    return w;
  }
}

// ---------------------------------------------------------------------------------------
// Reading the existing documents

type Activity = { cls: string; met: number[]; steps: number };

function activityOf(docs: DayDocs): Activity | null {
  const a = docs.daily_activity[0];
  if (!a || typeof a.class_5_min !== "string" || a.class_5_min.length !== 288) return null;
  const met = (a.met as { items?: unknown } | undefined)?.items;
  return { cls: a.class_5_min, met: Array.isArray(met) ? (met as number[]) : [], steps: typeof a.steps === "number" ? a.steps : 0 };
}

function longSleep(docs: DayDocs): RingDocument | undefined {
  return docs.sleep.find((s) => s.type === "long_sleep");
}

/** The ring was worn through the night and day (a long sleep exists). */
function worn(docs: DayDocs): boolean {
  return longSleep(docs) !== undefined;
}

const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

/** kcal of the day's METs over [fromS, toS) seconds after local midnight. */
function caloriesBetween(act: Activity, fromS: number, toS: number, weightKg: number): number {
  const kcalPerMet = (3.5 * weightKg) / 200;
  let kcal = 0;
  const first = Math.max(0, Math.floor((fromS - ACTIVITY_START_S) / MIN));
  const last = Math.min(act.met.length, Math.ceil((toS - ACTIVITY_START_S) / MIN));
  for (let m = first; m < last; m++) {
    const v = act.met[m];
    if (typeof v === "number" && v > 1) kcal += (v - 1) * kcalPerMet;
  }
  return Math.round(kcal * 10) / 10;
}

// ---------------------------------------------------------------------------------------
// Workouts

type WorkoutWindow = { from: number; to: number; intensity: "easy" | "moderate" | "hard"; walk: boolean };


/** High-activity runs of a day's class_5_min, before local midnight (block indices, [from, to)). */
export function workoutWindows(cls: string): WorkoutWindow[] {
  const out: WorkoutWindow[] = [];
  let longestWalk: { from: number; to: number } | null = null;
  let i = 0;
  while (i < BLOCKS_BEFORE_MIDNIGHT) {
    if (cls.charCodeAt(i) < 51) {
      i++;
      continue;
    }
    let j = i;
    let high = 0;
    while (j < BLOCKS_BEFORE_MIDNIGHT && cls.charCodeAt(j) >= 51) {
      if (cls.charCodeAt(j) >= 52) high++;
      j++;
    }
    let from = i;
    let to = j;
    while (from < to && cls[from] === "3") from++;
    while (to > from && cls[to - 1] === "3") to--;
    let c5 = 0;
    for (let k = from; k < to; k++) if (cls[k] === "5") c5++;
    const len = to - from;
    if (high >= 5 && high >= 0.6 * len) {
      out.push({ from, to, intensity: c5 * 2 >= len ? "hard" : "moderate", walk: false });
    } else if (j - i >= 10 && (!longestWalk || j - i > longestWalk.to - longestWalk.from)) {
      longestWalk = { from: i, to: j };
    }
    i = j;
  }
  if (out.length === 0 && longestWalk) out.push({ ...longestWalk, intensity: "easy", walk: true });
  return out;
}

const SPEED: Record<string, [number, number]> = {
  running: [2.5, 3.4],
  cycling: [5.5, 7.5],
  walking: [1.25, 1.5],
  hiking: [1.0, 1.3],
  swimming: [0.45, 0.65],
};

function workouts(src: ResourceSource, idx: number, current: DayDocs): ResourceDocument[] {
  const structure = activityOf(src.base(idx));
  const act = activityOf(current) ?? structure;
  if (!structure || !act || !worn(src.base(idx))) return [];
  const h = src.habits;
  const out: ResourceDocument[] = [];
  src.workoutWindows(idx, structure.cls).forEach((w, k) => {
    const r = rngFor(src.prefix, "ext", "workout", idx, k);
    // A long walk becomes a workout only now and then (autodetected walking).
    const keepWalk = r.chance(0.15);
    if (w.walk && !keepWalk) return;
    const activity = w.walk
      ? "walking"
      : w.intensity === "hard"
        ? h.hardActivities[r.chance(0.7) ? 0 : 1]!
        : h.moderateActivities[r.int(0, h.moderateActivities.length - 1)]!;
    const startS = ACTIVITY_START_S + w.from * BLOCK_S + r.int(0, 120);
    const endS = ACTIVITY_START_S + w.to * BLOCK_S - r.int(0, 120);
    const u = r.next();
    const source = w.walk ? "autodetected" : u < 0.82 ? "confirmed" : u < 0.92 ? "autodetected" : u < 0.97 ? "manual" : "workout_heart_rate";
    const speed = SPEED[activity];
    const gps = r.chance(0.6);
    const distance = speed && gps ? Math.round((endS - startS) * (speed[0] + (speed[1] - speed[0]) * r.next())) : null;
    const label = source === "manual" && r.chance(0.4) ? "Commute" : null;
    out.push({
      id: uuidFor(src.prefix, "ext", "workout", idx, k),
      activity,
      calories: caloriesBetween(act, startS, endS, src.weightKg),
      day: indexToDay(idx),
      distance,
      end_datetime: localIso(idx, endS, src.offset),
      intensity: w.walk ? "easy" : w.intensity,
      label,
      source,
      start_datetime: localIso(idx, startS, src.offset),
    });
  });
  return out;
}

// ---------------------------------------------------------------------------------------
// Sessions

const SESSION_MINUTES: Record<string, [number, number]> = {
  meditation: [5, 20],
  breathing: [3, 10],
  relaxation: [10, 20],
  rest: [10, 25],
  body_status: [1, 3],
};

function weighted(r: Rng, weights: Array<[string, number]>): string {
  const total = weights.reduce((a, [, w]) => a + w, 0);
  let u = r.next() * total;
  for (const [v, w] of weights) {
    u -= w;
    if (u < 0) return v;
  }
  return weights[weights.length - 1]![0];
}

/** Runs of inactive blocks (class 2), away from workouts, before local midnight. */
function quietRuns(cls: string, busy: WorkoutWindow[]): Array<{ from: number; to: number }> {
  const out: Array<{ from: number; to: number }> = [];
  let i = 0;
  const mask = new Uint8Array(BLOCKS_BEFORE_MIDNIGHT);
  for (const w of busy) for (let k = Math.max(0, w.from - 2); k < Math.min(BLOCKS_BEFORE_MIDNIGHT, w.to + 2); k++) mask[k] = 1;
  const blocked = (k: number) => mask[k] === 1;
  while (i < BLOCKS_BEFORE_MIDNIGHT) {
    if (cls[i] !== "2" || blocked(i)) {
      i++;
      continue;
    }
    let j = i;
    while (j < BLOCKS_BEFORE_MIDNIGHT && cls[j] === "2" && !blocked(j)) j++;
    out.push({ from: i, to: j });
    i = j;
  }
  return out;
}

function sessions(src: ResourceSource, idx: number, current: DayDocs): ResourceDocument[] {
  const h = src.habits;
  const base = src.base(idx);
  const structure = activityOf(base);
  if (!structure || !worn(base) || h.sessionRate === 0) return [];
  const r = rngFor(src.prefix, "ext", "session", idx);
  const count = r.chance(h.sessionRate) ? (r.chance(0.2) ? 2 : 1) : 0;
  if (count === 0) return [];
  const long = longSleep(current) ?? longSleep(base);
  const rhr = num(long?.lowest_heart_rate) ?? 58;
  const hrv = num(long?.average_hrv) ?? 40;
  const runs = quietRuns(structure.cls, src.workoutWindows(idx, structure.cls));
  const taken: Array<[number, number]> = [];
  const out: ResourceDocument[] = [];
  for (let k = 0; k < count; k++) {
    const sr = rngFor(src.prefix, "ext", "session", idx, k);
    const type = weighted(sr, h.sessionWeights);
    const [lo, hi] = SESSION_MINUTES[type]!;
    const durS = Math.round((lo + (hi - lo) * sr.next()) * MIN / 5) * 5;
    const fits = runs.filter((run) => (run.to - run.from - 2) * BLOCK_S >= durS && !taken.some(([a, b]) => run.from < b && a < run.to));
    if (fits.length === 0) continue;
    const run = fits[Math.floor(sr.next() * fits.length)]!;
    taken.push([run.from, run.to]);
    const slack = (run.to - run.from - 2) * BLOCK_S - durS;
    const startS = ACTIVITY_START_S + (run.from + 1) * BLOCK_S + Math.floor(sr.next() * (slack / 5 + 1)) * 5;
    const endS = startS + durS;
    const n = durS / 5;
    const sampleTs = localIso(idx, startS, src.offset, true);
    const hrItems: (number | null)[] = [];
    const hrvItems: (number | null)[] = [];
    const motion: (number | null)[] = [];
    for (let i = 0; i < n; i++) {
      const t = n > 1 ? i / (n - 1) : 0;
      hrItems.push(sr.chance(i === 0 ? 0.1 : 0.02) ? null : Math.round(rhr + 7 - 4 * t + 1.5 * sr.normal()));
      hrvItems.push(sr.chance(0.03) ? null : Math.round(hrv * (0.85 + 0.35 * t) * Math.exp(0.12 * sr.normal())));
      const u = sr.next();
      motion.push(u < 0.75 ? 0 : u < 0.93 ? 1 : 2 + Math.floor(3 * sr.next()));
    }
    const dropHr = sr.chance(0.08);
    const dropHrv = dropHr || sr.chance(0.1);
    const dropMotion = sr.chance(0.05);
    const moodU = sr.next();
    const mood = moodU < 0.4 ? null : moodU < 0.64 ? "good" : moodU < 0.76 ? "great" : moodU < 0.94 ? "same" : moodU < 0.98 ? "worse" : "bad";
    out.push({
      id: uuidFor(src.prefix, "ext", "session", idx, k),
      day: indexToDay(idx),
      end_datetime: localIso(idx, endS, src.offset, true),
      heart_rate: dropHr ? null : { interval: 5, items: hrItems, timestamp: sampleTs },
      heart_rate_variability: dropHrv ? null : { interval: 5, items: hrvItems, timestamp: sampleTs },
      mood,
      motion_count: dropMotion ? null : { interval: 5, items: motion, timestamp: sampleTs },
      start_datetime: localIso(idx, startS, src.offset, true),
      type,
    });
  }
  return out.sort((a, b) => String(a.start_datetime).localeCompare(String(b.start_datetime)));
}

// ---------------------------------------------------------------------------------------
// Enhanced tags and the deprecated tags

export const TAG_CODES = [
  "tag_generic_alcohol",
  "tag_generic_caffeine",
  "tag_generic_late_meal",
  "tag_generic_sick",
  "tag_generic_sauna",
  "tag_generic_travel",
  "tag_generic_headache",
  "tag_generic_nocaffeine",
] as const;

const COMMENTS: Record<string, string[]> = {
  tag_generic_alcohol: ["2 glasses of wine", "beers with friends", "one cocktail"],
  tag_generic_caffeine: ["double espresso", "coffee after lunch", "cold brew"],
  tag_generic_late_meal: ["dinner at ten", "pizza late"],
  tag_generic_sick: ["sore throat", "cold coming on"],
  tag_generic_sauna: ["20 minutes"],
  tag_generic_travel: ["flight"],
  tag_generic_headache: ["mild"],
  tag_generic_nocaffeine: ["skipped coffee"],
};

type TagDraft = { code: string; customName: string | null; second: number; durationDays: number };

function hrvMean(src: ResourceSource, from: number, to: number): number | null {
  let sum = 0;
  let n = 0;
  for (let i = from; i <= to; i++) {
    const v = num(longSleep(src.base(i))?.average_hrv);
    if (v !== null) {
      sum += v;
      n++;
    }
  }
  return n >= 3 ? sum / n : null;
}

function enhancedTags(src: ResourceSource, idx: number): ResourceDocument[] {
  const h = src.habits;
  const base = src.base(idx);
  const next = src.base(idx + 1);
  const r = rngFor(src.prefix, "ext", "enhanced_tag", idx);
  const dow = (((idx + 4) % 7) + 7) % 7; // 0 = Sunday
  const drafts: TagDraft[] = [];
  const wornToday = worn(base);
  // Morning caffeine.
  const uCaf = r.next();
  const sCaf = 7.5 * HOUR + r.next() * 3 * HOUR;
  if (wornToday && uCaf < h.caffeine) drafts.push({ code: "tag_generic_caffeine", customName: null, second: sCaf, durationDays: 0 });
  else if (wornToday && h.caffeine > 0 && uCaf > 0.995) drafts.push({ code: "tag_generic_nocaffeine", customName: null, second: sCaf, durationDays: 0 });
  // Alcohol in the evening, more at weekends and before a night of lower HRV.
  const uAlc = r.next();
  const sAlc = 19 * HOUR + r.next() * 3 * HOUR;
  const nextHrv = num(longSleep(next)?.average_hrv);
  const ref = hrvMean(src, idx - 6, idx);
  let pAlc = h.alcohol * (dow === 5 || dow === 6 ? 3.5 : 1);
  if (nextHrv !== null && ref !== null) pAlc *= nextHrv < 0.93 * ref ? 2.5 : nextHrv > 1.05 * ref ? 0.35 : 1;
  if (uAlc < pAlc) drafts.push({ code: "tag_generic_alcohol", customName: null, second: sAlc, durationDays: 0 });
  // A late meal, more often before a night with a higher lowest heart rate.
  const uMeal = r.next();
  const sMeal = 21 * HOUR + r.next() * 1.5 * HOUR;
  const nextLow = num(longSleep(next)?.lowest_heart_rate);
  const todayLow = num(longSleep(base)?.lowest_heart_rate);
  const pMeal = h.lateMeal * (nextLow !== null && todayLow !== null && nextLow > todayLow + 1 ? 2 : 0.7);
  if (uMeal < pMeal) drafts.push({ code: "tag_generic_late_meal", customName: null, second: sMeal, durationDays: 0 });
  // Sick on fever days.
  const uSick = r.next();
  const sSick = 9 * HOUR + r.next() * 3 * HOUR;
  const uSickLen = r.next();
  const temp = num(base.daily_readiness[0]?.temperature_deviation) ?? 0;
  if (uSick < (temp >= 0.5 ? 0.7 : 0.003)) drafts.push({ code: "tag_generic_sick", customName: null, second: sSick, durationDays: uSickLen < 0.3 ? 1 + Math.floor(uSickLen * 7) : 0 });
  // Sauna, headache, travel (travel mostly on days the ring stayed at home).
  const uSauna = r.next();
  const sSauna = 17 * HOUR + r.next() * 3 * HOUR;
  if (uSauna < h.sauna) drafts.push({ code: "tag_generic_sauna", customName: null, second: sSauna, durationDays: 0 });
  const uHead = r.next();
  const sHead = 12 * HOUR + r.next() * 6 * HOUR;
  if (uHead < 0.012) drafts.push({ code: "tag_generic_headache", customName: null, second: sHead, durationDays: 0 });
  const uTravel = r.next();
  const sTravel = 8 * HOUR + r.next() * 10 * HOUR;
  if (uTravel < (wornToday ? 0.008 : 0.35)) drafts.push({ code: "tag_generic_travel", customName: null, second: sTravel, durationDays: 0 });
  // The person's own custom tags.
  for (const c of h.custom) {
    const u = r.next();
    const s = c.hour * HOUR + r.next() * HOUR;
    if (u < c.rate) drafts.push({ code: "custom", customName: c.name, second: s, durationDays: 0 });
  }
  drafts.sort((a, b) => a.second - b.second);
  return drafts.map((d) => {
    const tr = rngFor(src.prefix, "ext", "enhanced_tag", idx, d.customName ?? d.code);
    const comments = COMMENTS[d.code];
    const comment = comments && tr.chance(0.15) ? comments[tr.int(0, comments.length - 1)]! : "";
    const endIdx = idx + d.durationDays;
    return {
      id: uuidFor(src.prefix, "ext", "enhanced_tag", idx, d.customName ?? d.code),
      tag_type_code: d.code,
      start_time: localIso(idx, d.second, src.offset),
      end_time: d.durationDays > 0 ? localIso(endIdx, d.second, src.offset) : null,
      start_day: indexToDay(idx),
      end_day: d.durationDays > 0 ? indexToDay(endIdx) : null,
      comment,
      custom_name: d.customName,
    };
  });
}

/** The deprecated `tag` route: some of the day's enhanced tags in the old note shape, one note per day. */
function oldTags(src: ResourceSource, idx: number, tags: readonly ResourceDocument[]): ResourceDocument[] {
  const mirrored = tags.filter((t) => t.tag_type_code !== "custom" && hashUnit(src.prefix, "ext", "tag-mirror", t.id) < 0.6);
  if (mirrored.length === 0) return [];
  const comments = mirrored.map((t) => String(t.comment ?? "")).filter((c) => c !== "");
  return [
    {
      id: uuidFor(src.prefix, "ext", "tag", idx),
      day: indexToDay(idx),
      text: comments.length > 0 ? comments.join("; ") : null,
      timestamp: mirrored[0]!.start_time,
      tags: mirrored.map((t) => String(t.tag_type_code)),
    },
  ];
}

// ---------------------------------------------------------------------------------------
// VO2 max

function vo2Max(src: ResourceSource, idx: number, current: DayDocs): ResourceDocument[] {
  const h = src.habits;
  const base = src.base(idx);
  if (!worn(base) || !activityOf(base)) return [];
  const dow = (((idx + 4) % 7) + 7) % 7;
  if (dow !== h.vo2Dow && hashUnit(src.prefix, "ext", "vo2-extra", idx) >= 0.06) return [];
  const lows: number[] = [];
  for (let k = 0; k < 14; k++) {
    const v = num(longSleep(k === 0 ? current : src.base(idx - k))?.lowest_heart_rate);
    if (v !== null) lows.push(v);
  }
  // Existence from revision 0 (so a revision never adds or removes the estimate).
  let baseNights = 0;
  for (let k = 0; k < 14; k++) if (num(longSleep(src.base(idx - k))?.lowest_heart_rate) !== null) baseNights++;
  if (baseNights < 5 || lows.length === 0) return [];
  const rest = lows.reduce((a, b) => a + b, 0) / lows.length;
  const hrMax = 208 - 0.7 * src.age;
  const r = rngFor(src.prefix, "ext", "vo2", idx);
  const value = Math.round(clamp(0.82 * 15.3 * (hrMax / rest) + 0.6 * r.normal(), 18, 75));
  return [
    {
      id: uuidFor(src.prefix, "ext", "vO2_max", idx),
      day: indexToDay(idx),
      timestamp: localIso(idx, h.vo2Hour * HOUR + Math.floor(r.next() * HOUR), src.offset),
      vo2_max: value,
    },
  ];
}

// ---------------------------------------------------------------------------------------
// Bedtime guidance (sleep_time)
//
// `day` D is the guidance for the bedtime of the evening of D (tonight); start_offset and
// end_offset are seconds relative to the local midnight that ends D (negative = before it), the
// convention of the sleep periods' bedtimes relative to their wake-up day. day_tz is the UTC
// offset in seconds.

function sleepTime(src: ResourceSource, idx: number, current: DayDocs): ResourceDocument[] {
  const base = src.base(idx);
  if (!activityOf(base) && base.sleep.length === 0) return [];
  if (hashUnit(src.prefix, "ext", "sleep_time-missing", idx) < 0.04) return [];
  const nights: Array<{ k: number; bed: number; efficiency: number | null }> = [];
  for (let k = 0; k < 14; k++) {
    if (k === 0) {
      const s = longSleep(current);
      const bed = s ? localSecondsFrom(idx, s.bedtime_start) : null;
      if (s && bed !== null) nights.push({ k, bed, efficiency: num(s.efficiency) });
      continue;
    }
    const n = src.night(idx - k);
    if (n) nights.push({ k, ...n });
  }
  const r = rngFor(src.prefix, "ext", "sleep_time", idx);
  const uStatus = r.next();
  let status: string;
  let window: { day_tz: number; end_offset: number; start_offset: number } | null = null;
  let recommendation: string | null = null;
  const recent = nights.filter((n) => n.k <= 2);
  const effs = recent.map((n) => n.efficiency).filter((e): e is number => e !== null);
  const meanBed = nights.length > 0 ? nights.reduce((a, n) => a + n.bed, 0) / nights.length : 0;
  const lastBed = nights.find((n) => n.k === 0)?.bed ?? null;
  if (nights.length < 5) status = "not_enough_nights";
  else if (recent.length < 2) status = "not_enough_recent_nights";
  else if (effs.length > 0 && effs.reduce((a, e) => a + e, 0) / effs.length < 80) {
    status = "bad_sleep_quality";
    recommendation = "improve_efficiency";
  } else if (uStatus < 0.58) {
    status = "optimal_found";
    const quarter = 15 * MIN;
    const start = Math.round((meanBed - 30 * MIN) / quarter) * quarter;
    window = { day_tz: src.offsetMinutes * MIN, end_offset: start + HOUR, start_offset: start };
    recommendation =
      lastBed === null ? "follow_optimal_bedtime" : lastBed < start - quarter ? "later_bedtime" : lastBed > start + HOUR + quarter ? "earlier_bedtime" : "follow_optimal_bedtime";
  } else {
    status = "only_recommended_found";
    recommendation = lastBed !== null && lastBed > meanBed + 20 * MIN ? "earlier_bedtime" : lastBed !== null && lastBed < meanBed - 40 * MIN ? "later_bedtime" : null;
  }
  return [{ id: uuidFor(src.prefix, "ext", "sleep_time", idx), day: indexToDay(idx), optimal_bedtime: window, recommendation, status }];
}

// ---------------------------------------------------------------------------------------
// Rest mode

function isWornActivity(a: Activity | null): a is Activity {
  if (!a) return false;
  let off = 0;
  for (let i = 0; i < 288; i++) if (a.cls.charCodeAt(i) === 48) off++;
  return off < 100;
}

/** Median steps of the 28 days before `idx` (revision 0), or null with fewer than 10 worn days. */
function medianSteps(src: ResourceSource, idx: number): number | null {
  const steps: number[] = [];
  for (let k = 1; k <= 28; k++) {
    const a = activityOf(src.base(idx - k));
    if (isWornActivity(a)) steps.push(a.steps);
  }
  if (steps.length < 10) return null;
  steps.sort((a, b) => a - b);
  return steps[Math.floor(steps.length / 2)]!;
}

function low(src: ResourceSource, idx: number, median: number, factor: number): boolean {
  const a = activityOf(src.base(idx));
  return isWornActivity(a) && a.steps < factor * median;
}

const REST_TAGS = [["tag_generic_sick"], ["tag_generic_sick", "tag_generic_headache"], ["tag_generic_headache"]];

function wakeSecond(docs: DayDocs, idx: number): number | null {
  return localSecondsFrom(idx, longSleep(docs)?.bedtime_end);
}

/** Rest mode periods starting on `idx`: a real period on a low-activity day, or a zero-length toggle. */
function restModes(src: ResourceSource, idx: number, current: DayDocs, today: number): ResourceDocument[] {
  const base = src.base(idx);
  const median = medianSteps(src, idx);
  const act = activityOf(base);
  if (median === null || !isWornActivity(act)) return [];
  const r = rngFor(src.prefix, "ext", "rest_mode_period", idx);
  const id = uuidFor(src.prefix, "ext", "rest_mode_period", idx);
  const day = indexToDay(idx);
  const fever = (num(base.daily_readiness[0]?.temperature_deviation) ?? 0) >= 0.5;
  const starts =
    low(src, idx, median, fever ? 0.8 : 0.6) && !low(src, idx - 1, median, 0.8) && hashUnit(src.prefix, "ext", "rest_mode", idx) < (fever ? 0.9 : 0.45);
  if (!starts) {
    // Zero-length toggles (switched on and straight off), as most real rows are.
    if (low(src, idx, median, 0.8) || hashUnit(src.prefix, "ext", "rest_mode_toggle", idx) >= 1 / 45) return [];
    const at = localIso(idx, 19 * HOUR + r.int(0, 3 * HOUR), src.offset);
    return [{ id, end_day: day, end_time: at, episodes: [], start_day: day, start_time: at }];
  }
  // Ends the morning after the low days (at most a week); ongoing when that is after today.
  let endIdx = idx + 7;
  for (let k = 1; k <= 7; k++) {
    const d = idx + k;
    const a = activityOf(src.base(d));
    if (isWornActivity(a) && a.steps >= 0.8 * median) {
      endIdx = d;
      break;
    }
  }
  const ongoing = endIdx > today;
  const startS = (wakeSecond(current, idx) ?? 8 * HOUR) + r.int(20 * MIN, 60 * MIN);
  const endS = (wakeSecond(src.base(endIdx), endIdx) ?? 8 * HOUR) + r.int(10 * MIN, 40 * MIN);
  const episodes: Array<{ tags: string[]; timestamp: string }> = [];
  if (r.chance(0.5)) {
    const lastEpisodeDay = ongoing ? Math.min(today, idx + 7) : endIdx - 1;
    for (let d = idx; d <= Math.max(idx, lastEpisodeDay); d++) {
      if (d > idx && !r.chance(0.5)) continue;
      episodes.push({ tags: REST_TAGS[r.int(0, REST_TAGS.length - 1)]!, timestamp: localIso(d, (d === idx ? startS : 10 * HOUR) + r.int(MIN, 2 * HOUR), src.offset) });
    }
  }
  return [
    {
      id,
      end_day: ongoing ? null : indexToDay(endIdx),
      end_time: ongoing ? null : localIso(endIdx, endS, src.offset),
      episodes,
      start_day: day,
      start_time: localIso(idx, startS, src.offset),
    },
  ];
}

// ---------------------------------------------------------------------------------------
// The ring

function firmware(hardware: string, asOf: number, lag: number): string {
  const n = Math.max(0, Math.floor((asOf - FIRMWARE_EPOCH - lag) / FIRMWARE_EVERY_DAYS));
  if (hardware === "gen2") return `1.${9 + Math.floor(n / 12)}.${n % 12}`;
  if (hardware === "gen3") return `2.${8 + Math.floor(n / 7)}.${10 + (n % 7) * 5}`;
  const since = Math.max(0, n - Math.floor((GEN4_RELEASE - FIRMWARE_EPOCH) / FIRMWARE_EVERY_DAYS));
  return `${hardware === "or5" ? 4 : 3}.${Math.floor(since / 7)}.${10 + (since % 7) * 5}`;
}

/**
 * The ring configurations of a person as of `today`: the first ring, and the replacement once
 * its set-up day is on or before `lastDay` (today, or a later day created by sync).
 */
export function ringConfigurations(src: ResourceSource, today: number, lastDay: number): ResourceDocument[] {
  const r = src.habits.ring;
  const replaced = r.replacedIdx <= lastDay;
  const firstAsOf = replaced ? Math.min(today, r.replacedIdx - 1) : today;
  const out: ResourceDocument[] = [
    {
      id: uuidFor(src.prefix, "ext", "ring_configuration", 0),
      color: r.first.color,
      design: r.first.design,
      firmware_version: firmware(r.first.hardware, Math.max(firstAsOf, r.firstSetUpIdx), r.firmwareLag),
      hardware_type: r.first.hardware,
      set_up_at: r.firstSetUpUnknown ? "1970-01-01T00:00:00+00:00" : utcIso((r.firstSetUpIdx * DAY_S + r.firstSetUpSecond) * 1000),
      size: r.first.size,
    },
  ];
  if (replaced) {
    out.push({
      id: uuidFor(src.prefix, "ext", "ring_configuration", 1),
      color: r.second.color,
      design: r.second.design,
      firmware_version: firmware(r.second.hardware, Math.max(today, r.replacedIdx), r.firmwareLag),
      hardware_type: r.second.hardware,
      set_up_at: utcIso((r.replacedIdx * DAY_S + r.secondSetUpSecond) * 1000),
      size: r.second.size,
    });
  }
  return out;
}

/** The day (index) a person's ring is replaced; useful to tests. */
export function ringReplacementIndex(opts: GenerateOptions): number {
  return makeHabits(keyOf([opts.seed, opts.userKey])).ring.replacedIdx;
}

// ---------------------------------------------------------------------------------------
// Public API

export type DayResources = Record<DayResource, ResourceDocument[]>;

/**
 * The resources of one day at a revision. `today` (a day index) decides whether a rest-mode
 * period that started on this day is still ongoing.
 */
export function generateDayResources(src: ResourceSource, idx: number, revision: number, today: number): DayResources {
  const current = src.at(idx, revision);
  const enhanced = enhancedTags(src, idx);
  return {
    enhanced_tag: enhanced,
    rest_mode_period: restModes(src, idx, current, today),
    session: sessions(src, idx, current),
    sleep_time: sleepTime(src, idx, current),
    tag: oldTags(src, idx, enhanced),
    vO2_max: vo2Max(src, idx, current),
    workout: workouts(src, idx, current),
  };
}

/** The resources of one day, for callers that do not keep a source (tests, pickers). */
export function resourcesOfDay(opts: GenerateOptions, day: string, revision = 0, today = day): DayResources {
  return generateDayResources(new ResourceSource(opts), dayToIndex(day), revision, dayToIndex(today));
}
