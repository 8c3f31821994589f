// One row per day of every signal, as the read API, the MCP tool, the pages and the export
// show them: each signal with its level or value, the inputs it used and the baseline it
// compared them with. Pure: lib/services/signals.ts reads the rows and calls buildSignalDays.
import { addDays, dayRange, diffDays } from "@/lib/days";
import type { Num } from "@/lib/metrics/stats";
import type { SignalKind } from "@/lib/signals/catalog";
import {
  computeEarlyWarning,
  EARLY_WARNING_MARKERS,
  type EarlyWarningInputs,
  type EarlyWarningLevel,
  type Marker,
  type MarkerRule,
} from "@/lib/signals/early-warning";
import type { CycleSource } from "@/lib/signals/cycle";
import { cycleCorrections } from "@/lib/signals/cycle-adjust";
import { computeRegularity } from "@/lib/signals/regularity";
import { sleepDebtAt } from "@/lib/signals/sleep-debt";
import { needSourceWords, sleepNeeds, type NeedSource } from "@/lib/signals/sleep-need";
import type { SleepInterval } from "@/lib/signals/sleep-times";
import { computeTrainingLoad, type DayLoad, type LoadZone } from "@/lib/signals/training-load";

/** Days of history before `from` the signals read (the longest: the sleep need's 90 nights before a 14-night debt). */
export const SIGNAL_WARMUP_DAYS = 104;
/** Days of load history before `from` the training load reads (its averages forget the start: (27/29)^180 < 10⁻⁵). */
export const LOAD_WARMUP_DAYS = 180;

export type SignalSettings = { sleepNeedS: number | null; freeDays: number[] };

export type EarlyWarningSignal = {
  kind: "early_warning";
  level: EarlyWarningLevel | null;
  status: "ok" | "insufficient_history" | "no_data";
  /** rest mode was on: the level is shown, no alert is sent */
  muted: boolean;
  flags: number;
  heartRateTwoNights: boolean;
  /** the night's values: °C, bpm (the night's lowest), ms, breaths a minute */
  inputs: Record<Marker, number | null>;
  /** each marker's baseline: the median of nights d−60 … d−3 (HRV's median in ms, its sd on the ln scale) */
  baseline: Record<Marker, { median: number; sd: number | null; nights: number } | null>;
  /** each marker's change against its baseline, its flag, and the rule that flagged it (its value and threshold) */
  markers: Array<{ marker: Marker; delta: number | null; threshold: number | null; flagged: boolean; mean3: number | null; rule: MarkerRule | null }>;
  /**
   * the night was judged against the person's cycle phase (cycle tracking on, enough nights of
   * each phase); absent for a reader without the cycle (lib/services/signals.ts)
   */
  cycle_adjusted?: boolean;
  /** what the correction was, in words (only when cycle_adjusted) */
  cycle_correction?: string;
};

export type SleepDebtSignal = {
  kind: "sleep_debt";
  /** hours owed (null: fewer than 7 of the 14 nights have data) */
  value: number | null;
  unit: "h";
  status: "ok" | "no_data";
  inputs: { nights: Array<number | null>; nightsWithData: number };
  baseline: {
    needH: number;
    needSource: NeedSource;
    /** the nights the estimate read (estimated), or had so far (default); 0 for the setting */
    needNights: number;
    /** how sure the estimate is: the need lies within lowH … highH (null for the setting and the default) */
    needRange: { lowH: number; highH: number } | null;
    /** the nights never reached the plateau: the need is at least needH, and the debt a lower bound */
    needAtLeast: boolean;
    /** the source in words: "your setting", "estimated from 84 nights", "default" */
    needSourceText: string;
  };
};

export type RegularitySignal = {
  kind: "regularity";
  /** the Sleep Regularity Index (null: fewer than 5 day pairs in 14 days) */
  value: number | null;
  unit: "index";
  status: "ok" | "no_data";
  inputs: { dayPairs: number; spreadNights: number; workNights: number; freeNights: number };
  baseline: { freeDays: number[] };
  spread: { bedtime: number | null; bedtimeSdMin: number | null; wakeTime: number | null; wakeTimeSdMin: number | null };
  socialJetLag: { hours: number | null; midSleepWork: number | null; midSleepFree: number | null; chronotype: number | null };
};

export type TrainingLoadSignal = {
  kind: "training_load";
  /** acute:chronic ratio (null before 28 days with data) */
  value: number | null;
  zone: LoadZone | null;
  status: "ok" | "insufficient_history" | "no_data";
  inputs: {
    load: number | null;
    activity: number | null;
    workouts: number | null;
    acute: number | null;
    daysWithData: number;
    vo2Max: number | null;
    vo2MaxDay: string | null;
  };
  baseline: { chronic: number | null };
};

export type Signal = EarlyWarningSignal | SleepDebtSignal | RegularitySignal | TrainingLoadSignal;
export type SignalDay = { day: string; signals: Signal[] };

export type SignalInputs = {
  from: string;
  to: string;
  /** the first day of the dense inputs below (from − SIGNAL_WARMUP_DAYS) */
  start: string;
  physiology: EarlyWarningInputs;
  restMode: readonly boolean[];
  /** all sleep of each day (main sleep and naps), seconds */
  sleepTotal: readonly Num[];
  readiness: readonly Num[];
  vo2Max: readonly Num[];
  /** the counted sleep periods from `start` on */
  intervals: readonly SleepInterval[];
  /** each day's load from `loadStart` to `to` */
  loadStart: string;
  loads: ReadonlyArray<DayLoad | null>;
  settings: SignalSettings;
  kinds: ReadonlySet<SignalKind>;
  /** the person's cycle (tracking on and applicable): its nights and period days, and the source's index of `start` */
  cycle?: { source: CycleSource; offset: number } | null;
};

const r = (v: number | null | undefined, d: number): number | null => {
  if (v === null || v === undefined || !Number.isFinite(v)) return null;
  const f = 10 ** d;
  return Math.round(v * f) / f;
};

const DECIMALS: Record<Marker, number> = { temperature_deviation: 2, resting_heart_rate: 1, hrv: 1, breathing_rate: 2 };

export function buildSignalDays(x: SignalInputs): SignalDay[] {
  const off = diffDays(x.start, x.from);
  const corrections = x.kinds.has("early_warning") && x.cycle ? cycleCorrections(x.physiology, x.cycle.source, x.cycle.offset) : [];
  const ew = x.kinds.has("early_warning") ? computeEarlyWarning(x.physiology, corrections) : [];
  const loadOff = diffDays(x.loadStart, x.from);
  const load = x.kinds.has("training_load") ? computeTrainingLoad(x.loads.map((l) => l?.load ?? null)) : [];
  let vo2: { value: number; day: string } | null = null;
  for (let i = 0; i < off; i++) {
    const v = x.vo2Max[i];
    if (v !== null && v !== undefined) vo2 = { value: v, day: addDays(x.start, i) };
  }
  const needs = x.kinds.has("sleep_debt") ? sleepNeeds(x.sleepTotal, x.readiness, off, diffDays(x.start, x.to), x.settings.sleepNeedS) : [];
  return dayRange(x.from, x.to).map((day, k) => {
    const i = off + k;
    const signals: Signal[] = [];
    if (x.kinds.has("early_warning")) signals.push(earlyWarningOf(ew[i]!, x.restMode[i] ?? false, corrections[i]?.description ?? null));
    if (x.kinds.has("sleep_debt")) {
      const need = needs[k]!;
      const debt = sleepDebtAt(x.sleepTotal, i, need.seconds);
      signals.push({
        kind: "sleep_debt",
        value: debt.seconds === null ? null : r(debt.seconds / 3600, 2),
        unit: "h",
        status: debt.seconds === null ? "no_data" : "ok",
        inputs: { nights: debt.nights.map((s) => (s === null ? null : r(s / 3600, 2))), nightsWithData: debt.nightsWithData },
        baseline: {
          needH: r(need.seconds / 3600, 2)!,
          needSource: need.source,
          needNights: need.nights,
          needRange: need.range && { lowH: r(need.range.low / 3600, 2)!, highH: r(need.range.high / 3600, 2)! },
          needAtLeast: need.atLeast,
          needSourceText: needSourceWords(need),
        },
      });
    }
    if (x.kinds.has("regularity")) {
      const g = computeRegularity(x.intervals, day, x.settings.freeDays);
      signals.push({
        kind: "regularity",
        value: r(g.sri, 1),
        unit: "index",
        status: g.sri === null ? "no_data" : "ok",
        inputs: { dayPairs: g.sriPairs, spreadNights: g.spreadNights, workNights: g.workNights, freeNights: g.freeNights },
        baseline: { freeDays: [...x.settings.freeDays] },
        spread: { bedtime: r(g.bedtime, 2), bedtimeSdMin: r(g.bedtimeSdMin, 0), wakeTime: r(g.wakeTime, 2), wakeTimeSdMin: r(g.wakeTimeSdMin, 0) },
        socialJetLag: { hours: r(g.socialJetLagH, 2), midSleepWork: r(g.midSleepWork, 2), midSleepFree: r(g.midSleepFree, 2), chronotype: r(g.chronotype, 2) },
      });
    }
    if (x.kinds.has("training_load")) {
      const v = x.vo2Max[i];
      if (v !== null && v !== undefined) vo2 = { value: v, day };
      const l = load[loadOff + k];
      const dl = x.loads[loadOff + k] ?? null;
      signals.push({
        kind: "training_load",
        value: r(l?.ratio, 2),
        zone: l?.zone ?? null,
        status: !l || l.daysWithData === 0 ? "no_data" : l.ratio === null ? "insufficient_history" : "ok",
        inputs: {
          load: r(dl?.load, 1),
          activity: r(dl?.activity, 1),
          workouts: r(dl?.workouts, 1),
          acute: r(l?.acute, 1),
          daysWithData: l?.daysWithData ?? 0,
          vo2Max: vo2?.value ?? null,
          vo2MaxDay: vo2?.day ?? null,
        },
        baseline: { chronic: r(l?.chronic, 1) },
      });
    }
    return { day, signals };
  });
}

function earlyWarningOf(n: ReturnType<typeof computeEarlyWarning>[number], muted: boolean, correction: string | null): EarlyWarningSignal {
  const byMarker = <T>(f: (m: (typeof n.markers)[number]) => T) => Object.fromEntries(n.markers.map((m) => [m.marker, f(m)])) as Record<Marker, T>;
  return {
    kind: "early_warning",
    level: n.level,
    status: n.status,
    muted,
    flags: n.flags,
    heartRateTwoNights: n.heartRateTwoNights,
    inputs: byMarker((m) => r(m.value, DECIMALS[m.marker])),
    baseline: byMarker((m) => (m.baseline ? { median: r(m.baseline.median, DECIMALS[m.marker])!, sd: r(m.baseline.sd, 3), nights: m.baseline.nights } : null)),
    markers: EARLY_WARNING_MARKERS.map((id) => {
      const m = n.markers.find((x) => x.marker === id)!;
      const d = id === "hrv" ? 3 : DECIMALS[id];
      const rule = m.rule && {
        name: m.rule.name,
        value: r(m.rule.value, d)!,
        threshold: r(m.rule.threshold, d)!,
        ...(m.rule.previous !== undefined ? { previous: r(m.rule.previous, d)! } : {}),
      };
      return { marker: id, delta: r(m.delta, d), threshold: r(m.threshold, d), flagged: m.flagged, mean3: r(m.mean3 ?? null, 2), rule };
    }),
    cycle_adjusted: correction !== null,
    ...(correction !== null ? { cycle_correction: correction } : {}),
  };
}
