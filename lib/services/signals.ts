import "server-only";
import { AppError } from "@/lib/http/errors";
import type { SignalSettings } from "@/lib/schemas/requests";
import { readDataVersion } from "@/lib/db/queries/data-version";
import { getDailyColumns, getDocumentRows, getRestModes, getSleepPeriodColumns } from "@/lib/db/queries/ring-data";
import { findSignalSettings, updateSignalSettings } from "@/lib/db/queries/signal-settings";
import { addDays, dayRange, diffDays } from "@/lib/days";
import { pickMainSleep, groupByDay, toDense, type DayValue } from "@/lib/metrics/series";
import type { Num } from "@/lib/metrics/stats";
import { DEFAULT_FREE_DAYS, SIGNAL_KINDS, SIGNALS_MAX_DAYS, type SignalKind } from "@/lib/signals/catalog";
import { buildSignalDays, LOAD_WARMUP_DAYS, SIGNAL_WARMUP_DAYS, type SignalDay } from "@/lib/signals/signal-days";
import { sleepDebtSeries } from "@/lib/signals/sleep-debt";
import { sleepIntervals, sleepSecondsByDay, type SleepPeriodInput } from "@/lib/signals/sleep-times";
import { dailyLoad, type DayLoad } from "@/lib/signals/training-load";
import { REGULARITY } from "@/lib/signals/regularity";
import { VersionedMemo } from "@/lib/limits/versioned-memo";
import type { CycleSource } from "@/lib/signals/cycle";
import { cycleApplies, readCycleSource } from "@/lib/services/cycle";
import { getCycleSettings } from "@/lib/services/cycle-entries";

// The explained signals of one person (lib/signals: the maths): read from the stored documents
// on request, never stored, so an import, a re-sync or a deleted document can never leave a
// stale signal behind. Each answer is kept per data version (lib/db/queries/data-version.ts),
// which every write that can change it moves forward: the Today card, the alert worker's
// evaluations and repeated API reads of an unchanged person cost one computation.
//
// The early warning is judged against the person's cycle phase only for a reader of the cycle
// (`cycle`: the person's own pages, a token with the cycle kind) and while they track; for any
// other reader, or while they do not track, it is computed as for a person who does not track,
// and its rows carry no cycle field at all (cycle_adjusted, cycle_correction), so nothing of the
// answer tells the phase. The two are different answers, kept apart in the cache.

export type SignalsResponse = {
  from: string;
  to: string;
  /** the signals in each day's row (a token's data kinds may leave some out) */
  kinds: SignalKind[];
  settings: SignalSettings;
  days: SignalDay[];
};

const NIGHT_COLUMNS = [
  "documentId",
  "type",
  "bedtime_start",
  "bedtime_end",
  "total_sleep_duration",
  "time_in_bed",
  "lowest_heart_rate",
  "average_hrv",
  "average_breath",
] as const;

type PeriodRow = SleepPeriodInput & { documentId: string | null; lowest_heart_rate: number | null; average_hrv: number | null; average_breath: number | null };

const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

/** The person's settings (the defaults for someone not found, the default free days where none were set). */
export async function getSignalSettings(userId: string): Promise<SignalSettings> {
  const stored = await findSignalSettings(userId);
  return { sleepNeedMinutes: stored?.sleepNeedMinutes ?? null, freeDays: stored?.freeDays ?? [...DEFAULT_FREE_DAYS] };
}

/** Changes the sleep need and/or the free days; answers the settings now in force. */
export async function saveSignalSettings(userId: string, patch: Partial<SignalSettings>): Promise<SignalSettings> {
  if (!(await findSignalSettings(userId))) throw new AppError("not_found", "No such person.");
  await updateSignalSettings(userId, patch);
  return getSignalSettings(userId);
}

/** The 5-minute stages of the sleep periods in a range, by document id (only the raw JSON has them). */
async function sleepPhases(userId: string, from: string, to: string): Promise<Map<string, string>> {
  const rows = await getDocumentRows({ userId, collection: "sleep", from, to, columns: [], withRaw: true });
  const out = new Map<string, string>();
  for (const r of rows) {
    if (!r.documentId || typeof r.raw !== "string" || !r.raw.includes("sleep_phase_5_min")) continue;
    try {
      const phases = (JSON.parse(r.raw) as { sleep_phase_5_min?: unknown }).sleep_phase_5_min;
      if (typeof phases === "string") out.set(r.documentId, phases);
    } catch {
      /* a raw document that is not JSON has no stages */
    }
  }
  return out;
}

/** Sleep periods with the columns the signals read. */
async function readPeriods(userId: string, from: string, to: string): Promise<PeriodRow[]> {
  return (await getSleepPeriodColumns({ userId, from, to, columns: NIGHT_COLUMNS })).map((r) => ({
    day: r.day,
    documentId: typeof r.documentId === "string" ? r.documentId : null,
    type: typeof r.type === "string" ? r.type : null,
    bedtime_start: typeof r.bedtime_start === "string" ? r.bedtime_start : null,
    bedtime_end: typeof r.bedtime_end === "string" ? r.bedtime_end : null,
    total_sleep_duration: num(r.total_sleep_duration),
    time_in_bed: num(r.time_in_bed),
    lowest_heart_rate: num(r.lowest_heart_rate),
    average_hrv: num(r.average_hrv),
    average_breath: num(r.average_breath),
  }));
}

/** One daily column as values by day. */
async function dailyValues(
  userId: string,
  collection: "daily_readiness" | "vO2_max",
  column: string,
  from: string,
  to: string,
): Promise<DayValue<number | null>[]> {
  return (await getDailyColumns({ userId, collection, columns: [column], from, to })).map((r) => ({ day: r.day, value: num(r[column]) }));
}

/** Each day's training load from `from` to `to`. */
async function readLoads(userId: string, from: string, to: string): Promise<Array<DayLoad | null>> {
  const [activity, workouts] = await Promise.all([
    getDailyColumns({ userId, collection: "daily_activity", columns: ["medium_activity_met_minutes", "high_activity_met_minutes"], from, to }),
    getDocumentRows({ userId, collection: "workout", from, to, columns: ["duration", "intensity"] }),
  ]);
  const act = new Map(activity.map((r) => [r.day, { medium: num(r.medium_activity_met_minutes), high: num(r.high_activity_met_minutes) }]));
  const wk = new Map<string, Array<{ seconds: number | null; intensity: string | null }>>();
  for (const w of workouts)
    wk.set(w.day, [...(wk.get(w.day) ?? []), { seconds: num(w.duration), intensity: typeof w.intensity === "string" ? w.intensity : null }]);
  return dayRange(from, to).map((day) => dailyLoad({ activity: act.get(day) ?? null, workouts: wk.get(day) ?? [] }));
}

/** Days of nights before the signals' own start the phase correction reads (the shift's 120 nights and the cycles before). */
const CYCLE_SIGNAL_HISTORY_DAYS = 200;

/** The person's cycle for the phase correction: null unless tracking is on and applies. */
async function cycleOf(userId: string, from: string, to: string): Promise<CycleSource | null> {
  if (cycleApplies(await getCycleSettings(userId)).status !== null) return null;
  return (await readCycleSource(userId, from, to)).source;
}

/** A day's signals with the cycle's fields taken out of its early warning (for a reader without the cycle). */
function withoutCycle(day: SignalDay): SignalDay {
  return {
    ...day,
    signals: day.signals.map((s) => {
      if (s.kind !== "early_warning") return s;
      const { cycle_adjusted: _adjusted, cycle_correction: _correction, ...rest } = s;
      return rest;
    }),
  };
}

async function computeSignals(userId: string, from: string, to: string, kinds: ReadonlySet<SignalKind>, forCycleReader = true): Promise<SignalsResponse> {
  // the cycle's fields only for a reader of the cycle, and only while the person tracks it
  const withCycle = forCycleReader && (await getCycleSettings(userId)).tracking;
  const start = addDays(from, -SIGNAL_WARMUP_DAYS);
  const loadStart = addDays(from, -LOAD_WARMUP_DAYS);
  const needsSleep = kinds.has("early_warning") || kinds.has("sleep_debt") || kinds.has("regularity");
  const needsReadiness = kinds.has("early_warning") || kinds.has("sleep_debt");
  const cycleStart = addDays(start, -CYCLE_SIGNAL_HISTORY_DAYS);
  const [settings, periods, readiness, vo2, restModes, loads, phases, cycle] = await Promise.all([
    getSignalSettings(userId),
    needsSleep ? readPeriods(userId, start, to) : Promise.resolve([]),
    needsReadiness
      ? getDailyColumns({ userId, collection: "daily_readiness", columns: ["score", "temperature_deviation"], from: start, to })
      : Promise.resolve([]),
    kinds.has("training_load") ? dailyValues(userId, "vO2_max", "vo2_max", start, to) : Promise.resolve([]),
    kinds.has("early_warning") ? getRestModes({ userId, from: start, to }) : Promise.resolve([]),
    kinds.has("training_load") ? readLoads(userId, loadStart, to) : Promise.resolve([]),
    kinds.has("regularity") ? sleepPhases(userId, addDays(from, -(REGULARITY.jetLagDays + 1)), to) : Promise.resolve(new Map<string, string>()),
    kinds.has("early_warning") && withCycle ? cycleOf(userId, cycleStart, to) : Promise.resolve(null),
  ]);
  const dense = (rows: DayValue<number | null>[]): Num[] => toDense(rows, start, to);
  const mains = [...groupByDay(periods)].map(([day, list]) => ({ day, main: pickMainSleep(list) }));
  const night = (col: "lowest_heart_rate" | "average_hrv" | "average_breath") => dense(mains.map((m) => ({ day: m.day, value: m.main?.[col] ?? null })));
  const len = diffDays(start, to) + 1;
  const restMode = new Array<boolean>(len).fill(false);
  for (const r of restModes) {
    const a = Math.max(0, diffDays(start, r.day));
    const b = r.end_day === null ? len - 1 : Math.min(len - 1, diffDays(start, r.end_day));
    for (let i = a; i <= b; i++) restMode[i] = true;
  }
  const withPhases = periods.map((p) => (p.documentId && phases.has(p.documentId) ? { ...p, sleep_phase_5_min: phases.get(p.documentId)! } : p));
  const days = buildSignalDays({
    from,
    to,
    start,
    physiology: {
      temperature_deviation: dense(readiness.map((r) => ({ day: r.day, value: num(r.temperature_deviation) }))),
      resting_heart_rate: night("lowest_heart_rate"),
      hrv: night("average_hrv"),
      breathing_rate: night("average_breath"),
    },
    restMode,
    sleepTotal: dense([...sleepSecondsByDay(periods)].map(([day, value]) => ({ day, value }))),
    readiness: dense(readiness.map((r) => ({ day: r.day, value: num(r.score) }))),
    vo2Max: dense(vo2),
    intervals: kinds.has("regularity") ? sleepIntervals(withPhases) : [],
    loadStart,
    loads,
    settings: { sleepNeedS: settings.sleepNeedMinutes === null ? null : settings.sleepNeedMinutes * 60, freeDays: settings.freeDays },
    kinds,
    cycle: cycle && { source: cycle, offset: diffDays(cycleStart, start) },
  });
  return { from, to, kinds: SIGNAL_KINDS.filter((k) => kinds.has(k)), settings, days: withCycle ? days : days.map(withoutCycle) };
}

/** Answers kept for the people's current data versions: 32 at most (≤ 366 days each, SIGNALS_MAX_DAYS). */
const memo = new VersionedMemo<SignalsResponse>(32);

/**
 * The signals of each day from `from` to `to` (at most SIGNALS_MAX_DAYS, the routes' schema
 * checks it), of the kinds asked for (default: all). `cycle` false: for a reader without the
 * cycle (default true: the person's own view, cycle-aware while they track).
 */
export async function getSignals(opts: { userId: string; from: string; to: string; kinds?: readonly SignalKind[]; cycle?: boolean }): Promise<SignalsResponse> {
  const kinds = new Set(opts.kinds ?? SIGNAL_KINDS);
  const withCycle = opts.cycle ?? true;
  const key = `${opts.from}|${opts.to}|${[...kinds].sort().join(",")}|${withCycle ? "cycle" : "no-cycle"}`;
  return memo.get(opts.userId, await readDataVersion(opts.userId), key, () => computeSignals(opts.userId, opts.from, opts.to, kinds, withCycle));
}

/** Sleep debt (seconds) by day, for the "signals.sleep_debt" metric's charts. */
export async function getSleepDebtValues(opts: { userId: string; from: string; to: string }): Promise<DayValue<number | null>[]> {
  const start = addDays(opts.from, -SIGNAL_WARMUP_DAYS);
  const [settings, periods, readiness] = await Promise.all([
    getSignalSettings(opts.userId),
    getSleepPeriodColumns({ userId: opts.userId, from: start, to: opts.to, columns: ["type", "total_sleep_duration", "time_in_bed"] }),
    getDailyColumns({ userId: opts.userId, collection: "daily_readiness", columns: ["score"], from: start, to: opts.to }),
  ]);
  const sleep = toDense(
    [
      ...sleepSecondsByDay(
        periods.map((p) => ({
          day: p.day,
          type: typeof p.type === "string" ? p.type : null,
          total_sleep_duration: num(p.total_sleep_duration),
          time_in_bed: num(p.time_in_bed),
        })),
      ),
    ].map(([day, value]) => ({ day, value })),
    start,
    opts.to,
  );
  const off = diffDays(start, opts.from);
  const debt = sleepDebtSeries(
    sleep,
    toDense(
      readiness.map((r) => ({ day: r.day, value: num(r.score) })),
      start,
      opts.to,
    ),
    settings.sleepNeedMinutes === null ? null : settings.sleepNeedMinutes * 60,
    off,
  );
  return dayRange(opts.from, opts.to)
    .map((day, k) => ({ day, value: debt[off + k] ?? null }))
    .filter((d) => d.value !== null);
}

/** The signals of every day from `from` to `to`, a year at a time (for the export, streamed). */
export async function* signalDaysInChunks(userId: string, from: string, to: string): AsyncGenerator<SignalDay[]> {
  for (let a = from; a <= to; a = addDays(a, SIGNALS_MAX_DAYS)) {
    const b = addDays(a, SIGNALS_MAX_DAYS - 1) < to ? addDays(a, SIGNALS_MAX_DAYS - 1) : to;
    yield (await computeSignals(userId, a, b, new Set(SIGNAL_KINDS))).days;
  }
}

/** A signal as one CSV line's fields: its level or value, its unit, its status. */
export function signalCsvFields(s: SignalDay["signals"][number]): { level: string | null; value: number | null; unit: string | null; status: string } {
  if (s.kind === "early_warning") return { level: s.level, value: s.flags, unit: "flags", status: s.muted ? `${s.status} (rest mode)` : s.status };
  if (s.kind === "training_load") return { level: s.zone, value: s.value, unit: "ratio", status: s.status };
  return { level: null, value: s.value, unit: s.unit, status: s.status };
}
