// The sleep-need bench's scoring, shared by the bench (on what the app answered) and the accuracy
// test (on the pure functions): the need's error against the planted need, and the debt's error
// against the true debt (the same 14-night rule, from the planted need). Also the estimator
// Ringside had before issue 56, kept here only for the "before" figures.
import type { Num } from "@/lib/metrics/stats";
import { sleepDebtAt } from "@/lib/signals/sleep-debt";
import { SLEEP_NEED } from "@/lib/signals/sleep-need";
import type { NeedVariant, SleepNeedPerson } from "./sleep-need-people";

/** Issue 56's targets: the mean need error within ±10 min, every person within ±30 min, the mean debt within ±15 % of the true debt. */
export const SLEEP_NEED_TARGETS = { mean_need_error_min: 10, worst_need_error_min: 30, mean_debt_error_pct: 15 } as const;

/** What one person read on the scored day (seconds), and the truth. */
export type NeedReading = {
  key: string;
  variant: NeedVariant;
  trueNeedS: number;
  trueDebtS: number;
  needS: number;
  low: number | null;
  high: number | null;
  debtS: number;
  /** the estimator before issue 56, on the same nights */
  beforeNeedS: number;
  beforeDebtS: number;
};

type Errors = { mean: number; worst: number };

export type SleepNeedFigures = {
  people: number;
  /** estimated − planted need, minutes: the mean over people and the largest by size */
  need_error_min: Errors;
  /** (debt − true debt) / true debt, per cent */
  debt_error_pct: Errors;
  /** the share of people whose range holds the planted need */
  range_holds: number;
  /** the need's error of the "rising" people alone (readiness still rising above the need) */
  rising_need_error_min: Errors;
  before: { need_error_min: Errors; debt_error_pct: Errors; rising_need_error_min: Errors };
};

const r1 = (v: number) => Math.round(v * 10) / 10;
function errors(values: readonly number[]): Errors {
  if (values.length === 0) return { mean: 0, worst: 0 };
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const worst = values.reduce((w, v) => (Math.abs(v) > Math.abs(w) ? v : w), 0);
  return { mean: r1(mean), worst: r1(worst) };
}

/** The bench's block from each person's reading. */
export function sleepNeedBlock(readings: readonly NeedReading[]): SleepNeedFigures {
  const needErr = (rs: readonly NeedReading[], before: boolean) => errors(rs.map((x) => ((before ? x.beforeNeedS : x.needS) - x.trueNeedS) / 60));
  const debtErr = (before: boolean) =>
    errors(readings.filter((x) => x.trueDebtS > 0).map((x) => (100 * ((before ? x.beforeDebtS : x.debtS) - x.trueDebtS)) / x.trueDebtS));
  const rising = readings.filter((x) => x.variant === "rising");
  const held = readings.filter((x) => x.low !== null && x.high !== null && x.low <= x.trueNeedS + 60 && x.trueNeedS - 60 <= x.high).length;
  return {
    people: readings.length,
    need_error_min: needErr(readings, false),
    debt_error_pct: debtErr(false),
    range_holds: readings.length ? Math.round((1000 * held) / readings.length) / 1000 : 0,
    rising_need_error_min: needErr(rising, false),
    before: { need_error_min: needErr(readings, true), debt_error_pct: debtErr(true), rising_need_error_min: needErr(rising, true) },
  };
}

/** Whether a block meets the targets. */
export function sleepNeedMet(b: SleepNeedFigures): boolean {
  return (
    Math.abs(b.need_error_min.mean) <= SLEEP_NEED_TARGETS.mean_need_error_min &&
    Math.abs(b.need_error_min.worst) <= SLEEP_NEED_TARGETS.worst_need_error_min &&
    Math.abs(b.debt_error_pct.mean) <= SLEEP_NEED_TARGETS.mean_debt_error_pct
  );
}

/** The scored day: the person's last. The truth there, and the estimator before issue 56 on the same nights. */
export function truthAndBefore(p: SleepNeedPerson): Pick<NeedReading, "key" | "variant" | "trueNeedS" | "trueDebtS" | "beforeNeedS" | "beforeDebtS"> {
  const i = p.days - 1;
  const before = beforeNeed(p.sleep, p.readiness, i);
  return {
    key: p.key,
    variant: p.variant,
    trueNeedS: p.needS,
    trueDebtS: sleepDebtAt(p.sleep, i, p.needS).seconds ?? 0,
    beforeNeedS: before,
    beforeDebtS: sleepDebtAt(p.sleep, i, before).seconds ?? 0,
  };
}

/**
 * The need as Ringside estimated it before issue 56: the mean sleep of the nights i − 90 … i − 1
 * whose readiness is at or above the upper quartile (type 7), kept within 6–10 h; 8 h with
 * fewer than 28 nights.
 */
export function beforeNeed(sleep: readonly Num[], readiness: readonly Num[], i: number): number {
  const pairs: Array<[number, number]> = [];
  for (let j = Math.max(0, i - SLEEP_NEED.windowDays); j < i; j++) {
    const s = sleep[j];
    const r = readiness[j];
    if (s !== null && s !== undefined && r !== null && r !== undefined) pairs.push([s, r]);
  }
  if (pairs.length < 28) return SLEEP_NEED.defaultS;
  const sorted = pairs.map((p) => p[1]).sort((a, b) => a - b);
  const h = (sorted.length - 1) * 0.75;
  const cut = sorted[Math.floor(h)]! + (h - Math.floor(h)) * (sorted[Math.ceil(h)]! - sorted[Math.floor(h)]!);
  const top = pairs.filter((p) => p[1] >= cut);
  const mean = top.reduce((a, p) => a + p[0], 0) / top.length;
  return Math.min(SLEEP_NEED.maxS, Math.max(SLEEP_NEED.minS, mean));
}
