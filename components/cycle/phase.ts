// The cycle's phases as the pages draw them: a name a person reads, and a fill for shading days
// (light enough that text and lines on top keep their contrast, in both themes). Pure.
import type { CyclePhase } from "@/lib/cycle";
import type { MetricId } from "@/lib/metrics/catalog";

/**
 * The most days the pages ask GET /api/cycle for at once: the route's cap (CYCLE_MAX_DAYS of
 * lib/schemas/cycle-query.ts, held equal by phase.test.ts), kept here so no page carries zod.
 */
export const CYCLE_FETCH_MAX_DAYS = 366;

/** The Trends charts shaded by phase (cycle tracking on): the four markers the cycle moves. */
export const CYCLE_SHADED_METRICS: readonly MetricId[] = [
  "readiness.temperature_deviation",
  "night.lowest_heart_rate",
  "night.average_hrv",
  "night.average_breath",
];

export const PHASE_LABEL: Record<CyclePhase, string> = {
  menstrual: "Menstrual (period)",
  follicular: "Follicular",
  luteal: "Luteal",
  unknown: "Unknown",
};

/** The fill of a phase's days on a chart; none for an unknown phase. */
export const PHASE_FILL: Record<CyclePhase, string | null> = {
  menstrual: "rgba(225, 29, 72, 0.16)",
  follicular: null,
  luteal: "rgba(245, 158, 11, 0.18)",
  unknown: null,
};

/** The solid colour of a phase in legends and marks: at least 3:1 against the card in both themes (rose-600, sky-600, amber-700). */
export const PHASE_SWATCH: Record<CyclePhase, string> = {
  menstrual: "#e11d48",
  follicular: "#0284c7",
  luteal: "#b45309",
  unknown: "#94a3b8",
};

/** Runs of days with the same shaded phase: [first index, last index, phase], for shading. */
export function phaseRuns(phases: ReadonlyArray<CyclePhase | null | undefined>): Array<{ start: number; end: number; phase: CyclePhase }> {
  const out: Array<{ start: number; end: number; phase: CyclePhase }> = [];
  phases.forEach((p, i) => {
    const last = out.at(-1);
    if (!p || !PHASE_FILL[p]) return;
    if (last && last.phase === p && last.end === i - 1) last.end = i;
    else out.push({ start: i, end: i, phase: p });
  });
  return out;
}
