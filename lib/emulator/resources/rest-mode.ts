// rest_mode_period: on low-activity days (steps well below the person's 28-day median, more
// readily with a fever), plus zero-length toggles (start_time == end_time, as observed). A test
// person's planted rest-mode night (`nights`) has its period instead: on from 20:00 the evening
// before to 10:00 the morning after.
import { hashUnit, rngFor, uuidFor } from "@/lib/emulator/prng";
import { indexToDay } from "@/lib/days";
import { HOUR, MIN, localDateTime } from "../generator/local-time";
import type { DayDocs } from "../generator/types";
import { activityOf, localSecondsFrom, longSleep, num, type Activity } from "./read";
import type { ResourceSource } from "./source";
import type { ResourceDocument } from "./types";

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
export function restModes(src: ResourceSource, idx: number, current: DayDocs, today: number): ResourceDocument[] {
  if (src.opts.nights?.get(idx + 1) === "rest_mode") return [plantedRestMode(src, idx)];
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
    const at = localDateTime(idx, 19 * HOUR + r.int(0, 3 * HOUR), src.offset);
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
      episodes.push({
        tags: REST_TAGS[r.int(0, REST_TAGS.length - 1)]!,
        timestamp: localDateTime(d, (d === idx ? startS : 10 * HOUR) + r.int(MIN, 2 * HOUR), src.offset),
      });
    }
  }
  return [
    {
      id,
      end_day: ongoing ? null : indexToDay(endIdx),
      end_time: ongoing ? null : localDateTime(endIdx, endS, src.offset),
      episodes,
      start_day: day,
      start_time: localDateTime(idx, startS, src.offset),
    },
  ];
}

/** The rest-mode period of a planted rest-mode night ending the day after `idx`: 20:00 to 10:00. */
function plantedRestMode(src: ResourceSource, idx: number): ResourceDocument {
  return {
    id: uuidFor(src.prefix, "ext", "rest_mode_period", idx),
    end_day: indexToDay(idx + 1),
    end_time: localDateTime(idx + 1, 10 * HOUR, src.offset),
    episodes: [],
    start_day: indexToDay(idx),
    start_time: localDateTime(idx, 20 * HOUR, src.offset),
  };
}
