// Sleep regularity. Pure.
//
// - Sleep Regularity Index (Phillips et al., Scientific Reports 2017): the chance of being in
//   the same state (asleep or awake) at two moments 24 h apart, scaled so that 100 is perfectly
//   regular and 0 random: SRI = −100 + 200 · (agreeing pairs / pairs). Computed over the 14
//   days ending on the day, in 5-minute epochs, from the stored sleep periods (naps included;
//   the 5-minute stages mark the awake stretches inside a period). A 24-h stretch (local noon
//   to noon) counts only when the ring recorded its night, and a pair only when both of its
//   stretches count; at least 5 pairs.
// - Bedtime and wake-time spread: the standard deviation of the main sleep's start and end
//   clock times over the same 14 days (at least 4 nights).
// - Social jet lag (Munich ChronoType Questionnaire, Roenneberg et al.): over 28 days, the
//   mid-sleep of nights before free days (MSF) against nights before work days (MSW),
//   SJL = |MSF − MSW|, and the chronotype MSF_sc = MSF − (SD_f − SD_week)/2 when free-day sleep
//   is longer. A night belongs to the day it ends on, so Friday night is Saturday's.
import { addDays, weekdayMon0 } from "@/lib/days";
import { mainSleepsByDay, minutesFromNoon, type SleepInterval } from "@/lib/signals/sleep-times";

export const REGULARITY = {
  sriDays: 14,
  epochMs: 300_000,
  minPairs: 5,
  spreadDays: 14,
  spreadMinNights: 4,
  jetLagDays: 28,
  jetLagMinNights: 2,
} as const;

const DAY_MS = 86_400_000;
const EPOCHS = DAY_MS / REGULARITY.epochMs;

export type Regularity = {
  /** Sleep Regularity Index (null: fewer than 5 day pairs) */
  sri: number | null;
  sriPairs: number;
  /** mean clock time (hours after midnight, 0–24) and spread (SD, minutes) of bedtimes and wake times */
  bedtime: number | null;
  bedtimeSdMin: number | null;
  wakeTime: number | null;
  wakeTimeSdMin: number | null;
  spreadNights: number;
  /** |MSF − MSW| in hours (null: fewer than 2 free and 2 work nights in 28 days) */
  socialJetLagH: number | null;
  /** mid-sleep clock times (hours after midnight) on work and free nights, and MSF_sc */
  midSleepWork: number | null;
  midSleepFree: number | null;
  chronotype: number | null;
  workNights: number;
  freeNights: number;
};

/** The ISO weekday of a day: 1 = Monday … 7 = Sunday. */
export function isoWeekday(day: string): number {
  return weekdayMon0(day) + 1;
}

/** A clock time from minutes after noon to hours after midnight (0 ≤ h < 24). */
function clockHours(minFromNoon: number): number {
  return ((((minFromNoon + 720) % 1440) + 1440) % 1440) / 60;
}

function meanSd(xs: readonly number[]): { mean: number; sd: number } | null {
  if (xs.length < 2) return null;
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  return { mean, sd: Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (xs.length - 1)) };
}

/**
 * The SRI of the 14 days ending on `endDay`. `offset` ("+14:00") places local noon; stretch k
 * runs from noon the day before day k to noon on day k and holds day k's night.
 */
export function sleepRegularityIndex(intervals: readonly SleepInterval[], endDay: string, offset: string): { sri: number | null; pairs: number } {
  const N = REGULARITY.sriDays;
  const firstDay = addDays(endDay, -(N - 1));
  const anchor = Date.parse(`${addDays(firstDay, -1)}T12:00:00${offset}`);
  const mains = mainSleepsByDay(intervals);
  const observed = Array.from({ length: N }, (_, k) => mains.has(addDays(firstDay, k)));
  const asleep = new Uint8Array(N * EPOCHS);
  // epoch e covers [anchor + e·5 min, …); it is asleep when its start lies in a period, outside its awake stretches
  const mark = (s: number, e: number, v: 0 | 1) => {
    const a = Math.max(0, Math.ceil((s - anchor) / REGULARITY.epochMs));
    const b = Math.min(asleep.length, Math.ceil((e - anchor) / REGULARITY.epochMs));
    for (let i = a; i < b; i++) asleep[i] = v;
  };
  const end = anchor + N * DAY_MS;
  for (const iv of intervals) {
    if (iv.end.ms <= anchor || iv.start.ms >= end) continue;
    mark(iv.start.ms, iv.end.ms, 1);
    for (const [s, e] of iv.awake) mark(s, e, 0);
  }
  let pairs = 0;
  let agree = 0;
  for (let k = 0; k + 1 < N; k++) {
    if (!observed[k] || !observed[k + 1]) continue;
    pairs++;
    for (let j = 0; j < EPOCHS; j++) if (asleep[k * EPOCHS + j] === asleep[(k + 1) * EPOCHS + j]) agree++;
  }
  if (pairs < REGULARITY.minPairs) return { sri: null, pairs };
  return { sri: -100 + (200 * agree) / (pairs * EPOCHS), pairs };
}

/** Every regularity measure of the day `endDay`; `freeDays` are ISO weekdays. */
export function computeRegularity(intervals: readonly SleepInterval[], endDay: string, freeDays: readonly number[]): Regularity {
  const mains = mainSleepsByDay(intervals);
  const newest = [...mains.entries()].filter(([d]) => d <= endDay).sort(([a], [b]) => (a < b ? 1 : -1))[0]?.[1];
  const { sri, pairs } = sleepRegularityIndex(intervals, endDay, newest?.start.offset ?? "+00:00");

  const starts: number[] = [];
  const ends: number[] = [];
  for (let k = 0; k < REGULARITY.spreadDays; k++) {
    const m = mains.get(addDays(endDay, -k));
    if (!m) continue;
    starts.push(minutesFromNoon(m.start));
    ends.push(minutesFromNoon(m.end));
  }
  const enough = starts.length >= REGULARITY.spreadMinNights;
  const s = enough ? meanSd(starts) : null;
  const e = enough ? meanSd(ends) : null;

  const free = new Set(freeDays);
  const work: Array<{ mid: number; dur: number }> = [];
  const off: Array<{ mid: number; dur: number }> = [];
  for (let k = 0; k < REGULARITY.jetLagDays; k++) {
    const day = addDays(endDay, -k);
    const m = mains.get(day);
    if (!m) continue;
    const dur = (m.end.ms - m.start.ms) / 60_000;
    (free.has(isoWeekday(day)) ? off : work).push({ mid: minutesFromNoon(m.start) + dur / 2, dur });
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  let socialJetLagH: number | null = null;
  let midSleepWork: number | null = null;
  let midSleepFree: number | null = null;
  let chronotype: number | null = null;
  if (work.length >= REGULARITY.jetLagMinNights && off.length >= REGULARITY.jetLagMinNights && free.size > 0 && free.size < 7) {
    const msw = mean(work.map((x) => x.mid));
    const msf = mean(off.map((x) => x.mid));
    const sdw = mean(work.map((x) => x.dur));
    const sdf = mean(off.map((x) => x.dur));
    const sdWeek = ((7 - free.size) * sdw + free.size * sdf) / 7;
    socialJetLagH = Math.abs(msf - msw) / 60;
    midSleepWork = clockHours(msw);
    midSleepFree = clockHours(msf);
    chronotype = clockHours(sdf > sdw ? msf - (sdf - sdWeek) / 2 : msf);
  }
  return {
    sri,
    sriPairs: pairs,
    bedtime: s ? clockHours(s.mean) : null,
    bedtimeSdMin: s ? s.sd : null,
    wakeTime: e ? clockHours(e.mean) : null,
    wakeTimeSdMin: e ? e.sd : null,
    spreadNights: starts.length,
    socialJetLagH,
    midSleepWork,
    midSleepFree,
    chronotype,
    workNights: work.length,
    freeNights: off.length,
  };
}
