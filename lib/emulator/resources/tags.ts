// enhanced_tag (realistic tag codes with habits per person, some custom names; alcohol before
// nights of lower HRV, late meals before a higher night heart rate, sickness on fever days) and
// the deprecated tag (some enhanced tags in the old note shape, one note per day).
import { hashUnit, rngFor, uuidFor } from "@/lib/emulator/prng";
import { indexToDay } from "@/lib/days";
import { HOUR, sundayFirstWeekday, localDateTime } from "../generator/local-time";
import { longSleep, num, worn } from "./read";
import type { ResourceSource } from "./source";
import type { ResourceDocument } from "./types";

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

export function enhancedTags(src: ResourceSource, idx: number): ResourceDocument[] {
  const h = src.habits;
  const base = src.base(idx);
  const next = src.base(idx + 1);
  const r = rngFor(src.prefix, "ext", "enhanced_tag", idx);
  const dow = sundayFirstWeekday(idx); // 0 = Sunday
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
  if (uSick < (temp >= 0.5 ? 0.7 : 0.003))
    drafts.push({ code: "tag_generic_sick", customName: null, second: sSick, durationDays: uSickLen < 0.3 ? 1 + Math.floor(uSickLen * 7) : 0 });
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
      start_time: localDateTime(idx, d.second, src.offset),
      end_time: d.durationDays > 0 ? localDateTime(endIdx, d.second, src.offset) : null,
      start_day: indexToDay(idx),
      end_day: d.durationDays > 0 ? indexToDay(endIdx) : null,
      comment,
      custom_name: d.customName,
    };
  });
}

/** The deprecated `tag` route: some of the day's enhanced tags in the old note shape, one note per day. */
export function oldTags(src: ResourceSource, idx: number, tags: readonly ResourceDocument[]): ResourceDocument[] {
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
