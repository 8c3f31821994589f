// session: on inactive blocks (class 2), away from workouts, with 5-second heart-rate, HRV and
// motion samples.
import { rngFor, uuidFor, type Rng } from "@/lib/emulator/prng";
import { indexToDay } from "@/lib/days";
import { ACTIVITY_START_S, MIN, localDateTime } from "../generator/local-time";
import type { DayDocs } from "../generator/types";
import { BLOCKS_BEFORE_MIDNIGHT, BLOCK_S, activityOf, longSleep, num, worn, type WorkoutWindow } from "./read";
import type { ResourceSource } from "./source";
import type { ResourceDocument } from "./types";

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

export function sessions(src: ResourceSource, idx: number, current: DayDocs): ResourceDocument[] {
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
    const durS = Math.round(((lo + (hi - lo) * sr.next()) * MIN) / 5) * 5;
    const fits = runs.filter((run) => (run.to - run.from - 2) * BLOCK_S >= durS && !taken.some(([a, b]) => run.from < b && a < run.to));
    if (fits.length === 0) continue;
    const run = fits[Math.floor(sr.next() * fits.length)]!;
    taken.push([run.from, run.to]);
    const slack = (run.to - run.from - 2) * BLOCK_S - durS;
    const startS = ACTIVITY_START_S + (run.from + 1) * BLOCK_S + Math.floor(sr.next() * (slack / 5 + 1)) * 5;
    const endS = startS + durS;
    const n = durS / 5;
    const sampleTs = localDateTime(idx, startS, src.offset, true);
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
      end_datetime: localDateTime(idx, endS, src.offset, true),
      heart_rate: dropHr ? null : { interval: 5, items: hrItems, timestamp: sampleTs },
      heart_rate_variability: dropHrv ? null : { interval: 5, items: hrvItems, timestamp: sampleTs },
      mood,
      motion_count: dropMotion ? null : { interval: 5, items: motion, timestamp: sampleTs },
      start_datetime: localDateTime(idx, startS, src.offset, true),
      type,
    });
  }
  return out.sort((a, b) => String(a.start_datetime).localeCompare(String(b.start_datetime)));
}
