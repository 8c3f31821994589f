// One row per day of the cycle, as the Cycle view, the read API and the Today card show them.
// Pure: lib/services/cycle.ts reads the nights, entries and documents and calls cycleDayRows.
//
// A day's cycle day, phase and ovulation are read with everything known up to the last day
// asked for (a completed cycle's shift is fitted on all its nights). A day's next period is the
// prediction as it stood on that day, so a past day shows what the card said then.
import type { CyclePhase } from "@/lib/cycle";
import { addDays, diffDays } from "@/lib/days";
import { analyseCycles, phaseIn, cycleAt, type CycleAnalysis, type CycleSource, type FitCache } from "@/lib/signals/cycle";

export type CycleDayRow = {
  day: string;
  cycle_day: number | null;
  phase: CyclePhase;
  ovulation: boolean;
  next_period: { from: string; to: string } | null;
};

export type CycleSummary = {
  days: CycleDayRow[];
  /** the cycles that touch from … to (length null: the current one, or a start not logged) */
  cycles: Array<{ start: string; length: number | null; ovulation: string | null }>;
  /** the prediction standing on `to` */
  prediction: { from: string; to: string; sd_days: number } | null;
  /** the analysis on `to` */
  analysis: CycleAnalysis;
};

/** The rows of from … to (both on or after src.start), everything read as known on `to`. */
export function cycleDayRows(src: CycleSource, from: string, to: string): CycleSummary {
  const a = diffDays(src.start, from);
  const b = diffDays(src.start, to);
  const cache: FitCache = new Map();
  const final = analyseCycles(src, b, cache);
  const day = (i: number) => addDays(src.start, i);
  const days: CycleDayRow[] = [];
  for (let i = a; i <= b; i++) {
    const c = cycleAt(final.cycles, i);
    const then = analyseCycles(src, i, cache).prediction;
    days.push({
      day: day(i),
      cycle_day: c && (c.end === null || i < c.end) ? i - c.start + 1 : null,
      phase: phaseIn(final, i),
      ovulation: c !== null && c.ovulation === i,
      next_period: then ? { from: day(then.from), to: day(then.to) } : null,
    });
  }
  const cycles = final.cycles
    .filter((c) => (c.end === null || c.end > a) && c.start <= b)
    .map((c) => ({
      start: day(c.start),
      length: c.end === null || c.end - c.start > 60 ? null : c.end - c.start,
      ovulation: c.ovulation === null ? null : day(c.ovulation),
    }));
  const p = final.prediction;
  return { days, cycles, prediction: p ? { from: day(p.from), to: day(p.to), sd_days: p.sd } : null, analysis: final };
}
