import "server-only";
import { AppError } from "@/lib/http/errors";
import { bedtimeOf, type Bedtime, type BedtimeRow } from "@/lib/metrics/bedtime";
import type { BatterySample } from "@/lib/alerts/battery";
import { minutesFrom } from "@/lib/metrics/day-detail";
import { addDays } from "@/lib/days";
import { localDayCurve, offsetOfIso, offsetResolver, stretchCurve, utcDaysFor, type CurvePoint } from "@/lib/metrics/heart-rate";
import { ringTagOf } from "@/lib/metrics/ring-tags";
import { weeklyTotals, type WeeklyTotals, type WorkoutItem } from "@/lib/metrics/workouts";
import { instantOf } from "@/lib/sync/map";
import {
  getActivityTimestamps,
  getDocumentById,
  getDocumentRows,
  getNewestDocumentRow,
  getRestModes,
  getRings,
  type RangeOptions,
} from "@/lib/db/queries/ring-data";
import { latestSample, readSampleDays } from "@/lib/db/queries/time-series";

// The ring's other records for the pages: a day's heart-rate curve, workouts, sessions, tags from
// the ring's app, bedtime guidance and rest mode (Day); the same for the newest day plus the ring
// itself (Today); the workout list, its weekly totals and one workout's curve (Workouts).

const WORKOUT_COLUMNS = ["activity", "intensity", "source", "start_datetime", "end_datetime", "duration", "calories", "distance", "label"] as const;
const SESSION_COLUMNS = ["type", "mood", "start_datetime", "end_datetime", "duration"] as const;
const TAG_COLUMNS = ["tag_type_code", "custom_name", "start_time", "end_time", "end_day", "comment"] as const;
const BEDTIME_COLUMNS = ["status", "recommendation", "start_offset", "end_offset", "day_tz"] as const;

/** The person's UTC offset on each local day (from the activity documents' local timestamps). */
export async function dayOffsets(userId: string, from: string, to: string): Promise<(day: string) => number> {
  const known = new Map<string, number>();
  for (const r of await getActivityTimestamps({ userId, from, to })) {
    const o = offsetOfIso(r.timestamp);
    if (o !== null) known.set(r.day, o);
  }
  return offsetResolver(known);
}

const str = (v: unknown): string | null => (typeof v === "string" && v ? v : null);
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

function workoutItem(r: Record<string, unknown> & { documentId: string | null; day: string | null }): WorkoutItem {
  return {
    id: String(r.documentId ?? ""),
    day: String(r.day ?? ""),
    activity: str(r.activity) ?? "workout",
    intensity: str(r.intensity),
    source: str(r.source),
    start: str(r.start_datetime),
    end: str(r.end_datetime),
    duration: num(r.duration),
    calories: num(r.calories),
    distance: num(r.distance),
    label: str(r.label),
  };
}

/** A span on a day's local clock (minutes from its midnight; the document's own offset). */
type Span = { startMin: number | null; endMin: number | null };
const spanOn = (day: string, start: string | null, end: string | null): Span => ({
  startMin: start ? minutesFrom(day, start) : null,
  endMin: end ? minutesFrom(day, end) : null,
});

export type DayWorkout = WorkoutItem & Span;
export type DaySession = { id: string; type: string | null; mood: string | null; start: string | null; end: string | null; duration: number | null } & Span;
export type DayRingTag = { id: string; tagId: string | null; name: string; code: string | null; comment: string | null; time: string | null };
export type RestMode = { id: string; startDay: string; endDay: string | null; ongoing: boolean };

export type DayRecords = {
  /** the person's UTC offset that day (minutes), which puts the samples on the local clock */
  offsetMinutes: number;
  /** the day's heart rate, minutes from local midnight, coloured by source */
  heartRate: CurvePoint[];
  workouts: DayWorkout[];
  sessions: DaySession[];
  ringTags: DayRingTag[];
  /** that evening's bedtime guidance */
  bedtime: Bedtime | null;
  /** rest mode on that day, if it was */
  restMode: RestMode | null;
};

async function restModeOn(userId: string, day: string): Promise<RestMode | null> {
  // a zero-length toggle (start = end, as most real rows are) is not a period of rest
  const modes = (await getRestModes({ userId, from: day, to: day })).filter((m) => !(m.start_time && m.start_time === m.end_time));
  const m = modes.at(-1);
  return m ? { id: m.documentId, startDay: m.day, endDay: m.end_day, ongoing: m.end_day === null } : null;
}

async function bedtimeFor(userId: string, day: string): Promise<Bedtime | null> {
  const row = (await getDocumentRows<BedtimeRow>({ userId, collection: "sleep_time", from: day, to: day, columns: BEDTIME_COLUMNS })).at(-1);
  return row ? bedtimeOf(row) : null;
}

/** The newest bedtime guidance as stored (the window's offsets and zone: lib/metrics/bedtime.ts). */
export async function getNewestBedtimeRow(userId: string): Promise<BedtimeRow | null> {
  const row = await getNewestDocumentRow({ userId, collection: "sleep_time", columns: BEDTIME_COLUMNS });
  return row ? (row as unknown as BedtimeRow) : null;
}

/** The ring's battery readings with an instant in [from, to] (ms), oldest first. */
export async function getBatterySamples(userId: string, from: number, to: number): Promise<BatterySample[]> {
  const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const days = await readSampleDays({ collection: "ring_battery_level", userId, fromDay: utcDay(from), toDay: utcDay(to) });
  const flag = (v: unknown) => (typeof v === "boolean" ? v : null);
  const out: BatterySample[] = [];
  for (const { columns: c } of days) {
    for (let i = 0; i < c.t.length; i++) {
      const t = c.t[i]!;
      const level = num(c.fields.level?.[i]);
      if (t >= from && t <= to && level !== null) out.push({ t, level, charging: flag(c.fields.charging?.[i]), inCharger: flag(c.fields.in_charger?.[i]) });
    }
  }
  return out;
}

async function workoutsOf(opts: RangeOptions): Promise<DayWorkout[]> {
  return (await getDocumentRows({ ...opts, collection: "workout", columns: WORKOUT_COLUMNS }))
    .map(workoutItem)
    .map((w) => ({ ...w, ...spanOn(w.day, w.start, w.end) }))
    .sort((a, b) => (a.start ?? "").localeCompare(b.start ?? ""));
}

async function sessionsOf(opts: RangeOptions): Promise<DaySession[]> {
  return (await getDocumentRows({ ...opts, collection: "session", columns: SESSION_COLUMNS }))
    .map((r) => ({
      id: String(r.documentId ?? ""),
      type: str(r.type),
      mood: str(r.mood),
      start: str(r.start_datetime),
      end: str(r.end_datetime),
      duration: num(r.duration),
      ...spanOn(r.day, str(r.start_datetime), str(r.end_datetime)),
    }))
    .sort((a, b) => (a.start ?? "").localeCompare(b.start ?? ""));
}

/** Everything else the ring recorded on one (local) day. */
export async function getDayRecords(userId: string, day: string): Promise<DayRecords> {
  const range = { userId, from: day, to: day };
  const offset = (await dayOffsets(userId, addDays(day, -1), addDays(day, 1)))(day);
  const utc = utcDaysFor(day, day);
  const hr = await readSampleDays({ collection: "heartrate", userId, fromDay: utc.from, toDay: utc.to });
  const ringTags: DayRingTag[] = (await getDocumentRows({ ...range, collection: "enhanced_tag", columns: TAG_COLUMNS })).map((r) => {
    const tag = ringTagOf({ tag_type_code: str(r.tag_type_code), custom_name: str(r.custom_name) });
    return {
      id: String(r.documentId ?? ""),
      tagId: tag?.key ?? null,
      name: tag?.name ?? "Note",
      code: str(r.tag_type_code),
      comment: str(r.comment),
      time: str(r.start_time),
    };
  });
  return {
    offsetMinutes: offset,
    heartRate: localDayCurve(hr, day, offset),
    workouts: await workoutsOf(range),
    sessions: await sessionsOf(range),
    ringTags,
    bedtime: await bedtimeFor(userId, day),
    restMode: await restModeOn(userId, day),
  };
}

export type RingStatus = {
  /** the newest battery reading */
  battery: { level: number | null; charging: boolean | null; at: string } | null;
  /** the ring in use (the newest set up) */
  ring: { hardware: string | null; design: string | null; color: string | null; size: number | null; firmware: string | null } | null;
};

export type TodayRecords = {
  workouts: DayWorkout[];
  sessions: DaySession[];
  bedtime: Bedtime | null;
  restMode: RestMode | null;
} & RingStatus;

/** The ring's own state: its battery and firmware. */
export async function getRingStatus(userId: string): Promise<RingStatus> {
  const b = await latestSample("ring_battery_level", userId);
  const r = (await getRings(userId))[0];
  return {
    battery: b
      ? { level: num(b.fields.level), charging: typeof b.fields.charging === "boolean" ? b.fields.charging : null, at: new Date(b.t).toISOString() }
      : null,
    ring: r ? { hardware: r.hardware_type, design: r.design, color: r.color, size: r.size, firmware: r.firmware_version } : null,
  };
}

/** Today's records: the newest day's workouts and sessions, that evening's bedtime, rest mode, the ring. */
export async function getTodayRecords(userId: string, day: string | null): Promise<TodayRecords> {
  const status = await getRingStatus(userId);
  if (!day) return { workouts: [], sessions: [], bedtime: null, restMode: null, ...status };
  const range = { userId, from: day, to: day };
  return {
    workouts: await workoutsOf(range),
    sessions: await sessionsOf(range),
    bedtime: await bedtimeFor(userId, day),
    restMode: await restModeOn(userId, day),
    ...status,
  };
}

// ---------------------------------------------------------------------------------------
// Workouts
// ---------------------------------------------------------------------------------------

/** At most this many workouts in one answer (about 25 years of them). */
export const WORKOUTS_MAX = 10_000;

export type WorkoutsResponse = {
  from: string;
  to: string;
  /** every activity in the range (for the filter), most frequent first */
  activities: string[];
  workouts: WorkoutItem[];
  weekly: WeeklyTotals[];
  truncated: boolean;
};

/** The workouts in a range, newest first, filtered by activity and intensity, with weekly totals of the filtered ones. */
export async function listWorkouts(opts: RangeOptions & { activity?: string; intensity?: string }): Promise<WorkoutsResponse> {
  const all = (await getDocumentRows({ ...opts, collection: "workout", columns: WORKOUT_COLUMNS })).map(workoutItem);
  const counts = new Map<string, number>();
  for (const w of all) counts.set(w.activity, (counts.get(w.activity) ?? 0) + 1);
  const filtered = all.filter((w) => (!opts.activity || w.activity === opts.activity) && (!opts.intensity || w.intensity === opts.intensity));
  const newest = [...filtered].sort((a, b) => (b.start ?? b.day).localeCompare(a.start ?? a.day));
  return {
    from: opts.from,
    to: opts.to,
    activities: [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([a]) => a),
    workouts: newest.slice(0, WORKOUTS_MAX),
    weekly: weeklyTotals(filtered, opts.from, opts.to),
    truncated: newest.length > WORKOUTS_MAX,
  };
}

export type WorkoutDetail = {
  workout: WorkoutItem;
  /** the heart rate during it: seconds from its start */
  heartRate: Array<{ s: number; bpm: number; source: string | null }>;
  /** the document as the ring service sent it */
  raw: unknown;
};

/** One workout with its heart-rate curve (the samples between its start and end). */
export async function getWorkout(userId: string, id: string): Promise<WorkoutDetail> {
  const row = await getDocumentById({ userId, collection: "workout", documentId: id, columns: WORKOUT_COLUMNS });
  if (!row) throw new AppError("not_found", "No such workout.");
  const workout = workoutItem(row);
  const start = workout.start ? instantOf(workout.start) : Number.NaN;
  const end = workout.end ? instantOf(workout.end) : Number.NaN;
  let heartRate: WorkoutDetail["heartRate"] = [];
  if (Number.isFinite(start) && Number.isFinite(end) && end > start) {
    const fromDay = new Date(start).toISOString().slice(0, 10);
    const toDay = new Date(end).toISOString().slice(0, 10);
    const days = await readSampleDays({ collection: "heartrate", userId, fromDay, toDay });
    heartRate = stretchCurve(days, start, end + 1).map((p) => ({ s: Math.round((p.t - start) / 1000), bpm: p.bpm, source: p.source }));
  }
  let raw: unknown = null;
  try {
    raw = JSON.parse(row.raw);
  } catch {
    raw = null;
  }
  return { workout, heartRate, raw };
}
