import "server-only";
import { addDays, dayRange, diffDays } from "@/lib/days";
import { groupByDay, pickMainSleep, type SleepPeriodLike } from "@/lib/metrics/series";
import { MISSING_NIGHT, missingReason, type MissingReason, type NightFacts } from "@/lib/metrics/missing-night";
import { latestPossibleDay } from "@/lib/sync/plan";
import { getRestModes, getSleepPeriodColumns } from "@/lib/db/queries/ring-data";
import { getSyncState, type SyncStateRow } from "@/lib/db/queries/sync-state";
import { readSampleDays, type StoredSeriesDay } from "@/lib/db/queries/time-series";
import { dayOffsets } from "@/lib/services/records";
import { stateToday } from "@/lib/services/person-today";

// Why a day has no main sleep (lib/metrics/missing-night.ts decides): the facts of each night
// without one, read from what Ringside holds — the sleep collection's sync state, the rest-mode
// periods, the ring's battery readings and the heart-rate samples of the night.

/** The most days one question may cover (the Calendar's year). */
export const MISSING_NIGHTS_MAX_DAYS = 366;

/** Which of the person's data the reasons may read (a token reads only its kinds; the pages all). */
export type MissingNightSources = { battery: boolean; heartRate: boolean; restMode: boolean };
const ALL_SOURCES: MissingNightSources = { battery: true, heartRate: true, restMode: true };

/** The day up to which the sleep periods are downloaded: before the back-fill's resume point, or through the last sync. */
function downloadedThrough(state: SyncStateRow | undefined): { before?: string; through?: string } | null {
  if (!state) return null;
  if (!state.backfillDoneAt) return state.cursorStart ? { before: state.cursorStart.slice(0, 10) } : null;
  const last = state.lastSuccessAt ?? state.backfillDoneAt;
  const through = last ? latestPossibleDay(last.getTime()) : state.backfillTo;
  return through ? { through: state.backfillTo && state.backfillTo > through ? state.backfillTo : through } : null;
}

const isDownloaded = (day: string, d: ReturnType<typeof downloadedThrough>) =>
  d !== null && (d.before !== undefined ? day < d.before : d.through !== undefined && day <= d.through);

/** Each night's window, as instants (ms): from `fromMinute` after the day's local midnight (MISSING_NIGHT's by default) to its end. */
function nightWindow(day: string, offsetMinutes: number, fromMinute: number = MISSING_NIGHT.fromMinute): [number, number] {
  const midnight = Date.parse(`${day}T00:00:00Z`) - offsetMinutes * 60_000;
  return [midnight + fromMinute * 60_000, midnight + MISSING_NIGHT.toMinute * 60_000];
}

/** The days of `days` split into runs of consecutive days (each read from storage at once). */
function runsOf(days: readonly string[]): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const d of days) {
    const last = out.at(-1);
    if (last && diffDays(last[1], d) === 1) last[1] = d;
    else out.push([d, d]);
  }
  return out;
}

/** How many samples of the stored UTC days lie inside [from, to) (ms), and how many of them `flagged` says yes to. */
function countIn(days: readonly StoredSeriesDay[], from: number, to: number, flagged?: (fields: StoredSeriesDay["columns"]["fields"], i: number) => boolean) {
  let n = 0;
  let yes = 0;
  for (const { columns } of days) {
    const t = columns.t;
    for (let i = 0; i < t.length; i++) {
      if (t[i]! < from || t[i]! >= to) continue;
      n++;
      if (flagged?.(columns.fields, i)) yes++;
    }
  }
  return { n, yes };
}

const inCharger = (fields: StoredSeriesDay["columns"]["fields"], i: number) => fields.in_charger?.[i] === true || fields.charging?.[i] === true;
const NO_FACTS = { restMode: false, battery: { readings: 0, inCharger: 0 }, heartRateSamples: 0 };

/**
 * The reason of each day in [from, to] that has no main sleep (days with one are left out), up
 * to MISSING_NIGHTS_MAX_DAYS. `sources` narrows what the reasons may read.
 */
export async function getMissingReasons(opts: {
  userId: string;
  from: string;
  to: string;
  sources?: MissingNightSources;
}): Promise<Map<string, MissingReason>> {
  const { userId, sources = ALL_SOURCES } = opts;
  const from = diffDays(opts.from, opts.to) >= MISSING_NIGHTS_MAX_DAYS ? addDays(opts.to, -(MISSING_NIGHTS_MAX_DAYS - 1)) : opts.from;
  const to = opts.to;
  const out = new Map<string, MissingReason>();
  if (from > to) return out;
  const periods = await getSleepPeriodColumns<SleepPeriodLike>({
    userId,
    from,
    to,
    columns: ["day", "type", "total_sleep_duration", "time_in_bed"],
  });
  const byDay = groupByDay(periods);
  const missing = dayRange(from, to).filter((d) => !pickMainSleep(byDay.get(d) ?? []));
  if (missing.length === 0) return out;

  const [state, { today }, offsetOf] = await Promise.all([getSyncState(userId, "sleep"), stateToday(userId), dayOffsets(userId, addDays(from, -1), to)]);
  const downloaded = downloadedThrough(state);
  const restModes = sources.restMode
    ? (await getRestModes({ userId, from, to })).filter((m) => !(m.start_time && m.start_time === m.end_time)) // a zero-length toggle is no period of rest
    : [];
  for (const [a, b] of runsOf(missing.filter((d) => isDownloaded(d, downloaded)))) {
    // the UTC days that hold the run's nights, in any time zone
    const span = { fromDay: addDays(a, -2), toDay: addDays(b, 1) };
    const [battery, heart] = await Promise.all([
      sources.battery ? readSampleDays({ collection: "ring_battery_level", userId, ...span }) : [],
      sources.heartRate ? readSampleDays({ collection: "heartrate", userId, ...span }) : [],
    ]);
    for (const day of dayRange(a, b)) {
      const [w0, w1] = nightWindow(day, offsetOf(day));
      const charge = countIn(battery, w0, w1, inCharger);
      const facts: NightFacts = {
        hasMainSleep: false,
        downloaded: true,
        restMode: restModes.some((m) => m.day <= day && (m.end_day === null || m.end_day >= day)),
        battery: { readings: charge.n, inCharger: charge.yes },
        heartRateSamples: countIn(heart, ...nightWindow(day, offsetOf(day), MISSING_NIGHT.heartRateFromMinute)).n,
        daysAgo: diffDays(day, today),
      };
      out.set(day, missingReason(facts)!);
    }
  }
  for (const day of missing)
    if (!out.has(day)) out.set(day, missingReason({ ...NO_FACTS, hasMainSleep: false, downloaded: false, daysAgo: diffDays(day, today) })!);
  return new Map([...out].sort(([x], [y]) => (x < y ? -1 : 1)));
}

/** The reason of one day without a main sleep (null when it has one). */
export async function getMissingReason(userId: string, day: string, sources?: MissingNightSources): Promise<MissingReason | null> {
  return (await getMissingReasons({ userId, from: day, to: day, sources })).get(day) ?? null;
}
