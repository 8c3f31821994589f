// vO2_max: about weekly, from the resting heart rate of the last two weeks (Uth et al.:
// 15.3 × HRmax / HRrest, scaled).
import { hashUnit, rngFor, uuidFor } from "@/lib/emulator/prng";
import { indexToDay } from "@/lib/days";
import { HOUR, sundayFirstWeekday, localDateTime } from "../generator/local-time";
import { clamp } from "../generator/numbers";
import type { DayDocs } from "../generator/types";
import { activityOf, longSleep, num, worn } from "./read";
import type { ResourceSource } from "./source";
import type { ResourceDocument } from "./types";

export function vo2Max(src: ResourceSource, idx: number, current: DayDocs): ResourceDocument[] {
  const h = src.habits;
  const base = src.base(idx);
  if (!worn(base) || !activityOf(base)) return [];
  const dow = sundayFirstWeekday(idx);
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
      timestamp: localDateTime(idx, h.vo2Hour * HOUR + Math.floor(r.next() * HOUR), src.offset),
      vo2_max: value,
    },
  ];
}
