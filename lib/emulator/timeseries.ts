// The two time series of the V2 API, heart rate and ring battery level, generated one local day at
// a time from a user's current documents (so a five-year history never sits in memory: about half
// a million heart-rate samples per five years, generated on demand for the requested days).
//
// Heart rate of local day D (midnight to midnight, served as UTC instants):
// - sleep periods (day D and D+1): the period's own `heart_rate` samples, source `sleep` (`rest`
//   for periods of type rest, and 5-minute `rest` samples for periods without a series);
// - sessions: their own 5-second `heart_rate` items, source `session`;
// - workouts: 5-second bursts (5–8 samples every 2.5–5 minutes), source `workout`, at 50–80 % of
//   the heart-rate reserve by intensity, following that minute's MET;
// - otherwise daily_activity's 5-minute classes: non-wear → nothing; rest → 5-minute `rest`
//   samples; awake → irregular samples (1 s to 28 min apart, mostly 5–11 min), source `awake`
//   (`rest` on inactive blocks during rest mode), bpm from resting heart rate and the minute's MET.
// Battery of local day D: a level that drains on the finger (0.38–0.50 %/h, double in high
// activity) and off it, and charges 3.2 %/min during the day's non-wear stretches (the
// "charging" blocks of daily_activity) and on days the ring stayed off; a sample every 25–35
// minutes, every 5 minutes in the charger. The level entering a day is simulated from the last
// full charge before it (at most 30 days back), so neighbouring days agree.
import type { Habits } from "./resources";
import { rngFor } from "./prng";
import { serviceInstant } from "@/lib/clock";

export const HEART_RATE_SOURCES = ["awake", "rest", "sleep", "workout", "session", "live"] as const;
const AWAKE = 0;
const REST = 1;
const SLEEP = 2;
const WORKOUT = 3;
const SESSION = 4;

const DAY_MS = 86_400_000;
const BLOCK_MS = 300_000;
const ACTIVITY_OFFSET_BLOCKS = 48; // 04:00 local

type Doc = Record<string, unknown>;

/** What the generators read: the user's current documents of a day, by collection. */
export type SeriesView = {
  prefix: string;
  offsetMinutes: number;
  age: number;
  habits: Habits;
  /** Whether the user has data on that day (history or a synced day). */
  isDay(idx: number): boolean;
  /** The current documents of a collection that belong to that day. */
  docs(collection: "daily_activity" | "sleep" | "session" | "workout", idx: number): readonly Doc[];
  /** Every current rest-mode period. */
  restModes(): readonly Doc[];
  /** Whether the night ending on that day was planted in the charger (the test person's `nights`). */
  chargerNight(idx: number): boolean;
};

/** One day of samples in time order: instants (ms), values, and a source code (heart rate) or flags (battery). */
export type Series = { t: Float64Array; v: Uint8Array; k: Uint8Array; n: number };

/** The instant a sample is served at: the service's sample timestamps are whole seconds. */
const toSecond = (t: number) => Math.round(t / 1000) * 1000;
const HALF_SECOND = 500;

/**
 * One local day's samples, [from, to) in UTC instants. A sample is rounded to its second first
 * and then placed: one that rounds onto the next midnight is not this day's (the window that
 * starts at that midnight reads the next day), one that rounds up onto this day's midnight is.
 */
class Builder {
  private readonly t: number[] = [];
  private readonly v: number[] = [];
  private readonly k: number[] = [];
  constructor(
    private readonly from: number,
    private readonly to: number,
  ) {}
  /** Whether a sample at `t` (before rounding) belongs to the day. */
  holds(t: number): boolean {
    const s = toSecond(t);
    return s >= this.from && s < this.to;
  }
  /** Adds a sample at `t` when it belongs to the day. */
  add(t: number, v: number, k: number): void {
    if (!this.holds(t)) return;
    this.t.push(toSecond(t));
    this.v.push(Math.max(0, Math.min(255, Math.round(v))));
    this.k.push(k);
  }
  /** Sorted by time; at most one sample per instant (the first added wins). */
  build(): Series {
    const order = this.t.map((_, i) => i).sort((a, b) => this.t[a]! - this.t[b]! || a - b);
    const t = new Float64Array(order.length);
    const v = new Uint8Array(order.length);
    const k = new Uint8Array(order.length);
    let n = 0;
    for (const i of order) {
      if (n > 0 && t[n - 1] === this.t[i]) continue;
      t[n] = this.t[i]!;
      v[n] = this.v[i]!;
      k[n] = this.k[i]!;
      n++;
    }
    return { t, v, k, n };
  }
}

export function dayStartMs(idx: number, offsetMinutes: number): number {
  return idx * DAY_MS - offsetMinutes * 60_000;
}

/** The local day a UTC instant falls on. */
export function localDayOf(ms: number, offsetMinutes: number): number {
  return Math.floor((ms + offsetMinutes * 60_000) / DAY_MS);
}

type Activity = { cls: string; met: unknown[]; startMs: number };

function activity(view: SeriesView, idx: number): Activity | null {
  const a = view.docs("daily_activity", idx)[0];
  if (!a || typeof a.class_5_min !== "string") return null;
  const met = (a.met as { items?: unknown } | null | undefined)?.items;
  return { cls: a.class_5_min, met: Array.isArray(met) ? met : [], startMs: dayStartMs(idx, view.offsetMinutes) + ACTIVITY_OFFSET_BLOCKS * BLOCK_MS };
}

/** Activity class ("0"–"5" code) and minute MET at an instant, from the activity document covering it. */
function classAt(acts: Array<Activity | null>, t: number): { cls: number; met: number } | null {
  for (const a of acts) {
    if (!a) continue;
    const rel = t - a.startMs;
    if (rel < 0 || rel >= DAY_MS) continue;
    const block = Math.floor(rel / BLOCK_MS);
    const code = a.cls.charCodeAt(block) - 48;
    if (!(code >= 0 && code <= 5)) return null;
    const m = a.met[Math.floor(rel / 60_000)];
    return { cls: code, met: typeof m === "number" ? m : 1 };
  }
  return null;
}

const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

function restingRate(view: SeriesView, idx: number): number {
  for (const d of [idx, idx + 1, idx - 1]) {
    const long = view.docs("sleep", d).find((s) => s.type === "long_sleep");
    const v = num(long?.lowest_heart_rate);
    if (v !== null) return v;
  }
  return 58;
}

type Sample = { interval: number; items: unknown[]; timestamp: string };

function sampleOf(v: unknown): Sample | null {
  if (!v || typeof v !== "object") return null;
  const s = v as Partial<Sample>;
  return typeof s.interval === "number" && Array.isArray(s.items) && typeof s.timestamp === "string" ? (s as Sample) : null;
}

function interval(doc: Doc, from: string, to: string): [number, number] | null {
  const a = typeof doc[from] === "string" ? Date.parse(doc[from] as string) : NaN;
  const b = typeof doc[to] === "string" ? Date.parse(doc[to] as string) : NaN;
  return Number.isFinite(a) && Number.isFinite(b) && b > a ? [a, b] : null;
}

/** The rest-mode intervals that overlap [from, to). */
function restIntervals(view: SeriesView, from: number, to: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const p of view.restModes()) {
    const start = typeof p.start_time === "string" ? Date.parse(p.start_time) : NaN;
    if (!Number.isFinite(start) || start >= to) continue;
    const end = typeof p.end_time === "string" ? Date.parse(p.end_time) : Infinity;
    if (end > start && end > from) out.push([start, end]);
  }
  return out;
}

/** Heart rate of local day `idx`. */
export function heartRateDay(view: SeriesView, idx: number): Series {
  const from = dayStartMs(idx, view.offsetMinutes);
  const to = from + DAY_MS;
  const out = new Builder(from, to);
  // Whether a sample belongs to the day, after rounding (a guard before each value that draws
  // from a random stream, so a sample left out draws nothing); and whether an interval can hold
  // one: its samples round to instants up to half a second beyond it.
  const inDay = (t: number) => out.holds(t);
  const touches = (span: [number, number]) => span[1] > from - HALF_SECOND && span[0] < to - HALF_SECOND;
  const r = rngFor(view.prefix, "hr", idx);
  const rhr = restingRate(view, idx);
  const hrMax = Math.round(208 - 0.7 * view.age);
  const busy: Array<[number, number]> = [];

  // Sleep periods of this day and the next (the evening's long sleep).
  for (const p of [...view.docs("sleep", idx), ...view.docs("sleep", idx + 1)]) {
    const span = interval(p, "bedtime_start", "bedtime_end");
    if (!span || !touches(span)) continue;
    busy.push(span);
    const source = p.type === "rest" ? REST : SLEEP;
    const hr = sampleOf(p.heart_rate);
    if (hr) {
      const t0 = Date.parse(hr.timestamp);
      hr.items.forEach((v, i) => {
        const t = t0 + i * hr.interval * 1000;
        if (typeof v === "number" && inDay(t)) out.add(t, v, source);
      });
    } else {
      const pr = rngFor(view.prefix, "hr-period", String(p.id));
      const lowest = num(p.lowest_heart_rate) ?? rhr;
      for (let t = span[0]; t < span[1]; t += BLOCK_MS) if (inDay(t)) out.add(t, lowest + 3 + 1.5 * pr.normal(), REST);
    }
  }

  // Sessions with their own samples.
  for (const s of [...view.docs("session", idx - 1), ...view.docs("session", idx)]) {
    const span = interval(s, "start_datetime", "end_datetime");
    const hr = sampleOf(s.heart_rate);
    if (!span || !hr || !touches(span)) continue;
    busy.push(span);
    const t0 = Date.parse(hr.timestamp);
    hr.items.forEach((v, i) => {
      const t = t0 + i * hr.interval * 1000;
      if (typeof v === "number" && inDay(t)) out.add(t, v, SESSION);
    });
  }

  const acts = [activity(view, idx - 1), activity(view, idx)];
  const awakeBpm = (met: number, noise: number) => Math.min(hrMax, rhr + 9 + 11 * (met - 1) + 3 * noise);

  // Workouts: 5-second bursts.
  for (const w of [...view.docs("workout", idx - 1), ...view.docs("workout", idx)]) {
    const span = interval(w, "start_datetime", "end_datetime");
    if (!span || !touches(span)) continue;
    busy.push(span);
    const wr = rngFor(view.prefix, "hr-workout", String(w.id));
    const frac = w.intensity === "hard" ? 0.8 : w.intensity === "moderate" ? 0.65 : 0.5;
    for (let t = span[0]; t < span[1];) {
      const burst = wr.int(5, 8);
      for (let j = 0; j < burst; j++) {
        const tt = t + j * 5000;
        if (tt >= span[1]) break;
        const at = classAt(acts, tt);
        const met = at?.met ?? 5;
        const target = rhr + (hrMax - rhr) * Math.min(0.95, frac + 0.02 * (met - 5));
        const ramp = Math.min(1, (tt - span[0]) / 180_000);
        const start = awakeBpm(1.5, 0);
        if (inDay(tt)) out.add(tt, Math.min(hrMax, start + (target - start) * ramp + 2 * wr.normal()), WORKOUT);
      }
      t += burst * 5000 + wr.int(120, 260) * 1000;
    }
  }

  // The rest of the day from the activity classes.
  busy.sort((a, b) => a[0] - b[0]);
  const rest = restIntervals(view, from, to);
  const inRestMode = (t: number) => rest.some(([a, b]) => t >= a && t < b);
  let t = from + r.int(0, 240) * 1000;
  let bi = 0;
  while (t < to) {
    while (bi < busy.length && busy[bi]![1] <= t) bi++;
    const b = busy[bi];
    if (b && t >= b[0]) {
      t = b[1] + r.int(30, 300) * 1000;
      continue;
    }
    const at = classAt(acts, t);
    if (!at || at.cls === 0) {
      t = (Math.floor((t - from) / BLOCK_MS) + 1) * BLOCK_MS + from + r.int(0, 120) * 1000;
      continue;
    }
    if (at.cls === 1) {
      out.add(t, rhr + 3 + 1.5 * r.normal(), REST);
      t += BLOCK_MS + r.int(-20, 20) * 1000;
      continue;
    }
    out.add(t, awakeBpm(at.met, r.normal()), inRestMode(t) && at.cls === 2 ? REST : AWAKE);
    const u = r.next();
    t += (u < 0.85 ? 300 + 360 * r.next() : u < 0.95 ? 1 + 59 * r.next() : 600 + 1080 * r.next()) * 1000;
  }
  return out.build();
}

// ---------------------------------------------------------------------------------------
// Battery

const OFF = 0;
const WORN = 1;
const WORN_HIGH = 2;
const CHARGING = 3;
const NO_RING = 4;
const FLOOR = 3;
const CHARGE_PER_BLOCK = 3.2 * 5;
const FULL_CHARGE_BLOCKS = 6;
/** A charger night's blocks: until 07:00, and from 21:00 the evening before. */
const CHARGER_NIGHT_MORNING = 84;
const CHARGER_NIGHT_EVENING = 252;

/** What the ring did in each 5-minute block of local day `idx`. */
function blockStates(view: SeriesView, idx: number): Uint8Array {
  const states = new Uint8Array(288).fill(NO_RING);
  const fill = (act: Activity | null, actDay: number, fromBlock: number, toBlock: number, offset: number) => {
    if (!act) {
      if (view.isDay(actDay)) for (let b = fromBlock; b < toBlock; b++) states[b] = OFF;
      return;
    }
    let first = -1;
    let last = -1;
    for (let i = 0; i < 288; i++)
      if (act.cls.charCodeAt(i) >= 50) {
        if (first < 0) first = i;
        last = i;
      }
    for (let b = fromBlock; b < toBlock; b++) {
      const i = b + offset;
      const c = act.cls.charCodeAt(i) - 48;
      states[b] = c === 0 ? (i > first && i < last ? CHARGING : OFF) : c === 5 ? WORN_HIGH : WORN;
    }
  };
  fill(activity(view, idx - 1), idx - 1, 0, ACTIVITY_OFFSET_BLOCKS, 288 - ACTIVITY_OFFSET_BLOCKS);
  fill(activity(view, idx), idx, ACTIVITY_OFFSET_BLOCKS, 288, -ACTIVITY_OFFSET_BLOCKS);
  // A day the ring did not spend on the finger: it goes on the charger in the evening.
  const night = view.docs("sleep", idx).some((s) => s.type === "long_sleep");
  if (view.isDay(idx) && !night) {
    let start = -1;
    for (const from of [228, 72]) {
      for (let b = from; b + 24 <= 288 && start < 0; b++) {
        let ok = true;
        for (let j = b; j < b + 24 && ok; j++) ok = states[j] === OFF;
        if (ok) start = b;
      }
      if (start >= 0) break;
    }
    if (start >= 0) for (let j = start; j < start + 24; j++) states[j] = CHARGING;
  }
  // A night planted in the charger: from 21:00 the evening before to 07:00.
  if (view.chargerNight(idx)) states.fill(CHARGING, 0, CHARGER_NIGHT_MORNING);
  if (view.chargerNight(idx + 1)) states.fill(CHARGING, CHARGER_NIGHT_EVENING, 288);
  return states;
}

function longestCharge(states: Uint8Array): number {
  let best = 0;
  let run = 0;
  for (const s of states) {
    run = s === CHARGING ? run + 1 : 0;
    if (run > best) best = run;
  }
  return best;
}

function step(level: number, state: number, h: Habits): number {
  switch (state) {
    case CHARGING:
      return Math.min(100, level + CHARGE_PER_BLOCK);
    case WORN:
      return Math.max(FLOOR, level - h.drainWorn / 12);
    case WORN_HIGH:
      return Math.max(FLOOR, level - (2 * h.drainWorn) / 12);
    default:
      return Math.max(FLOOR, level - h.drainOff / 12);
  }
}

/** Battery level entering local day `idx`, simulated from the last full charge before it. */
function levelAtStart(view: SeriesView, idx: number, firstIdx: number): number {
  let start = -1;
  const cached = new Map<number, Uint8Array>();
  const statesOf = (d: number) => {
    let s = cached.get(d);
    if (!s) {
      s = blockStates(view, d);
      cached.set(d, s);
    }
    return s;
  };
  for (let k = 1; k <= 30; k++) {
    const d = idx - k;
    if (d < firstIdx - 1) break;
    if (longestCharge(statesOf(d)) >= FULL_CHARGE_BLOCKS) {
      start = d;
      break;
    }
  }
  let level: number;
  if (start < 0) {
    start = Math.max(idx - 30, firstIdx - 1);
    level = start <= firstIdx - 1 ? 80 : FLOOR;
  } else level = FLOOR;
  for (let d = start; d < idx; d++) for (const s of statesOf(d)) level = step(level, s, view.habits);
  return level;
}

/** Flags of a battery sample: bit 0 charging, bit 1 in the charger. */
export const BATTERY_CHARGING = 1;
export const BATTERY_IN_CHARGER = 2;

/** Ring battery level of local day `idx` (firstIdx: the user's first day). */
export function batteryDay(view: SeriesView, idx: number, firstIdx: number): Series {
  const from = dayStartMs(idx, view.offsetMinutes);
  const out = new Builder(from, from + DAY_MS);
  if (!view.isDay(idx)) return out.build();
  const states = blockStates(view, idx);
  const levels = new Float64Array(289);
  levels[0] = levelAtStart(view, idx, firstIdx);
  for (let b = 0; b < 288; b++) levels[b + 1] = step(levels[b]!, states[b]!, view.habits);
  const r = rngFor(view.prefix, "battery", idx);
  for (let t = from + r.int(0, 600) * 1000; t < from + DAY_MS;) {
    const block = Math.floor((t - from) / BLOCK_MS);
    const state = states[block]!;
    if (state === NO_RING) {
      t = from + (block + 1) * BLOCK_MS + r.int(0, 120) * 1000;
      continue;
    }
    const frac = (t - from - block * BLOCK_MS) / BLOCK_MS;
    const level = levels[block]! + (levels[block + 1]! - levels[block]!) * frac;
    const charging = state === CHARGING;
    out.add(t, level, charging ? (level < 99.5 ? BATTERY_CHARGING : 0) | BATTERY_IN_CHARGER : 0);
    let next = t + (charging ? 300 : 1500 + r.int(0, 600)) * 1000;
    // Never step over the start or the end of a charge: a sample marks each.
    for (let b = block + 1; b < 288 && from + b * BLOCK_MS < next; b++) {
      if ((states[b] === CHARGING) !== charging) {
        next = from + b * BLOCK_MS + r.int(0, 60) * 1000;
        break;
      }
    }
    t = next;
  }
  return out.build();
}

// ---------------------------------------------------------------------------------------
// Rows as the service sends them

/** The service's sample timestamps are whole seconds. */
function utc(ms: number): string {
  return serviceInstant(ms - (ms % 1000));
}

/** PublicHeartRateRow: {bpm, source, timestamp, timestamp_unix}. */
export function heartRateRow(s: Series, i: number): Record<string, unknown> {
  return { bpm: s.v[i]!, source: HEART_RATE_SOURCES[s.k[i]!]!, timestamp: utc(s.t[i]!), timestamp_unix: s.t[i]! };
}

/** PublicRingBatteryLevelRow: {charging, in_charger, level, timestamp, timestamp_unix}. */
export function batteryRow(s: Series, i: number): Record<string, unknown> {
  const k = s.k[i]!;
  return {
    charging: (k & BATTERY_CHARGING) !== 0,
    in_charger: (k & BATTERY_IN_CHARGER) !== 0,
    level: s.v[i]!,
    timestamp: utc(s.t[i]!),
    timestamp_unix: s.t[i]!,
  };
}
