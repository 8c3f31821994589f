// A single day's documents → what the day view draws: the hypnogram of a sleep period, its
// heart-rate and HRV curves and the activity class timeline. Times stay in the ring's local
// clock (the offset written in the document), whatever the browser's time zone is.
import { countsAsSleep, pickMainSleep } from "@/lib/metrics/series";

export type PublicSample = { interval: number; items: Array<number | null>; timestamp: string };

/** Reads a PublicSample ({interval, items, timestamp}) out of unknown JSON; null if malformed. */
export function parseSample(raw: unknown): PublicSample | null {
  if (!raw || typeof raw !== "object") return null;
  const r = raw as Record<string, unknown>;
  if (typeof r.interval !== "number" || !(r.interval > 0) || !Array.isArray(r.items) || typeof r.timestamp !== "string") {
    return null;
  }
  const items = r.items.map((v) => (typeof v === "number" && Number.isFinite(v) ? v : null));
  return { interval: r.interval, items, timestamp: r.timestamp };
}

/**
 * Minutes since local midnight of the time written in an ISO string ("2024-10-10T23:41:00+02:00"
 * → 1421), with seconds as a fraction. Null if it has no time part.
 */
export function localMinutes(iso: string): number | null {
  const m = /T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?/.exec(iso);
  if (!m) return null;
  return Number(m[1]) * 60 + Number(m[2]) + Number(m[3] ?? 0) / 60;
}

/** The local date part of an ISO string. */
export function localDate(iso: string): string {
  return iso.slice(0, 10);
}

/**
 * Minutes of `iso` on a clock that starts at local midnight of `anchorDate`: a time on the next
 * date gets 1440 added, so a night's axis runs on past midnight (e.g. 22:00 → 1320, 06:30 → 1830).
 */
export function minutesFrom(anchorDate: string, iso: string): number | null {
  const min = localMinutes(iso);
  if (min === null) return null;
  const d = localDate(iso);
  const dayDiff = Math.round((Date.parse(`${d}T00:00:00Z`) - Date.parse(`${anchorDate}T00:00:00Z`)) / 86_400_000);
  return min + dayDiff * 1440;
}

/** "23:05" for minutes on an axis that may run past midnight. */
export function formatClock(minutes: number): string {
  const m = ((Math.round(minutes) % 1440) + 1440) % 1440;
  return `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
}

export type SamplePoint = { t: number; value: number | null };

/** A sample's points on the clock of `anchorDate` (minutes); null items stay as gaps. */
export function samplePoints(sample: PublicSample, anchorDate: string): SamplePoint[] {
  const t0 = minutesFrom(anchorDate, sample.timestamp);
  if (t0 === null) return [];
  const step = sample.interval / 60;
  return sample.items.map((value, i) => ({ t: t0 + i * step, value }));
}

export type SleepPhase = "deep" | "light" | "rem" | "awake";
export const SLEEP_PHASES: readonly SleepPhase[] = ["awake", "rem", "light", "deep"];
const PHASE_OF: Record<string, SleepPhase> = { "1": "deep", "2": "light", "3": "rem", "4": "awake" };

export type Segment<K extends string> = { kind: K; start: number; end: number };

/**
 * sleep_phase_5_min ("1" deep, "2" light, "3" REM, "4" awake, one char per 5 minutes from
 * bedtime_start) → merged segments on the clock of `anchorDate`, plus minutes per phase.
 */
export function sleepPhaseSegments(
  phases: string,
  bedtimeStart: string,
  anchorDate: string,
): { segments: Segment<SleepPhase>[]; minutes: Record<SleepPhase, number> } {
  return fiveMinuteSegments(phases, bedtimeStart, anchorDate, { deep: 0, light: 0, rem: 0, awake: 0 }, (c) => PHASE_OF[c]);
}

export type ActivityClass = "non_wear" | "rest" | "inactive" | "low" | "medium" | "high";
export const ACTIVITY_CLASSES: readonly ActivityClass[] = ["non_wear", "rest", "inactive", "low", "medium", "high"];
export const ACTIVITY_CLASS_LABELS: Record<ActivityClass, string> = {
  non_wear: "Not worn",
  rest: "Rest",
  inactive: "Inactive",
  low: "Low",
  medium: "Medium",
  high: "High",
};

/**
 * class_5_min ("0" non-wear … "5" high, one char per 5 minutes from the activity day's start,
 * 04:00 local) → merged segments on the clock of `anchorDate`, plus minutes per class.
 */
export function activityClassSegments(
  classes: string,
  start: string,
  anchorDate: string,
): { segments: Segment<ActivityClass>[]; minutes: Record<ActivityClass, number> } {
  return fiveMinuteSegments(classes, start, anchorDate, { non_wear: 0, rest: 0, inactive: 0, low: 0, medium: 0, high: 0 }, (c) =>
    /[0-5]/.test(c) ? ACTIVITY_CLASSES[Number(c)] : undefined,
  );
}

/**
 * One char per 5 minutes from `start` → runs of the same kind merged into segments on the clock
 * of `anchorDate`, plus the minutes of each kind (`minutes`: every kind at 0). `kindOf` reads a
 * char; a char of no kind (undefined) is skipped.
 */
function fiveMinuteSegments<K extends string>(
  chars: string,
  start: string,
  anchorDate: string,
  minutes: Record<K, number>,
  kindOf: (c: string) => K | undefined,
): { segments: Segment<K>[]; minutes: Record<K, number> } {
  const t0 = minutesFrom(anchorDate, start);
  const segments: Segment<K>[] = [];
  if (t0 === null) return { segments, minutes };
  for (let i = 0; i < chars.length; i++) {
    const kind = kindOf(chars[i] ?? "");
    if (!kind) continue;
    minutes[kind] += 5;
    const s = t0 + i * 5;
    const last = segments[segments.length - 1];
    if (last && last.kind === kind && last.end === s) last.end = s + 5;
    else segments.push({ kind, start: s, end: s + 5 });
  }
  return { segments, minutes };
}

// ---------------------------------------------------------------------------------------
// The day view: every document of a day → what the page draws
// ---------------------------------------------------------------------------------------

export type DocumentEntry = { row: Record<string, unknown>; raw: unknown };

export type DayPeriod = {
  documentId: string;
  type: string | null;
  role: "main" | "nap" | "other";
  bedtimeStart: string | null;
  bedtimeEnd: string | null;
  /** the date the clock minutes below count from (local date of bedtime start) */
  anchor: string | null;
  start: number | null;
  end: number | null;
  row: Record<string, unknown>;
  hypnogram: { segments: Segment<SleepPhase>[]; minutes: Record<SleepPhase, number> } | null;
  heartRate: SamplePoint[];
  hrv: SamplePoint[];
};

export type DayDetail = {
  day: string;
  previous: string | null;
  next: string | null;
  /** typed columns of each daily collection's document, by collection */
  daily: Record<string, Record<string, unknown>>;
  /** the documents as the ring service sent them, by collection ("sleep" holds a list) */
  raw: Record<string, unknown>;
  periods: DayPeriod[];
  activity: { anchor: string; segments: Segment<ActivityClass>[]; minutes: Record<ActivityClass, number> } | null;
};

function str(v: unknown): string | null {
  return typeof v === "string" && v ? v : null;
}

export function buildDayDetail(input: {
  day: string;
  daily: Partial<Record<string, DocumentEntry>>;
  periods: DocumentEntry[];
  previous: string | null;
  next: string | null;
}): DayDetail {
  const daily: DayDetail["daily"] = {};
  const raw: DayDetail["raw"] = {};
  for (const [c, doc] of Object.entries(input.daily)) {
    if (!doc) continue;
    const { userId: _u, id: _i, ...row } = doc.row;
    daily[c] = row;
    raw[c] = doc.raw;
  }
  const likes = input.periods.map((p) => ({
    p,
    day: input.day,
    type: str(p.row.type),
    total_sleep_duration: typeof p.row.total_sleep_duration === "number" ? p.row.total_sleep_duration : null,
    time_in_bed: typeof p.row.time_in_bed === "number" ? p.row.time_in_bed : null,
  }));
  const main = pickMainSleep(likes);
  const periods: DayPeriod[] = likes.map((l) => {
    const r = (l.p.raw ?? {}) as Record<string, unknown>;
    const bedtimeStart = str(l.p.row.bedtime_start) ?? str(r.bedtime_start);
    const bedtimeEnd = str(l.p.row.bedtime_end) ?? str(r.bedtime_end);
    const anchor = bedtimeStart ? localDate(bedtimeStart) : null;
    const phases = str(r.sleep_phase_5_min);
    const hr = parseSample(r.heart_rate);
    const hrv = parseSample(r.hrv);
    const { userId: _u, id: _i, ...row } = l.p.row;
    return {
      documentId: String(l.p.row.documentId ?? ""),
      type: l.type,
      role: l === main ? "main" : countsAsSleep(l) ? "nap" : "other",
      bedtimeStart,
      bedtimeEnd,
      anchor,
      start: anchor && bedtimeStart ? minutesFrom(anchor, bedtimeStart) : null,
      end: anchor && bedtimeEnd ? minutesFrom(anchor, bedtimeEnd) : null,
      row,
      hypnogram: phases && bedtimeStart && anchor ? sleepPhaseSegments(phases, bedtimeStart, anchor) : null,
      heartRate: hr && anchor ? samplePoints(hr, anchor) : [],
      hrv: hrv && anchor ? samplePoints(hrv, anchor) : [],
    };
  });
  if (input.periods.length) raw.sleep = input.periods.map((p) => p.raw);
  const act = input.daily.daily_activity;
  let activity: DayDetail["activity"] = null;
  if (act) {
    const classes = str(act.row.class_5_min) ?? str((act.raw as Record<string, unknown> | null)?.class_5_min);
    const start = str(act.row.timestamp) ?? str((act.raw as Record<string, unknown> | null)?.timestamp) ?? `${input.day}T04:00:00`;
    if (classes) activity = { anchor: input.day, ...activityClassSegments(classes, start, input.day) };
  }
  return { day: input.day, previous: input.previous, next: input.next, daily, raw, periods, activity };
}
