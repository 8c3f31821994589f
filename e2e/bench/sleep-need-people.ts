// Synthetic people for the sleep-need bench and its accuracy test: a known need, realistic weeks
// and a readiness that falls with the night's and the week's shortfall. Seeded, pure: the same
// seed gives the same people.
//
//   - need ~ U(6.5, 9) h;
//   - work nights (those ending Monday to Friday) short of the need by the person's own
//     U(20, 60) min, free nights (ending Saturday and Sunday) long by their own U(20, 70) min,
//     every night ± 35 min (uniform); the ring missed 3 % of nights (no sleep and no readiness
//     recorded, though the night counted for the readiness of the days after);
//   - readiness = base U(76, 88) − a · the night's shortfall − b · the shortfall of the 6 nights
//     before (hours, summed) + N(0, σ), rounded to a whole score; a ~ U(6, 10) points an hour,
//     b ~ U(1, 2.5) points an hour, σ ~ U(1, 2);
//   - "plateau": sleep beyond the need adds nothing; "rising": readiness still rises above the
//     need, by U(15, 30) % of the slope below it.
import { addDays, weekdayMon0 } from "@/lib/days";
import type { Num } from "@/lib/metrics/stats";
import { mulberry32, Rng, seedOf } from "./cycle-people";

export type NeedVariant = "plateau" | "rising";

export type SleepNeedPerson = {
  key: string;
  variant: NeedVariant;
  /** day of index 0 */
  first: string;
  days: number;
  /** the planted need, seconds */
  needS: number;
  /** each day's sleep and readiness (null: the ring not worn) */
  sleep: Num[];
  readiness: Num[];
};

export type SleepNeedPeopleOptions = { seed: string; plateau: number; rising: number; days: number; first: string };

/**
 * The bench's people: three seeds of 8 whose readiness plateaus above the need and 4 whose
 * readiness still rises a little, 150 days each from a fixed first day (the same people on every
 * run, and in the accuracy test).
 */
export const SLEEP_NEED_BENCH = {
  seeds: ["ringside-sleep-need-bench-1", "ringside-sleep-need-bench-2", "ringside-sleep-need-bench-3"],
  plateau: 8,
  rising: 4,
  days: 150,
  first: "2025-09-01",
} as const;

/** The bench's people of every seed. */
export function sleepNeedBenchPeople(): Array<SleepNeedPerson & { seed: string }> {
  const { seeds, plateau, rising, days, first } = SLEEP_NEED_BENCH;
  return seeds.flatMap((seed) => makeSleepNeedPeople({ seed, plateau, rising, days, first }).map((p) => ({ ...p, seed })));
}

const H = 3600;
const MIN = 60;

/** The people of one seed: `plateau` of them, then `rising`. */
export function makeSleepNeedPeople(opts: SleepNeedPeopleOptions): SleepNeedPerson[] {
  const out: SleepNeedPerson[] = [];
  for (let p = 0; p < opts.plateau + opts.rising; p++) {
    const variant: NeedVariant = p < opts.plateau ? "plateau" : "rising";
    const rng = new Rng(mulberry32(seedOf(`${opts.seed}:sleep-need:${p}`)));
    out.push(makeSleepNeedPerson(rng, { key: `${variant}-${p}`, variant, first: opts.first, days: opts.days }));
  }
  return out;
}

export type PersonShape = {
  key: string;
  variant: NeedVariant;
  first: string;
  days: number;
  /** fix the need (seconds) instead of drawing it */
  needS?: number;
  /** fix the work nights' shortfall and the free nights' surplus (minutes) instead of drawing them */
  shortMin?: number;
  longMin?: number;
  /** the share of nights without the ring (default 3 %) */
  missing?: number;
};

/** One person from a generator (see the file's head); the shape's fixed parts override the draws. */
export function makeSleepNeedPerson(rng: Rng, shape: PersonShape): SleepNeedPerson {
  const need = shape.needS ?? rng.u(6.5, 9) * H;
  const short = (shape.shortMin ?? rng.u(20, 60)) * MIN;
  const long = (shape.longMin ?? rng.u(20, 70)) * MIN;
  const base = rng.u(76, 88);
  const a = rng.u(6, 10) / H;
  const b = rng.u(1, 2.5) / H;
  const sd = rng.u(1, 2);
  const rise = shape.variant === "rising" ? a * rng.u(0.15, 0.3) : 0;
  const missing = shape.missing ?? 0.03;
  // every night was slept; the ring missed some of them (no sleep and no readiness recorded)
  const slept: number[] = [];
  for (let i = 0; i < shape.days; i++) {
    const free = weekdayMon0(addDays(shape.first, i)) >= 5;
    slept.push(Math.round(Math.max(3 * H, need + (free ? long : -short) + rng.u(-35, 35) * MIN)));
  }
  const worn = slept.map(() => rng.u() >= missing);
  const readiness: Num[] = slept.map((s, i) => {
    let week = 0;
    for (let k = 1; k <= 6 && i - k >= 0; k++) week += Math.max(0, need - slept[i - k]!);
    const r = base - a * Math.max(0, need - s) - b * week + rise * Math.max(0, s - need) + rng.n(0, sd);
    return worn[i] ? Math.round(Math.min(100, Math.max(1, r))) : null;
  });
  const sleep: Num[] = slept.map((s, i) => (worn[i] ? s : null));
  return { key: shape.key, variant: shape.variant, first: shape.first, days: shape.days, needS: need, sleep, readiness };
}

const iso = (ms: number) => new Date(ms).toISOString().replace(".000Z", "+00:00");

/**
 * The person's nights as a Ringside export ("ringside-export-v1", what POST /api/import takes):
 * a main sleep and a readiness a day, in UTC, asleep from 23:00 the evening before.
 */
export function sleepNeedExport(p: SleepNeedPerson): Record<string, unknown> {
  const sleep: Array<Record<string, unknown>> = [];
  const readiness: Array<Record<string, unknown>> = [];
  p.sleep.forEach((s, i) => {
    const r = p.readiness[i];
    if (s === null || r === null || r === undefined) return;
    const day = addDays(p.first, i);
    const inBed = s + 1800;
    const start = Date.parse(`${addDays(day, -1)}T23:00:00Z`);
    const deep = Math.round(s * 0.2);
    const rem = Math.round(s * 0.22);
    sleep.push({
      id: `need-sleep-${p.key}-${day}`,
      day,
      type: "long_sleep",
      bedtime_start: iso(start),
      bedtime_end: iso(start + inBed * 1000),
      low_battery_alert: false,
      period: 0,
      time_in_bed: inBed,
      total_sleep_duration: s,
      awake_time: 1800,
      latency: 900,
      efficiency: Math.round((100 * s) / inBed),
      deep_sleep_duration: deep,
      rem_sleep_duration: rem,
      light_sleep_duration: s - deep - rem,
      lowest_heart_rate: 52,
      average_heart_rate: 58,
      average_hrv: 60,
      average_breath: 14.5,
      restless_periods: 200,
      readiness: { score: r, temperature_deviation: 0, temperature_trend_deviation: 0, contributors: {} },
    });
    readiness.push({
      id: `need-readiness-${p.key}-${day}`,
      day,
      timestamp: `${day}T00:00:00+00:00`,
      score: r,
      temperature_deviation: 0,
      temperature_trend_deviation: 0,
      contributors: {
        previous_night: 80,
        sleep_balance: 80,
        previous_day_activity: 80,
        activity_balance: 80,
        body_temperature: 95,
        resting_heart_rate: 90,
        hrv_balance: 85,
        recovery_index: 80,
        sleep_regularity: 85,
      },
    });
  });
  const last = addDays(p.first, p.days - 1);
  return {
    format: "ringside-export-v1",
    from: p.first,
    to: last,
    exported_at: `${last}T12:00:00Z`,
    notes: [],
    tags: [],
    collections: { sleep, daily_readiness: readiness },
  };
}
