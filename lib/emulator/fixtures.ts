// Deterministic, realistic ring data for the emulator.
//
// Everything is a pure function of (seed, userKey, day, revision): no clock, no Math.random,
// no I/O. A user has a fixed profile (age, resting heart rate, chronotype, step habit...).
// Each calendar day has "base" draws that depend on that day alone (bedtime, sleep quality,
// stress, step goal, fever onset...); documents are then derived from the base draws of the
// day and its neighbours (last night's sleep drives this morning's readiness, yesterday's
// activity its previous_day_activity, 14-day windows the balances), so correlations hold
// without any cross-day state. Slow trends are smooth value noise over the day index.
//
// Conventions (see the OpenAPI 1.37 schemas and spec/ring-api-facts.md §3):
// - `day` of a sleep period is its wake-up day; the long sleep of day D starts the evening
//   before (or just after midnight) and ends in the morning of D.
// - daily_activity covers 04:00 D .. 04:00 D+1 local; `timestamp` is 04:00 local with offset.
// - daily_readiness / daily_sleep `timestamp` is local midnight of D.
// - A fixed UTC offset per user (`tzOffsetMinutes`, default 0); no DST changes.
// - Ids are UUID-v4-shaped and keyed by (seed, userKey, collection, day, slot): revisions
//   keep them.
import { hashNormal, keyOf, rngFor, uuidFor, type Rng } from "@/lib/emulator/prng";

export const DAILY_COLLECTIONS = [
  "daily_activity",
  "daily_cardiovascular_age",
  "daily_readiness",
  "daily_resilience",
  "daily_sleep",
  "daily_spo2",
  "daily_stress",
] as const;
export type DailyCollection = (typeof DAILY_COLLECTIONS)[number];
export type Collection = DailyCollection | "sleep";
export const COLLECTIONS: readonly Collection[] = [...DAILY_COLLECTIONS, "sleep"];

export type RingDocument = Record<string, unknown> & { day: string; id?: string };
export type GenerateOptions = {
  seed: string;
  userKey: string;
  tzOffsetMinutes?: number;
  /**
   * Who decides whether the ring was worn on a day: the generator ("generated", ~2 % single days
   * and occasional 2-4 day gaps) or the test ("always": worn every day but `notWornDays`).
   */
  wear?: "generated" | "always";
  /** Day indexes (dayToIndex) on which the ring was not worn at all, whatever `wear` says. */
  notWornDays?: ReadonlySet<number>;
};
export type PersonalInfo = {
  id: string;
  age: number | null;
  weight: number | null;
  height: number | null;
  biological_sex: string | null;
  email: string | null;
};

// ---------------------------------------------------------------------------------------
// Calendar arithmetic (UTC-based, no local time zone involved)

const DAY_MS = 86_400_000;
const DAY_S = 86_400;
const HOUR = 3600;
const MIN = 60;
const ACTIVITY_START_S = 4 * HOUR;
const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Days since 1970-01-01 of a YYYY-MM-DD string; throws RangeError if not a real date. */
export function dayToIndex(day: string): number {
  const m = DAY_RE.exec(day);
  if (!m) throw new RangeError(`invalid day: ${day}`);
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) {
    throw new RangeError(`invalid day: ${day}`);
  }
  return Math.round(date.getTime() / DAY_MS);
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** YYYY-MM-DD of a day index (days since 1970-01-01). */
export function indexToDay(index: number): string {
  const date = new Date(index * DAY_MS);
  return `${String(date.getUTCFullYear()).padStart(4, "0")}-${pad2(date.getUTCMonth() + 1)}-${pad2(date.getUTCDate())}`;
}

/** Pure YYYY-MM-DD arithmetic. */
export function addDays(day: string, n: number): string {
  if (!Number.isInteger(n)) throw new RangeError(`not an integer day count: ${n}`);
  return indexToDay(dayToIndex(day) + n);
}

/** 0 = Sunday .. 6 = Saturday. */
function dayOfWeek(index: number): number {
  return (((index + 4) % 7) + 7) % 7;
}

/** "+01:00" style offset. */
export function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? "-" : "+";
  const a = Math.abs(minutes);
  return `${sign}${pad2(Math.floor(a / 60))}:${pad2(a % 60)}`;
}

/** Local date-time of `seconds` after local midnight of day `index` (may be negative or > 1 day). */
function localDateTime(index: number, seconds: number, offset: string, millis = false): string {
  const s = Math.round(seconds);
  const shift = Math.floor(s / DAY_S);
  const t = s - shift * DAY_S;
  const hh = Math.floor(t / HOUR);
  const mm = Math.floor((t % HOUR) / MIN);
  const ss = t % MIN;
  return `${indexToDay(index + shift)}T${pad2(hh)}:${pad2(mm)}:${pad2(ss)}${millis ? ".000" : ""}${offset}`;
}

// ---------------------------------------------------------------------------------------
// Small numeric helpers

const clamp = (x: number, lo: number, hi: number) => (x < lo ? lo : x > hi ? hi : x);
const round1 = (x: number) => Math.round(x * 10) / 10;
const round2 = (x: number) => Math.round(x * 100) / 100;
const round3 = (x: number) => Math.round(x * 1000) / 1000;
/** Integer score in [1, 100]. */
const score = (x: number) => Math.round(clamp(x, 1, 100));

type Weighted = [value: number | null, weight: number];
function weightedScore(parts: Weighted[]): number | null {
  let sum = 0;
  let w = 0;
  for (const [v, weight] of parts) {
    if (v === null) continue;
    sum += v * weight;
    w += weight;
  }
  return w === 0 ? null : score(sum / w);
}

// ---------------------------------------------------------------------------------------
// User profile

type Profile = {
  sex: "male" | "female";
  age: number;
  weightKg: number;
  heightM: number;
  bmr: number;
  fitness: number;
  rhr: number;
  hrv: number;
  breath: number;
  bedtime: number; // weekday bedtime, seconds relative to the wake day's midnight (negative = evening)
  wake: number; // weekday wake time, seconds after midnight
  weekendShift: number; // seconds later on Friday and Saturday nights
  sleepNeed: number; // seconds of sleep
  steps: number;
  dowSteps: number[]; // Sunday..Saturday factor
  workoutDays: boolean[]; // Sunday..Saturday
  workoutStart: number; // seconds after midnight
  targetCalories: number;
  deepBias: number;
  remBias: number;
  vascularOffset: number;
  pwvOffset: number;
  bdiBase: number;
  spo2Base: number;
  cyclePhase: number;
  stressBase: number;
  napRate: number;
};

function makeProfile(prefix: string): Profile {
  const r = rngFor(prefix, "profile");
  const sex = r.chance(0.5) ? "female" : "male";
  const age = r.int(25, 60);
  const heightM = round2(sex === "female" ? 1.55 + 0.2 * r.next() : 1.68 + 0.22 * r.next());
  const bmi = 20 + 8 * r.next();
  const weightKg = round1(bmi * heightM * heightM);
  const bmr = 10 * weightKg + 625 * heightM - 5 * age + (sex === "male" ? 5 : -161);
  const fitness = clamp(r.normal(), -2, 2);
  const rhr = Math.round(clamp(57 - 4 * fitness + (age - 40) * 0.1 + 2 * r.normal(), 42, 72));
  const hrv = clamp(58 * Math.exp(0.2 * fitness + 0.15 * r.normal()) * (1 - (age - 25) * 0.012), 18, 130);
  const breath = 13.5 + 3 * r.next();
  const bedtime = clamp(-1.4 * HOUR + 30 * MIN * r.normal(), -2 * HOUR, 0);
  const wake = clamp(6.75 * HOUR + 25 * MIN * r.normal(), 6 * HOUR, 7.75 * HOUR);
  const weekendShift = 40 * MIN + 40 * MIN * r.next();
  const sleepNeed = 6.75 * HOUR + HOUR * r.next();
  const steps = 6500 + 5500 * r.next();
  const dowBase = [1.0, 0.95, 0.95, 0.97, 0.95, 1.02, 1.2];
  const dowSteps = dowBase.map((f) => f * (1 + 0.08 * r.normal()));
  const workoutDays = dowBase.map(() => r.chance(0.4));
  const workoutStart = r.chance(0.5) ? 7 * HOUR + HOUR * r.next() : 17.5 * HOUR + 1.5 * HOUR * r.next();
  const typicalActive = (136 + 0.061 * steps) * (weightKg / 75);
  const targetCalories = Math.max(200, Math.round((0.85 * typicalActive * (0.9 + 0.2 * r.next())) / 50) * 50);
  const deepBias = 0.15 * r.normal() - (age - 40) * 0.006;
  const remBias = 0.15 * r.normal();
  const vascularOffset = -3 - 3 * fitness + 3 * r.normal();
  const pwvOffset = 0.3 * r.normal();
  const bdiBase = 2 + 8 * r.next();
  const spo2Base = 96.5 + 1.5 * r.next();
  const cyclePhase = 28 * r.next();
  const stressBase = 0.35 + 0.25 * r.next();
  const napRate = 0.04 + 0.08 * r.next();
  return {
    sex,
    age,
    weightKg,
    heightM,
    bmr,
    fitness,
    rhr,
    hrv,
    breath,
    bedtime,
    wake,
    weekendShift,
    sleepNeed,
    steps,
    dowSteps,
    workoutDays,
    workoutStart,
    targetCalories,
    deepBias,
    remBias,
    vascularOffset,
    pwvOffset,
    bdiBase,
    spo2Base,
    cyclePhase,
    stressBase,
    napRate,
  };
}

// ---------------------------------------------------------------------------------------
// Per-day base draws (depend on the day alone)

type DayBase = {
  idx: number;
  dow: number;
  worn: boolean; // the night ending on this day and the day itself
  partialWear: boolean; // not worn, but worn for a few daytime hours (activity document exists)
  partialStart: number; // seconds after midnight
  partialLen: number; // seconds
  bedStart: number; // seconds relative to local midnight (negative = evening before)
  tib: number; // seconds in bed, multiple of 30
  latency: number; // target sleep latency, seconds
  sleepQ: number; // sleep quality, ~N(0,1), higher is better
  stress: number; // daytime stress load in [0, 1]
  steps: number; // step goal the day's activity is built to reach
  workout: 0 | 1 | 2; // none, moderate, hard
  workoutShift: number; // ~N(0,1)
  charging: boolean; // worn day with a non-wear stretch
  chargeStart: number; // fraction of the awake window
  chargeLen: number; // blocks of 5 minutes
  feverLen: number; // > 0: a fever starts this day and lasts this many days
  feverPeak: number; // °C
  tempNoise: number;
  hrvNoise: number;
  rhrNoise: number;
  nap: boolean;
  napStart: number; // seconds after midnight
  napLen: number; // seconds, multiple of 30
  rest: boolean;
  restStart: number;
  restLen: number;
  lowBattery: boolean;
};

/** Documents of one day, before they are assembled per collection. */
type DayDocs = Record<Collection, RingDocument[]>;

function emptyDocs(): DayDocs {
  return {
    daily_activity: [],
    daily_cardiovascular_age: [],
    daily_readiness: [],
    daily_resilience: [],
    daily_sleep: [],
    daily_spo2: [],
    daily_stress: [],
    sleep: [],
  };
}

type Night = {
  phases: string;
  deep: number;
  light: number;
  rem: number;
  awake: number;
  total: number;
  efficiency: number;
  latency: number;
  movement: string;
  restless: number;
  hrItems: (number | null)[];
  hrvItems: (number | null)[];
  averageHr: number;
  lowestHr: number;
  averageHrv: number | null;
};

type Readiness = {
  contributors: Record<string, number | null>;
  score: number | null;
  temperature_deviation: number | null;
  temperature_trend_deviation: number | null;
};

// Mean steps of a 5-minute block per activity class (0 non-wear .. 5 high).
const BLOCK_STEPS = [0, 0, 8, 80, 480, 700];
// Minute MET range per activity class: [MET_LOW, MET_LOW + MET_WIDTH).
const MET_LOW = [0, 0.9, 1.0, 1.5, 3.0, 6.0];
const MET_WIDTH = [0, 0.1, 0.3, 1.0, 2.8, 4.0];
const CHAR_0 = 48; // "0"

/** ASCII string from a byte array of character codes (much cheaper than `+=` per char). */
function asciiString(codes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < codes.length; i += 4096) {
    out += String.fromCharCode.apply(null, codes.subarray(i, i + 4096) as unknown as number[]);
  }
  return out;
}

class Model {
  readonly prefix: string;
  readonly profile: Profile;
  readonly offset: string;
  private readonly bases = new Map<number, DayBase>();
  private readonly smoothCache = new Map<string, number>();

  constructor(opts: GenerateOptions) {
    if (typeof opts.seed !== "string" || typeof opts.userKey !== "string") {
      throw new TypeError("seed and userKey must be strings");
    }
    const tz = opts.tzOffsetMinutes ?? 0;
    if (!Number.isInteger(tz) || tz < -720 || tz > 840) {
      throw new RangeError(`tzOffsetMinutes out of range: ${tz}`);
    }
    this.prefix = keyOf([opts.seed, opts.userKey]);
    this.profile = makeProfile(this.prefix);
    this.offset = formatOffset(tz);
    this.wear = opts.wear ?? "generated";
    this.notWornDays = opts.notWornDays ?? new Set();
  }

  private readonly wear: "generated" | "always";
  private readonly notWornDays: ReadonlySet<number>;

  /** Smooth value noise (~N(0, 0.7)) over the day index with knots every `period` days. */
  smooth(name: string, idx: number, period: number): number {
    const x = idx / period;
    const k = Math.floor(x);
    const f = x - k;
    const s = f * f * (3 - 2 * f);
    return this.knot(name, k) * (1 - s) + this.knot(name, k + 1) * s;
  }

  private knot(name: string, k: number): number {
    const key = `${name}:${k}`;
    let v = this.smoothCache.get(key);
    if (v === undefined) {
      v = hashNormal(this.prefix, "smooth", name, k);
      this.smoothCache.set(key, v);
    }
    return v;
  }

  base(idx: number): DayBase {
    let b = this.bases.get(idx);
    if (!b) {
      b = this.makeBase(idx);
      this.bases.set(idx, b);
    }
    return b;
  }

  private makeBase(idx: number): DayBase {
    const p = this.profile;
    const r = rngFor(this.prefix, "day", idx);
    const dow = dayOfWeek(idx);
    const weekendNight = dow === 6 || dow === 0; // wake on Saturday/Sunday
    const weekday = dow >= 1 && dow <= 5;
    // Draw everything in a fixed order so that branches never shift later draws.
    const uWorn = r.next();
    const uPartial = r.next();
    const uPartialStart = r.next();
    const uPartialLen = r.next();
    const nBed = r.normal();
    const nWake = r.normal();
    const nQ = r.normal();
    const nStress = r.normal();
    const nSteps = r.normal();
    const uWorkout = r.next();
    const uWorkoutKind = r.next();
    const nWorkoutShift = r.normal();
    const uFever = r.next();
    const uFeverLen = r.next();
    const uFeverPeak = r.next();
    const nTemp = r.normal();
    const nHrv = r.normal();
    const nRhr = r.normal();
    const uNap = r.next();
    const uNapStart = r.next();
    const uNapLen = r.next();
    const uRest = r.next();
    const uRestStart = r.next();
    const uRestLen = r.next();
    const uBattery = r.next();
    const nLatency = r.normal();
    const uCharge = r.next();
    const uChargeStart = r.next();
    const uChargeLen = r.next();

    // Not worn: ~2% single days plus occasional 2-4 day gaps (charger left at home, travel).
    const block = Math.floor(idx / 30);
    const gapRng = rngFor(this.prefix, "gap", block);
    const hasGap = gapRng.chance(0.12);
    const gapStart = block * 30 + gapRng.int(0, 26);
    const gapLen = gapRng.int(2, 4);
    const inGap = hasGap && idx >= gapStart && idx < gapStart + gapLen;
    const generatedWorn = !inGap && uWorn >= 0.02;
    const worn = this.notWornDays.has(idx) ? false : this.wear === "always" ? true : generatedWorn;

    const stress = clamp(
      p.stressBase + 0.12 * this.smooth("stress", idx, 21) + (weekday ? 0.06 : -0.1) + 0.12 * nStress,
      0,
      1,
    );
    const sleepQ = 0.8 * nQ + 0.45 * this.smooth("sleepq", idx, 14) - 1.5 * (stress - p.stressBase);
    const bedStart = Math.round(
      clamp(
        p.bedtime + (weekendNight ? p.weekendShift : 0) + 12 * MIN * this.smooth("bed", idx, 20) + 22 * MIN * nBed,
        -2.5 * HOUR,
        1.5 * HOUR,
      ),
    );
    const wake = clamp(
      p.wake + (weekendNight ? 1.2 * p.weekendShift : 0) + 18 * MIN * nWake + 10 * MIN * this.smooth("wake", idx, 25),
      5.25 * HOUR,
      9.75 * HOUR,
    );
    const tib = Math.max(3.5 * HOUR, Math.round((wake - bedStart) / 30) * 30);
    const latency = clamp(780 - 220 * sleepQ + 260 * nLatency, 90, 2700);
    const steps = p.steps * (p.dowSteps[dow] ?? 1) * Math.exp(0.18 * this.smooth("steps", idx, 45) + 0.22 * nSteps);
    const workout: 0 | 1 | 2 = p.workoutDays[dow]
      ? uWorkout < 0.8
        ? uWorkoutKind < 0.45
          ? 2
          : 1
        : 0
      : uWorkout < 0.08
        ? 1
        : 0;
    const feverLen = uFever < 1 / 220 ? 2 + Math.floor(uFeverLen * 3) : 0;
    return {
      idx,
      dow,
      worn,
      partialWear: !worn && !this.notWornDays.has(idx) && uPartial < 0.6,
      partialStart: 9 * HOUR + uPartialStart * 7 * HOUR,
      partialLen: (1.5 + 4 * uPartialLen) * HOUR,
      bedStart,
      tib,
      latency,
      sleepQ,
      stress,
      steps,
      workout,
      workoutShift: nWorkoutShift,
      charging: uCharge < 0.3,
      chargeStart: uChargeStart,
      chargeLen: 3 + Math.floor(uChargeLen * 10),
      feverLen,
      feverPeak: 0.7 + 0.9 * uFeverPeak,
      tempNoise: nTemp,
      hrvNoise: nHrv,
      rhrNoise: nRhr,
      nap: uNap < p.napRate * (weekendNight ? 1.5 : 0.8),
      napStart: Math.round(13 * HOUR + uNapStart * 4 * HOUR),
      napLen: Math.round((20 + 70 * uNapLen) * 2) * 30,
      rest: uRest < 0.02,
      restStart: Math.round(11.5 * HOUR + uRestStart * 6 * HOUR),
      restLen: Math.round((15 + 25 * uRestLen) * 2) * 30,
      lowBattery: uBattery < 0.01,
    };
  }

  /** The same day "edited later": same structure, some values moved. */
  revise(b: DayBase, revision: number): DayBase {
    if (revision === 0) return b;
    const r = rngFor(this.prefix, "revision", b.idx, revision);
    const tibShift = 30 * r.int(1, 6) * (r.chance(0.5) ? 1 : -1);
    return {
      ...b,
      steps: b.steps * (1.03 + 0.12 * r.next()),
      sleepQ: b.sleepQ + 0.35 * r.normal(),
      stress: clamp(b.stress + 0.08 * r.normal(), 0, 1),
      hrvNoise: b.hrvNoise + 0.3 * r.normal(),
      rhrNoise: b.rhrNoise + 0.3 * r.normal(),
      tempNoise: b.tempNoise + 0.3 * r.normal(),
      latency: clamp(b.latency + 120 * r.normal(), 60, 2700),
      tib: Math.max(3.5 * HOUR, b.tib + tibShift),
      napLen: b.napLen + 30 * r.int(0, 4),
    };
  }

  // -- derived quantities (may look at neighbouring days' base draws) -------------------

  feverAt(idx: number): number {
    for (let k = 0; k < 4; k++) {
      const b = this.base(idx - k);
      if (b.feverLen > k) return b.feverPeak * (1 - k / (b.feverLen + 0.5));
    }
    return 0;
  }

  tempDev(idx: number, b: DayBase = this.base(idx)): number {
    const p = this.profile;
    const cycle =
      p.sex === "female" ? 0.17 * Math.sin((2 * Math.PI * (idx + p.cyclePhase)) / 28.5) : 0;
    return 0.06 * this.smooth("temp", idx, 9) + 0.09 * b.tempNoise + cycle + this.feverAt(idx);
  }

  fitnessAt(idx: number): number {
    return this.smooth("fitness", idx, 60);
  }

  /** Night HRV (ms) implied by the day's draws and the previous day's training. */
  hrvNight(idx: number, b: DayBase = this.base(idx)): number {
    const p = this.profile;
    const hardYesterday = this.base(idx - 1).workout === 2 ? 1 : 0;
    return (
      p.hrv *
      Math.exp(
        0.12 * b.hrvNoise +
          0.07 * b.sleepQ +
          0.08 * this.fitnessAt(idx) -
          0.35 * this.feverAt(idx) -
          0.08 * hardYesterday -
          0.15 * (b.stress - p.stressBase),
      )
    );
  }

  /** Night lowest heart rate implied by the day's draws. */
  rhrNight(idx: number, b: DayBase = this.base(idx)): number {
    const p = this.profile;
    const hardYesterday = this.base(idx - 1).workout === 2 ? 1 : 0;
    return (
      p.rhr + 1.3 * b.rhrNoise - 1.0 * b.sleepQ - 2 * this.fitnessAt(idx) + 5 * this.feverAt(idx) + 1.5 * hardYesterday
    );
  }

  approxSleep(b: DayBase): number | null {
    return b.worn ? b.tib * clamp(0.87 + 0.03 * b.sleepQ, 0.7, 0.97) - b.latency * 0.5 : null;
  }

  targetCalories(b: DayBase): number {
    return Math.round((this.profile.targetCalories * (1 + 0.06 * clamp(b.sleepQ, -2, 2))) / 50) * 50;
  }

  /** Rough active calories of a day from its base draws (matches buildActivity on average). */
  approxActive(b: DayBase): number | null {
    if (!b.worn) return null;
    const kgFactor = this.profile.weightKg / 75;
    // Fitted against buildActivity output (rmse ~50 kcal).
    return (136 + 0.061 * b.steps + [0, -45, 15][b.workout]!) * kgFactor;
  }

  // -- documents -----------------------------------------------------------------------

  id(collection: string, idx: number, slot = "0"): string {
    return uuidFor(this.prefix, "id", collection, idx, slot);
  }

  generateDay(idx: number, revision: number): DayDocs {
    const out = emptyDocs();
    const day = indexToDay(idx);
    const b = this.revise(this.base(idx), revision);
    const next = this.base(idx + 1);
    const rng = (purpose: string) => rngFor(this.prefix, purpose, idx);

    let readiness: Readiness | null = null;
    let sleepScore: number | null = null;
    const periods: RingDocument[] = [];

    if (b.worn) {
      const night = this.buildNight(rng("night"), b, "long", this.rhrNight(idx, b), this.hrvNight(idx, b), b.tib, b.latency);
      const sleep = this.sleepContributors(night, b);
      sleepScore = sleep.score;
      readiness = this.readiness(idx, b, night, sleep.score, rng("readiness"));

      out.daily_sleep.push({
        id: this.id("daily_sleep", idx),
        contributors: sleep.contributors,
        day,
        score: sleep.score,
        timestamp: `${day}T00:00:00${this.offset}`,
      });
      out.daily_readiness.push({
        id: this.id("daily_readiness", idx),
        contributors: readiness.contributors,
        day,
        score: readiness.score,
        temperature_deviation: readiness.temperature_deviation,
        temperature_trend_deviation: readiness.temperature_trend_deviation,
        timestamp: `${day}T00:00:00${this.offset}`,
      });

      const meta = rng("sleepmeta");
      periods.push(
        this.periodDoc(idx, "long_sleep", b.bedStart, b.tib, night, b, {
          readiness,
          readinessDelta: meta.chance(0.45) ? null : 0,
          sleepDelta: meta.chance(0.45) ? null : 0,
          lowBattery: b.lowBattery,
          dropHr: meta.chance(0.01),
          dropHrv: meta.chance(0.03),
        }),
      );

      if (b.nap) {
        const r = rng("nap");
        const nap = this.buildNight(r, b, "nap", this.rhrNight(idx, b) + 6, this.hrvNight(idx, b) * 0.85, b.napLen, 60 + r.int(1, 10) * 30);
        periods.push(
          this.periodDoc(idx, "sleep", b.napStart, b.napLen, nap, b, {
            readiness: null,
            readinessDelta: r.chance(0.2) ? null : r.int(0, 3),
            sleepDelta: r.chance(0.2) ? null : r.int(0, 5),
            lowBattery: false,
            dropHr: r.chance(0.15),
            dropHrv: r.chance(0.3),
          }),
        );
      }
      if (b.rest) {
        const r = rng("rest");
        let start = b.restStart;
        if (b.nap && start < b.napStart + b.napLen + HOUR && start + b.restLen > b.napStart - HOUR) {
          start = b.napStart + b.napLen + 2 * HOUR;
        }
        const rest = this.buildNight(r, b, "nap", this.rhrNight(idx, b) + 10, this.hrvNight(idx, b) * 0.7, b.restLen, 300 + r.int(0, 10) * 30);
        periods.push(
          this.periodDoc(idx, "rest", start, b.restLen, rest, b, {
            readiness: null,
            readinessDelta: null,
            sleepDelta: null,
            lowBattery: false,
            dropHr: true,
            dropHrv: true,
          }),
        );
      }
      periods.sort((x, y) => String(x.bedtime_start).localeCompare(String(y.bedtime_start)));
      periods.forEach((doc, i) => {
        doc.period = i;
      });
      out.sleep.push(...periods);
    }

    if (b.worn || b.partialWear) {
      out.daily_activity.push(this.activityDoc(idx, day, b, next, rng("activity")));
    }

    // Stress: worn days get a full document; some unworn days an empty one (as observed).
    const sr = rng("stress");
    if (b.worn) {
      const fever = this.feverAt(idx);
      const stressHigh =
        Math.round(clamp(HOUR * (4 * (b.stress - 0.2) + 0.6 * sr.normal() + 1.5 * fever), 0, 10 * HOUR) / 900) * 900;
      const recoveryHigh =
        Math.round(
          clamp(HOUR * (2.2 + 0.5 * b.sleepQ - 3 * (b.stress - 0.45) + 0.6 * sr.normal() - 1.5 * fever), 0, 8 * HOUR) /
            900,
        ) * 900;
      let summary: string | null = "normal";
      if (stressHigh >= 2 * recoveryHigh && stressHigh >= 2 * HOUR) summary = "stressful";
      else if (recoveryHigh >= 2.5 * stressHigh && recoveryHigh >= 1.5 * HOUR) summary = "restored";
      if (sr.chance(0.005)) summary = null;
      out.daily_stress.push({
        id: this.id("daily_stress", idx),
        day,
        day_summary: summary,
        recovery_high: recoveryHigh,
        stress_high: stressHigh,
      });
    } else if (sr.chance(0.5)) {
      out.daily_stress.push({ id: this.id("daily_stress", idx), day, day_summary: null, recovery_high: 0, stress_high: 0 });
    }

    if (b.worn) {
      out.daily_resilience.push(this.resilienceDoc(idx, day, b, sleepScore, rng("resilience")));

      const o = rng("spo2");
      const fever = this.feverAt(idx);
      const spo2 = clamp(this.profile.spo2Base + 0.4 * this.smooth("spo2", idx, 30) + 0.35 * o.normal() - 1.2 * fever, 90, 100);
      const bdi = Math.round(clamp(this.profile.bdiBase + 3.5 * o.normal() + 4 * fever, 0, 100));
      out.daily_spo2.push({
        id: this.id("daily_spo2", idx),
        breathing_disturbance_index: o.chance(0.004) ? null : bdi,
        day,
        spo2_percentage: o.chance(0.005) ? null : { average: round3(spo2) },
      });

      const c = rng("cardio");
      const p = this.profile;
      const vascular = Math.round(
        clamp(p.age + p.vascularOffset + 1.5 * this.smooth("vascular", idx, 60) - 0.8 * this.fitnessAt(idx) + 0.6 * c.normal(), 18, 100),
      );
      const pwv = round3(clamp(4.6 + 0.085 * (vascular - 20) + p.pwvOffset + 0.12 * c.normal(), 3, 20));
      out.daily_cardiovascular_age.push({
        id: this.id("daily_cardiovascular_age", idx),
        day,
        pulse_wave_velocity: c.chance(0.3) ? null : pwv,
        vascular_age: c.chance(0.005) ? null : vascular,
      });
    }
    return out;
  }

  /** Builds a sleep period's hypnogram, movement and samples. */
  private buildNight(
    r: Rng,
    b: DayBase,
    kind: "long" | "nap",
    lowest: number,
    hrv: number,
    tib: number,
    latencyS: number,
  ): Night {
    const p = this.profile;
    const q = b.sleepQ;
    const n5 = Math.ceil(tib / 300);
    const ph = new Uint8Array(n5).fill(2);
    const latE = clamp(Math.round(latencyS / 300), 0, n5 - 1);
    for (let i = 0; i < latE; i++) ph[i] = 4;
    if (kind === "long") {
      let pos = latE;
      for (let k = 0; pos < n5; k++) {
        const len = Math.max(12, Math.round(18 + 2 * r.normal()));
        const deepBase = k === 0 ? 6 : k === 1 ? 4.5 : k === 2 ? 2 : 0.6;
        const remBase = k === 0 ? 2 : k === 1 ? 3.5 : k === 2 ? 4.5 : 5.5;
        let deep = Math.max(0, Math.round(deepBase * (1 + p.deepBias + 0.15 * q) + 0.8 * r.normal()));
        let rem = Math.max(0, Math.round(remBase * (1 + p.remBias + 0.1 * q) + 0.8 * r.normal()));
        if (deep + rem > len - 2) {
          deep = Math.min(deep, len - 2);
          rem = Math.max(0, len - 2 - deep);
        }
        for (let i = 0; i < deep; i++) if (pos + 2 + i < n5) ph[pos + 2 + i] = 1;
        for (let i = 0; i < rem; i++) if (pos + len - rem + i < n5) ph[pos + len - rem + i] = 3;
        pos += len;
      }
      const pWake = clamp(0.03 - 0.012 * q, 0.005, 0.08);
      for (let i = latE; i < n5; i++) {
        if (r.next() < pWake) {
          ph[i] = 4;
          if (i + 1 < n5 && r.chance(0.3)) ph[i + 1] = 4;
        }
      }
      const tail = r.int(0, 2);
      for (let i = Math.max(latE, n5 - tail); i < n5; i++) ph[i] = 4;
    } else {
      const deepStart = latE + 2 + r.int(0, 3);
      const deepLen = n5 > 8 ? r.int(0, 3) : 0;
      for (let i = deepStart; i < Math.min(n5 - 1, deepStart + deepLen); i++) ph[i] = 1;
      if (r.chance(0.4)) ph[n5 - 1] = 4;
    }

    const dur = [0, 0, 0, 0, 0];
    const phaseCodes = new Uint8Array(n5);
    for (let i = 0; i < n5; i++) {
      const v = ph[i]!;
      dur[v]! += i < n5 - 1 ? 300 : tib - 300 * (n5 - 1);
      phaseCodes[i] = CHAR_0 + v;
    }
    const phases = asciiString(phaseCodes);
    const deep = dur[1]!;
    const light = dur[2]!;
    const rem = dur[3]!;
    const total = deep + light + rem;
    const awake = tib - total;

    // 30-second movement: 1 still, 2 restless, 3 tossing and turning, 4 active.
    const n30 = Math.round(tib / 30);
    const restlessBoost = clamp(1 - 0.25 * q, 0.5, 1.8);
    const moveCodes = new Uint8Array(n30);
    let restless = 0;
    let prevMoving = false;
    for (let j = 0; j < n30; j++) {
      const phase = ph[Math.min(n5 - 1, Math.floor(j / 10))]!;
      const u = r.next();
      let m = 1;
      if (phase === 4) m = u < 0.35 ? 1 : u < 0.65 ? 2 : u < 0.85 ? 3 : 4;
      else if (phase === 2) m = u < 1 - 0.12 * restlessBoost ? 1 : u < 1 - 0.03 * restlessBoost ? 2 : u < 1 - 0.008 ? 3 : 4;
      else if (phase === 3) m = u < 1 - 0.07 * restlessBoost ? 1 : u < 1 - 0.01 ? 2 : 3;
      else if (phase === 1) m = u < 1 - 0.02 * restlessBoost ? 1 : 2;
      moveCodes[j] = CHAR_0 + m;
      const moving = m >= 2;
      if (moving && !prevMoving) restless++;
      prevMoving = moving;
    }

    const movement = asciiString(moveCodes);

    // Heart rate and HRV every 5 minutes.
    const nHr = Math.floor(tib / 300);
    const hrItems: (number | null)[] = [];
    const hrvItems: (number | null)[] = [];
    let hrSum = 0;
    let hrN = 0;
    let hrMin = Infinity;
    let hrvSum = 0;
    let hrvN = 0;
    for (let i = 0; i < nHr; i++) {
      const t = nHr > 1 ? i / (nHr - 1) : 0;
      const phase = ph[i]!;
      const shape =
        kind === "long" ? (t < 0.6 ? 7 * (1 - t / 0.6) ** 2 : 4 * ((t - 0.6) / 0.4) ** 1.5) : 3 * (1 - t);
      const phaseHr = phase === 4 ? 6 : phase === 3 ? 2 : phase === 1 ? -1 : 0;
      const hr = Math.round(lowest + 1 + shape + phaseHr + 1.1 * r.normal());
      const hrMissing = r.next() < (i === 0 ? 0.15 : 0.02);
      const hrvMissing = r.next() < 0.04;
      const phaseHrv = phase === 4 ? 0.75 : phase === 1 ? 1.12 : 1;
      const hv = Math.round(hrv * (0.85 + 0.3 * Math.sin(Math.PI * t)) * phaseHrv * Math.exp(0.15 * r.normal()));
      if (hrMissing) hrItems.push(null);
      else {
        hrItems.push(hr);
        hrSum += hr;
        hrN++;
        if (hr < hrMin) hrMin = hr;
      }
      if (hrvMissing) hrvItems.push(null);
      else {
        hrvItems.push(hv);
        hrvSum += hv;
        hrvN++;
      }
    }
    const averageHr = hrN > 0 ? round3(hrSum / hrN + 0.3 * r.normal()) : round3(lowest + 4);
    const lowestHr = Number.isFinite(hrMin) ? hrMin - (r.chance(0.5) ? 1 : 0) : Math.round(lowest);

    return {
      phases,
      deep,
      light,
      rem,
      awake,
      total,
      efficiency: Math.round(clamp((100 * total) / tib, 1, 100)),
      latency: Math.max(30, Math.round((latE * 300 - r.int(0, 8) * 30) / 30) * 30),
      movement,
      restless,
      hrItems,
      hrvItems,
      averageHr,
      lowestHr,
      averageHrv: hrvN > 0 ? Math.round(hrvSum / hrvN) : null,
    };
  }

  private sleepContributors(night: Night, b: DayBase) {
    const hours = night.total / HOUR;
    const totalSleep = score(hours >= 8 ? 100 - Math.max(0, hours - 9.5) * 8 : 100 - (8 - hours) * 18);
    const efficiency = score(night.efficiency >= 92 ? 100 : 100 - (92 - night.efficiency) * 3.5);
    const latMin = night.latency / MIN;
    const latency = score(latMin < 10 ? 78 + 2.2 * latMin : latMin <= 20 ? 100 : 100 - (latMin - 20) * 2.5);
    const deepMin = night.deep / MIN;
    const deepSleep = score(deepMin >= 90 ? 100 : 100 * (deepMin / 90) ** 0.8);
    const remMin = night.rem / MIN;
    const remSleep = score(remMin >= 100 ? 100 : 100 * (remMin / 100) ** 0.8);
    let moving = 0;
    for (let i = 0; i < night.movement.length; i++) if (night.movement.charCodeAt(i) > 49) moving++;
    const restlessFrac = night.movement.length > 0 ? moving / night.movement.length : 0;
    const restfulness = score(100 - Math.max(0, restlessFrac - 0.06) * 300);
    const mid = b.bedStart + b.tib / 2;
    const timing = score(100 - Math.max(0, Math.abs(mid - 2.9 * HOUR) - 0.9 * HOUR) / 120);
    const contributors = {
      deep_sleep: deepSleep,
      efficiency,
      latency,
      rem_sleep: remSleep,
      restfulness,
      timing,
      total_sleep: totalSleep,
    };
    const s = weightedScore([
      [totalSleep, 0.35],
      [efficiency, 0.1],
      [restfulness, 0.15],
      [remSleep, 0.1],
      [deepSleep, 0.1],
      [latency, 0.1],
      [timing, 0.1],
    ]);
    return { contributors, score: s };
  }

  private readiness(idx: number, b: DayBase, night: Night, sleepScore: number | null, r: Rng): Readiness {
    const p = this.profile;
    const nPrev = r.normal();
    const nRecovery = r.normal();
    const hrvNull = r.chance(0.22);
    const regularityNull = r.chance(0.06);
    const tempNull = r.chance(0.014);
    const trendNull = r.chance(0.04);

    const previousNight = sleepScore === null ? null : score(1.3 * sleepScore - 22 + 3 * nPrev);

    // Sleep balance: last 14 nights against the user's need.
    let sleepSum = night.total;
    let sleepN = 1;
    const bedTimes: number[] = [b.bedStart];
    for (let k = 1; k < 14; k++) {
      const bb = this.base(idx - k);
      const s = this.approxSleep(bb);
      if (s !== null) {
        sleepSum += s;
        sleepN++;
        bedTimes.push(bb.bedStart);
      }
    }
    const ratio = sleepSum / sleepN / p.sleepNeed;
    const sleepBalance = sleepN >= 4 ? score(100 - Math.max(0, 1 - ratio) * 200 - Math.max(0, ratio - 1.25) * 60) : null;

    // Activity: yesterday and the last 14 days, against targets.
    const prev = this.base(idx - 1);
    const prevActive = this.approxActive(prev);
    const activityCurve = (x: number) => (x <= 1 ? 45 + 45 * x : x <= 1.4 ? 90 + (x - 1) * 20 : 98 - (x - 1.4) * 50);
    const previousDayActivity = prevActive === null ? null : score(activityCurve(prevActive / this.targetCalories(prev)));
    let actSum = 0;
    let actN = 0;
    for (let k = 1; k <= 14; k++) {
      const bb = this.base(idx - k);
      const a = this.approxActive(bb);
      if (a !== null) {
        actSum += a / this.targetCalories(bb);
        actN++;
      }
    }
    const actRatio = actN > 0 ? actSum / actN : 1;
    const activityBalance = actN >= 4 ? score(actRatio <= 1.2 ? 35 + 50 * actRatio : 95 - (actRatio - 1.2) * 30) : null;

    const temp = this.tempDev(idx, b);
    const t = Math.abs(temp);
    const bodyTemperature = score(t <= 0.25 ? 100 - t * 10 : 97 - (t - 0.25) * 110);

    // HRV balance: recent average against the long-term baseline.
    let hrvSum = night.averageHrv ?? this.hrvNight(idx, b);
    let hrvN = 1;
    for (let k = 1; k < 14; k++) {
      if (!this.base(idx - k).worn) continue;
      hrvSum += this.hrvNight(idx - k);
      hrvN++;
    }
    const hrvBaseline = p.hrv * Math.exp(0.08 * this.fitnessAt(idx - 30));
    const hrvBalance = hrvNull ? null : score(88 + 120 * Math.log(hrvSum / hrvN / hrvBaseline));

    const rhrDelta = night.lowestHr - (p.rhr - 2 * this.fitnessAt(idx));
    const restingHeartRate = score(96 - Math.max(0, rhrDelta) * 7 + Math.min(0, rhrDelta) * 0.5);

    const recoveryIndex = score(76 + 12 * b.sleepQ + 7 * nRecovery - (this.feverAt(idx) > 0 ? 25 : 0));

    let sleepRegularity: number | null = null;
    if (!regularityNull && bedTimes.length >= 5) {
      const mean = bedTimes.reduce((a, x) => a + x, 0) / bedTimes.length;
      const sd = Math.sqrt(bedTimes.reduce((a, x) => a + (x - mean) ** 2, 0) / bedTimes.length) / MIN;
      sleepRegularity = score(100 - Math.max(0, sd - 15) * 1.5);
    }

    const contributors = {
      activity_balance: activityBalance,
      body_temperature: bodyTemperature,
      hrv_balance: hrvBalance,
      previous_day_activity: previousDayActivity,
      previous_night: previousNight,
      recovery_index: recoveryIndex,
      resting_heart_rate: restingHeartRate,
      sleep_balance: sleepBalance,
      sleep_regularity: sleepRegularity,
    };
    const mean = weightedScore([
      [previousNight, 0.25],
      [sleepBalance, 0.15],
      [previousDayActivity, 0.08],
      [activityBalance, 0.08],
      [bodyTemperature, 0.12],
      [hrvBalance, 0.1],
      [restingHeartRate, 0.1],
      [recoveryIndex, 0.1],
      [sleepRegularity, 0.05],
    ]);
    // The real score spreads wider than a plain weighted mean of its contributors.
    const s = mean === null ? null : score(mean + (mean - 85) * 0.8 - 3);

    // Trend: last three days against the week before.
    const recent = 0.5 * temp + 0.3 * this.tempDev(idx - 1) + 0.2 * this.tempDev(idx - 2);
    let before = 0;
    for (let k = 3; k <= 9; k++) before += this.tempDev(idx - k);
    const trend = recent - before / 7;

    return {
      contributors,
      score: s,
      temperature_deviation: tempNull ? null : round2(temp),
      temperature_trend_deviation: trendNull ? null : round2(trend),
    };
  }

  private periodDoc(
    idx: number,
    type: "long_sleep" | "sleep" | "rest",
    start: number,
    tib: number,
    night: Night,
    b: DayBase,
    extra: {
      readiness: Readiness | null;
      readinessDelta: number | null;
      sleepDelta: number | null;
      lowBattery: boolean;
      dropHr: boolean;
      dropHrv: boolean;
    },
  ): RingDocument {
    const day = indexToDay(idx);
    const startStr = localDateTime(idx, start, this.offset);
    const sampleTs = localDateTime(idx, start, this.offset, true);
    const fever = this.feverAt(idx);
    // Breaths per minute in steps of 1/8, as the real service reports them.
    const breath = Math.round((this.profile.breath - 0.3 * b.sleepQ + 1.2 * fever + (type === "long_sleep" ? 0 : 0.5)) * 8) / 8;
    return {
      id: this.id("sleep", idx, type),
      average_breath: breath,
      average_heart_rate: night.averageHr,
      average_hrv: extra.dropHrv ? null : night.averageHrv,
      awake_time: night.awake,
      bedtime_end: localDateTime(idx, start + tib, this.offset),
      bedtime_start: startStr,
      day,
      deep_sleep_duration: night.deep,
      efficiency: night.efficiency,
      heart_rate: extra.dropHr ? null : { interval: 300, items: night.hrItems, timestamp: sampleTs },
      hrv: extra.dropHrv ? null : { interval: 300, items: night.hrvItems, timestamp: sampleTs },
      latency: night.latency,
      light_sleep_duration: night.light,
      low_battery_alert: extra.lowBattery,
      lowest_heart_rate: night.lowestHr,
      movement_30_sec: night.movement,
      period: 0,
      readiness: extra.readiness
        ? {
            contributors: { ...extra.readiness.contributors },
            score: extra.readiness.score,
            temperature_deviation: extra.readiness.temperature_deviation,
            temperature_trend_deviation: extra.readiness.temperature_trend_deviation,
          }
        : null,
      readiness_score_delta: extra.readinessDelta,
      rem_sleep_duration: night.rem,
      restless_periods: night.restless,
      sleep_algorithm_version: "v2",
      sleep_phase_5_min: night.phases,
      sleep_score_delta: extra.sleepDelta,
      time_in_bed: tib,
      total_sleep_duration: night.total,
      type,
    };
  }

  private activityDoc(idx: number, day: string, b: DayBase, next: DayBase, r: Rng): RingDocument {
    const p = this.profile;
    const blocks = new Uint8Array(288);
    const toBlock = (sec: number) => clamp(Math.round((sec - ACTIVITY_START_S) / 300), 0, 288);
    const wakeBlock = toBlock(b.bedStart + b.tib);
    const bedBlock = Math.max(wakeBlock, toBlock(DAY_S + next.bedStart));
    let awakeFrom = wakeBlock;
    let awakeTo = bedBlock;
    for (let i = 0; i < wakeBlock; i++) blocks[i] = b.worn ? 1 : 0;
    for (let i = bedBlock; i < 288; i++) blocks[i] = b.worn && next.worn ? 1 : 0;
    if (b.worn) {
      for (let i = wakeBlock; i < bedBlock; i++) blocks[i] = 2;
    } else {
      awakeFrom = clamp(toBlock(b.partialStart), wakeBlock, bedBlock);
      awakeTo = clamp(toBlock(b.partialStart + b.partialLen), awakeFrom, bedBlock);
      for (let i = awakeFrom; i < awakeTo; i++) blocks[i] = 2;
    }
    const span = awakeTo - awakeFrom;

    // Workout bout.
    if (b.worn && b.workout > 0 && span > 24) {
      const start = toBlock(p.workoutStart + 20 * MIN * b.workoutShift);
      const len = b.workout === 2 ? 7 + Math.floor(r.next() * 8) : 6 + Math.floor(r.next() * 7);
      for (let i = 0; i < len; i++) {
        const j = start + i;
        if (j < awakeFrom || j >= awakeTo || blocks[j] !== 2) continue;
        blocks[j] = b.workout === 2 ? (i === 0 || i === len - 1 ? 4 : 5) : i % 4 === 3 ? 3 : 4;
      }
    }
    // Charging / off the finger for a while.
    if (b.worn && b.charging && span > 24) {
      const start = awakeFrom + Math.floor(b.chargeStart * (span - b.chargeLen));
      for (let i = start; i < start + b.chargeLen && i < awakeTo; i++) blocks[i] = 0;
    }
    // Walking bouts until the step goal is reached.
    const goal = b.worn ? b.steps : b.steps * clamp(span / 200, 0, 1);
    let est = 0;
    for (let i = 0; i < 288; i++) est += BLOCK_STEPS[blocks[i]!]!;
    for (let iter = 0; iter < 400 && est < goal && span > 0; iter++) {
      const start = awakeFrom + Math.floor(r.next() * span);
      const cls = r.next() < 0.88 ? 3 : 4;
      const len = 1 + Math.floor(r.next() * (cls === 3 ? 6 : 4));
      for (let i = start; i < start + len && i < awakeTo; i++) {
        if (blocks[i] !== 2) continue;
        blocks[i] = cls;
        est += BLOCK_STEPS[cls]! - BLOCK_STEPS[2]!;
      }
    }
    // Naps show as rest.
    if (b.worn && b.nap) {
      const from = toBlock(b.napStart);
      const to = toBlock(b.napStart + b.napLen);
      for (let i = from; i < to; i++) if (blocks[i] !== 0) blocks[i] = 1;
    }

    // Minute METs, steps, calories, class string.
    const kcalPerMet = (3.5 * p.weightKg) / 200;
    const met: number[] = [];
    const counts = [0, 0, 0, 0, 0, 0];
    const metSums = [0, 0, 0, 0, 0, 0];
    let steps = 0;
    let metTotal = 0;
    let activeKcal = 0;
    const classCodes = new Uint8Array(288);
    for (let i = 0; i < 288; i++) {
      const c = blocks[i]!;
      counts[c]!++;
      classCodes[i] = CHAR_0 + c;
      steps += Math.round(BLOCK_STEPS[c]! * (0.7 + 0.6 * r.next()));
      const lo = MET_LOW[c]!;
      const width = MET_WIDTH[c]!;
      for (let m = 0; m < 5; m++) {
        const v = width === 0 ? lo : Math.round((lo + width * r.next()) * 10) / 10;
        met.push(v);
        metSums[c]! += v;
        metTotal += v;
        if (c >= 2 && v > 1) activeKcal += (v - 1) * kcalPerMet;
      }
    }
    const activeCalories = Math.round(activeKcal);
    const totalCalories = Math.round(p.bmr * 1.1 + activeCalories);
    const targetCalories = this.targetCalories(b);
    const targetMeters = Math.round((targetCalories * 17.9) / 100) * 100;
    const walking = Math.round((activeCalories * 15.5) / 50) * 50;

    // Inactivity alerts: each stretch of 75+ minutes of uninterrupted inactivity while awake.
    let alerts = 0;
    let run = 0;
    for (let i = awakeFrom; i <= awakeTo; i++) {
      if (i < awakeTo && blocks[i] === 2) run++;
      else {
        if (run >= 15) alerts++;
        run = 0;
      }
    }

    // Contributors over the last 7 days (today measured, earlier days from their draws).
    let met7 = 0;
    let workouts7 = 0;
    let volume7 = 0;
    let target7 = 0;
    let easy7 = 0;
    for (let k = 0; k < 7; k++) {
      const bb = k === 0 ? b : this.base(idx - k);
      const target = k === 0 ? targetCalories : this.targetCalories(bb);
      const active = k === 0 ? (b.worn ? activeCalories : null) : this.approxActive(bb);
      target7 += target;
      if (active === null) continue;
      volume7 += active;
      if (active >= target) met7++;
      if (bb.workout > 0) workouts7++;
      if (k > 0 && active < 0.9 * target) easy7++;
    }
    const sedentaryHours = (counts[2]! * 300) / HOUR;
    const stayActive = b.worn ? score(100 - Math.max(0, sedentaryHours - 9) * 8) : null;
    const moveEveryHour = b.worn ? score(100 - Math.max(0, alerts - 1) * 12) : null;
    const meetTargets = score(25 + (75 * met7) / 7);
    const trainingFrequency = score([20, 50, 75, 90, 100, 100, 100, 100][workouts7] ?? 100);
    const volRatio = volume7 / target7;
    const trainingVolume = score(35 + 50 * Math.min(volRatio, 1.3));
    const recoveryTime = score(easy7 === 0 ? 35 : easy7 === 1 ? 70 : 100);
    const activityScore = b.worn
      ? weightedScore([
          [stayActive, 0.15],
          [moveEveryHour, 0.1],
          [meetTargets, 0.25],
          [trainingFrequency, 0.1],
          [trainingVolume, 0.15],
          [recoveryTime, 0.25],
        ])
      : null;

    return {
      id: this.id("daily_activity", idx),
      active_calories: activeCalories,
      average_met_minutes: round3(metTotal / 1440),
      class_5_min: asciiString(classCodes),
      contributors: {
        meet_daily_targets: meetTargets,
        move_every_hour: moveEveryHour,
        recovery_time: recoveryTime,
        stay_active: stayActive,
        training_frequency: trainingFrequency,
        training_volume: trainingVolume,
      },
      day,
      equivalent_walking_distance: walking,
      high_activity_met_minutes: Math.round(metSums[5]!),
      high_activity_time: counts[5]! * 300,
      inactivity_alerts: alerts,
      low_activity_met_minutes: Math.round(metSums[3]!),
      low_activity_time: counts[3]! * 300,
      medium_activity_met_minutes: Math.round(metSums[4]!),
      medium_activity_time: counts[4]! * 300,
      met: { interval: 60, items: met, timestamp: localDateTime(idx, ACTIVITY_START_S, this.offset, true) },
      meters_to_target: Math.round((targetMeters - walking) / 100) * 100,
      non_wear_time: counts[0]! * 300,
      resting_time: counts[1]! * 300,
      score: activityScore,
      sedentary_met_minutes: Math.round(metSums[2]!),
      sedentary_time: counts[2]! * 300,
      steps,
      target_calories: targetCalories,
      target_meters: targetMeters,
      timestamp: localDateTime(idx, ACTIVITY_START_S, this.offset),
      total_calories: totalCalories,
    };
  }

  private resilienceDoc(idx: number, day: string, b: DayBase, sleepScore: number | null, r: Rng): RingDocument {
    let q = 0;
    let s = 0;
    let n = 0;
    for (let k = 0; k < 14; k++) {
      const bb = k === 0 ? b : this.base(idx - k);
      if (!bb.worn) continue;
      q += bb.sleepQ;
      s += bb.stress;
      n++;
    }
    q /= n;
    s /= n;
    const sleepBonus = sleepScore === null ? 0 : (sleepScore - 75) * 0.15;
    const sleepRecovery = round1(clamp(56 + 14 * q + sleepBonus + 2.5 * r.normal(), 0, 100));
    const daytimeRecovery = round1(clamp(54 - 70 * (s - this.profile.stressBase) - 20 * (s - 0.45) + 3 * r.normal(), 0, 100));
    const stress = round1(clamp(50 - 90 * (s - 0.45) + 3 * r.normal(), 0, 100));
    const mean = (sleepRecovery + daytimeRecovery + stress) / 3;
    const level =
      mean < 32 ? "limited" : mean < 45 ? "adequate" : mean < 57 ? "solid" : mean < 70 ? "strong" : "exceptional";
    return {
      id: this.id("daily_resilience", idx),
      contributors: { sleep_recovery: sleepRecovery, daytime_recovery: daytimeRecovery, stress },
      day,
      level,
    };
  }
}

// ---------------------------------------------------------------------------------------
// Public API

function checkRevision(revision: number): void {
  if (!Number.isInteger(revision) || revision < 0) throw new RangeError(`invalid revision: ${revision}`);
}

/** All documents of one local calendar day for one user, deterministic in (seed, userKey, day, revision). */
export function generateDay(opts: GenerateOptions, day: string, revision = 0): Record<Collection, RingDocument[]> {
  checkRevision(revision);
  return new Model(opts).generateDay(dayToIndex(day), revision);
}

/** Every day in [firstDay, lastDay] (inclusive), concatenated per collection in day order. */
export function generateRange(opts: GenerateOptions, firstDay: string, lastDay: string): Record<Collection, RingDocument[]> {
  const model = new Model(opts);
  const first = dayToIndex(firstDay);
  const last = dayToIndex(lastDay);
  const out = emptyDocs();
  for (let idx = first; idx <= last; idx++) {
    const docs = model.generateDay(idx, 0);
    for (const c of COLLECTIONS) {
      for (const d of docs[c]) out[c].push(d);
    }
  }
  return out;
}

/**
 * One user's generator for many days: `generate(day, revision)` equals `generateDay(opts, day,
 * revision)`, but the per-day draws are shared between calls, so walking a range (or a day's
 * neighbours) costs what `generateRange` costs. The derived resources (lib/emulator/resources.ts)
 * read the existing collections through it.
 */
export type DayGenerator = { generate(day: string, revision?: number): Record<Collection, RingDocument[]> };

export function dayGenerator(opts: GenerateOptions): DayGenerator {
  const model = new Model(opts);
  return {
    generate(day, revision = 0) {
      checkRevision(revision);
      return model.generateDay(dayToIndex(day), revision);
    },
  };
}

/** A stable user id (UUID-shaped) for a user key, for callers that need one. */
export function deriveUserId(userKey: string): string {
  return uuidFor("user", userKey);
}

/** personal_info for a user: the profile the generated data was built from. */
export function generatePersonalInfo(opts: GenerateOptions & { userId: string; email: string }): PersonalInfo {
  const p = new Model(opts).profile;
  return {
    id: opts.userId,
    age: p.age,
    weight: p.weightKg,
    height: p.heightM,
    biological_sex: p.sex,
    email: opts.email,
  };
}
