// Sleep periods as times: the instants they cover and the person's local clock at their
// start and end. Pure. Every time comes from the period's own ISO string with its UTC offset
// ("2026-03-01T23:30:00+14:00"), never from the server's time zone, so a person east of
// UTC+12 or west of UTC−10 reads the same as one in Europe.
import { countsAsSleep, groupByDay, pickMainSleep, type SleepPeriodLike } from "@/lib/metrics/series";

export type SleepPeriodInput = SleepPeriodLike & {
  bedtime_start: string | null;
  bedtime_end: string | null;
  /** 5-minute stages from bedtime_start (1 deep, 2 light, 3 REM, 4 awake), when present */
  sleep_phase_5_min?: string | null;
};

export type LocalTime = {
  /** the instant (ms since the epoch) */
  ms: number;
  /** the UTC offset written in the string, minutes */
  offsetMin: number;
  /** minutes since local midnight on the person's clock */
  minuteOfDay: number;
  /** the offset as written: "+14:00", "-11:00", "+00:00" */
  offset: string;
};

const ISO_RE = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** The instant and local clock of an ISO date-time with an offset (null if it is not one). */
export function parseLocalTime(iso: string | null | undefined): LocalTime | null {
  if (!iso) return null;
  const m = ISO_RE.exec(iso);
  if (!m) return null;
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return null;
  const z = m[5]!;
  const offsetMin = z === "Z" ? 0 : (z[0] === "-" ? -1 : 1) * (Number(z.slice(1, 3)) * 60 + Number(z.slice(4, 6)));
  return { ms, offsetMin, minuteOfDay: Number(m[2]) * 60 + Number(m[3]), offset: z === "Z" ? "+00:00" : z };
}

/** A counted sleep period as an interval of instants, with its awake stretches. */
export type SleepInterval = {
  day: string;
  isMain: boolean;
  start: LocalTime;
  end: LocalTime;
  /** [start, end) instants the stages mark awake inside the period */
  awake: Array<[number, number]>;
};

const EPOCH_5_MIN = 300_000;

/** Awake stretches from a 5-minute stage string ("4" = awake) starting at `startMs`. */
export function awakeStretches(phases: string | null | undefined, startMs: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  if (!phases) return out;
  for (let i = 0; i < phases.length; i++) {
    if (phases[i] !== "4") continue;
    const s = startMs + i * EPOCH_5_MIN;
    const last = out.at(-1);
    if (last && last[1] === s) last[1] = s + EPOCH_5_MIN;
    else out.push([s, s + EPOCH_5_MIN]);
  }
  return out;
}

/**
 * Every counted period (not deleted, not a rejected rest) as an interval, each day's main sleep
 * marked (lib/metrics/series.ts pickMainSleep); periods without readable times are left out.
 */
export function sleepIntervals(periods: readonly SleepPeriodInput[]): SleepInterval[] {
  const out: SleepInterval[] = [];
  for (const [day, list] of groupByDay(periods)) {
    const main = pickMainSleep(list);
    for (const p of list) {
      if (!countsAsSleep(p)) continue;
      const start = parseLocalTime(p.bedtime_start);
      const end = parseLocalTime(p.bedtime_end);
      if (!start || !end || end.ms <= start.ms) continue;
      out.push({ day, isMain: p === main, start, end, awake: awakeStretches(p.sleep_phase_5_min, start.ms) });
    }
  }
  return out.sort((a, b) => a.start.ms - b.start.ms);
}

/** Minutes since the local noon before (a clock time on a scale that does not wrap at midnight). */
export function minutesFromNoon(t: LocalTime): number {
  return (t.minuteOfDay - 720 + 1440) % 1440;
}

/** Each day's main sleep interval, by day. */
export function mainSleepsByDay(intervals: readonly SleepInterval[]): Map<string, SleepInterval> {
  const out = new Map<string, SleepInterval>();
  for (const iv of intervals) if (iv.isMain) out.set(iv.day, iv);
  return out;
}

/**
 * All the sleep of each day, seconds: the total sleep of its counted periods (main sleep and
 * naps; deleted periods and rejected rests left out), by the ring's day of each period.
 */
export function sleepSecondsByDay(periods: readonly SleepPeriodLike[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const p of periods) {
    if (!countsAsSleep(p) || p.total_sleep_duration === null) continue;
    out.set(p.day, (out.get(p.day) ?? 0) + p.total_sleep_duration);
  }
  return out;
}
