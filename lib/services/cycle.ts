import "server-only";
import { AppError } from "@/lib/http/errors";
import type { CycleEntry, CyclePhase, CycleSettings } from "@/lib/cycle";
import { addDays, diffDays, todayIn } from "@/lib/days";
import { readDataVersion } from "@/lib/db/queries/data-version";
import { getAlertSettings } from "@/lib/db/queries/alerts";
import { listCycleEntries } from "@/lib/db/queries/cycle";
import { getDailyColumns, getDocumentRows, getSleepPeriodColumns } from "@/lib/db/queries/ring-data";
import { groupByDay, pickMainSleep, toDense } from "@/lib/metrics/series";
import { VersionedMemo } from "@/lib/limits/versioned-memo";
import { periodDaysFrom, type CycleDocument, type CycleSource } from "@/lib/signals/cycle";
import { cycleDayRows } from "@/lib/signals/cycle-days";
import { normalRangeRowsFrom } from "@/lib/signals/normal-range";
import { getCycleSettings } from "@/lib/services/cycle-entries";

// The person's cycle (lib/signals/cycle.ts: the maths), read from their nights, their own
// entries and the ring service's daily_cycle_phases documents on request, never stored; kept
// per data version like the signals. Nothing at all for someone who has not turned tracking on,
// and no phase on hormonal contraception or in pregnancy.

export type CycleDay = { day: string; cycle_day: number | null; phase: CyclePhase; ovulation: boolean; next_period: { from: string; to: string } | null };
export type CycleStatus = "off" | "not_applicable" | "insufficient_data" | "ok";
export type CycleResponse = {
  from: string;
  to: string;
  status: CycleStatus;
  /** why not ok, in words a person reads */
  message: string | null;
  /** [] when status is "off" or "not_applicable" */
  days: CycleDay[];
  cycles: Array<{ start: string; length: number | null; ovulation: string | null }>;
  prediction: { from: string; to: string; sd_days: number } | null;
  /** the nights' temperature deviation (°C), for the Cycle view */
  temperature: Array<{ day: string; value: number | null }>;
  entries: CycleEntry[];
};

/** The most days one answer covers (like the signals). */
export const CYCLE_MAX_DAYS = 366;
/** Days read before `from`: a year of cycles gives the person's own lengths. */
export const CYCLE_HISTORY_DAYS = 400;

const MESSAGES = {
  off: "Cycle tracking is off.",
  contraception: "Paused: hormonal contraception.",
  pregnant: "Paused: pregnancy.",
  noStart: "Log a period start to see your cycle days.",
} as const;

const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

/** Whether the settings give phases at all, and why not. */
export function cycleApplies(s: CycleSettings): { status: "off" | "not_applicable" | null; message: string | null } {
  if (!s.tracking) return { status: "off", message: MESSAGES.off };
  if (s.hormonalContraception) return { status: "not_applicable", message: MESSAGES.contraception };
  if (s.pregnant) return { status: "not_applicable", message: MESSAGES.pregnant };
  return { status: null, message: null };
}

/** The fields read from a served daily_cycle_phases document's raw JSON (every one optional; unknown ones ignored). */
function readDocument(day: string, raw: unknown): CycleDocument | null {
  if (typeof raw !== "string") return null;
  try {
    const d = JSON.parse(raw) as Record<string, unknown>;
    if (typeof d !== "object" || d === null) return null;
    return {
      day,
      phase: typeof d.phase === "string" ? d.phase : null,
      cycle_day: typeof d.cycle_day === "number" && Number.isInteger(d.cycle_day) ? d.cycle_day : null,
      predicted: typeof d.predicted === "boolean" ? d.predicted : null,
    };
  } catch {
    return null;
  }
}

/** The nights (temperature deviation, the main sleep's lowest heart rate) and period days from `start` to `to` (for the cycle and the phase-aware signals). */
export async function readCycleSource(userId: string, start: string, to: string): Promise<{ source: CycleSource; entries: CycleEntry[] }> {
  const [readiness, periods, entries, docs] = await Promise.all([
    getDailyColumns({ userId, collection: "daily_readiness", columns: ["temperature_deviation"], from: start, to }),
    getSleepPeriodColumns({
      userId,
      from: start,
      to,
      columns: ["type", "bedtime_start", "bedtime_end", "total_sleep_duration", "time_in_bed", "lowest_heart_rate"],
    }),
    listCycleEntries(userId, { from: start, to }),
    getDocumentRows({ userId, collection: "daily_cycle_phases", from: start, to, columns: [], withRaw: true }),
  ]);
  const documents = docs.map((d) => readDocument(d.day, d.raw)).filter((d): d is CycleDocument => d !== null);
  const { starts, ends } = periodDaysFrom(entries, documents);
  const temperature = toDense(
    readiness.map((r) => ({ day: r.day, value: num(r.temperature_deviation) })),
    start,
    to,
  );
  const nights = periods.map((p) => ({
    day: p.day,
    type: typeof p.type === "string" ? p.type : null,
    bedtime_start: typeof p.bedtime_start === "string" ? p.bedtime_start : null,
    bedtime_end: typeof p.bedtime_end === "string" ? p.bedtime_end : null,
    total_sleep_duration: num(p.total_sleep_duration),
    time_in_bed: num(p.time_in_bed),
    lowest_heart_rate: num(p.lowest_heart_rate),
  }));
  const heartRate = toDense(
    [...groupByDay(nights)].map(([day, list]) => ({ day, value: pickMainSleep(list)?.lowest_heart_rate ?? null })),
    start,
    to,
  );
  return { source: { start, temperature, heartRate, periodStarts: starts, periodEnds: ends }, entries };
}

/** The person's cycle for the phase-aware normal ranges of a chart from `from` to `to`: null unless tracking is on and applies. */
export async function cycleForNormalRange(userId: string, from: string, to: string): Promise<CycleSource | null> {
  if (cycleApplies(await getCycleSettings(userId)).status !== null) return null;
  const start = addDays(normalRangeRowsFrom(from, to, true), -CYCLE_HISTORY_DAYS);
  return (await readCycleSource(userId, start, to)).source;
}

async function computeCycle(userId: string, from: string, to: string): Promise<CycleResponse> {
  const settings = await getCycleSettings(userId);
  const applies = cycleApplies(settings);
  const empty = { from, to, days: [], cycles: [], prediction: null, temperature: [], entries: [] };
  if (applies.status) return { ...empty, status: applies.status, message: applies.message };
  const start = addDays(from, -CYCLE_HISTORY_DAYS);
  const { source, entries } = await readCycleSource(userId, start, to);
  const off = diffDays(start, from);
  const temperature = source.temperature.slice(off).map((value, k) => ({ day: addDays(from, k), value }));
  const shown = entries.filter((e) => e.day >= from && e.day <= to);
  const summary = cycleDayRows(source, from, to);
  const known = summary.analysis.cycles.length > 0;
  return {
    from,
    to,
    status: known ? "ok" : "insufficient_data",
    message: known ? null : MESSAGES.noStart,
    days: summary.days,
    cycles: summary.cycles,
    prediction: summary.prediction,
    temperature,
    entries: shown,
  };
}

/** Answers kept for the people's current data versions (≤ 366 days each). */
const memo = new VersionedMemo<CycleResponse>(32);

/** The cycle of each day from `from` to `to` (at most CYCLE_MAX_DAYS days). */
export async function getCycle(opts: { userId: string; from: string; to: string }): Promise<CycleResponse> {
  const span = diffDays(opts.from, opts.to) + 1;
  if (!(span >= 1)) throw new AppError("unprocessable_entity", "`from` must not be after `to`.");
  if (span > CYCLE_MAX_DAYS) throw new AppError("unprocessable_entity", `At most ${CYCLE_MAX_DAYS} days at a time.`);
  return memo.get(opts.userId, await readDataVersion(opts.userId), `${opts.from}|${opts.to}`, () => computeCycle(opts.userId, opts.from, opts.to));
}

/** Today's cycle day, phase and the next period window (null when tracking is off or paused). */
export async function getCycleToday(
  userId: string,
): Promise<{ day: string; cycle_day: number | null; phase: CyclePhase; next_period: { from: string; to: string } | null } | null> {
  const today = todayIn((await getAlertSettings(userId)).timeZone);
  const c = await getCycle({ userId, from: today, to: today });
  if (c.status === "off" || c.status === "not_applicable") return null;
  const d = c.days[0];
  return { day: today, cycle_day: d?.cycle_day ?? null, phase: d?.phase ?? "unknown", next_period: d?.next_period ?? null };
}
