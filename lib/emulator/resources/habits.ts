// A person's habits beyond the generated profile, drawn once in a fixed order: their workouts,
// sessions and tags, battery drain, and their rings (replaced once on a fixed day).
import { rngFor, type Rng } from "@/lib/emulator/prng";
import { dayToIndex } from "@/lib/days";
import { HOUR } from "../generator/local-time";
import { clamp } from "../generator/numbers";

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

export type RingHabits = {
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
export const GEN4_RELEASE = dayToIndex("2024-10-15");
const OR5_RELEASE = dayToIndex("2025-10-01");
export const FIRMWARE_EPOCH = dayToIndex("2020-01-06");
export const FIRMWARE_EVERY_DAYS = 49;

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
  const firstColors =
    firstDesign === "heritage"
      ? ["silver", "glossy_black", "stealth_black", "glossy_gold", "rose"]
      : ["silver", "stealth_black", "glossy_gold", "rose", "brushed_silver"];
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
