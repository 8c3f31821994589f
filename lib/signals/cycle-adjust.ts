// The phase correction of the nightly markers, for a person who tracks their cycle. Pure.
//
// In the luteal phase a healthy woman's nights run warmer, with a higher lowest heart rate and a
// lower HRV (docs/signals.md). Each night is judged with what was known that night: the cycles
// as they stood then (lib/signals/cycle.ts, analyseCycles at that night), and the person's own
// luteal shift of each marker, the median of their luteal nights minus the median of their
// follicular nights over the 120 nights before. That shift is taken off the luteal nights (half
// of it off a night whose phase is unclear), so tonight and its baseline are compared at the
// follicular level. An illness adds to the marker on top of the phase, so it still shows.
import type { CyclePhase } from "@/lib/cycle";
import type { Num } from "@/lib/metrics/stats";
import { analyseCycles, CYCLE, phaseIn, type CycleAnalysis, type CycleSource, type FitCache } from "@/lib/signals/cycle";
import { EARLY_WARNING, EARLY_WARNING_MARKERS, type EarlyWarningInputs, type Marker } from "@/lib/signals/early-warning";

export const CYCLE_ADJUST = {
  /** nights before tonight whose phases give the person's shift (two to four cycles) */
  shiftWindow: 120,
  /** nights needed in each phase for a shift */
  minPhaseNights: 8,
  /** the plausible shift of each marker (maths scale: ln for HRV); outside, clamped */
  bounds: { temperature_deviation: [0, 0.6], resting_heart_rate: [-1, 5], hrv: [-0.3, 0.1], breathing_rate: [-0.5, 1] },
} as const satisfies { bounds: Record<Marker, readonly [number, number]> } & Record<string, unknown>;

/** Of each marker, its luteal minus follicular median (ln for HRV); null when too few nights. */
export type PhaseShift = Record<Marker, number | null>;

export type NightCorrection = {
  /** tonight's phase as known tonight */
  phase: CyclePhase;
  /** the share of the shift taken off tonight: 1 luteal, ½ unclear, 0 follicular or menstrual */
  share: number;
  shift: PhaseShift;
  /** the markers' series with the shift taken off the luteal nights (raw units) */
  inputs: EarlyWarningInputs;
  /** what the card says */
  description: string;
};

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

const shareOf = (p: CyclePhase): number => (p === "luteal" ? 1 : p === "unknown" ? 0.5 : 0);
const onScale = (m: Marker, v: Num | undefined): number | null =>
  v === null || v === undefined || !Number.isFinite(v) ? null : m === "hrv" ? (v > 0 ? Math.log(v) : null) : v;

/** The phases of nights lo … d as known on night d (a possible rise tonight makes tonight unclear). */
export function phasesKnownAt(src: CycleSource, a: CycleAnalysis, lo: number, d: number): CyclePhase[] {
  const out: CyclePhase[] = [];
  for (let j = Math.max(0, lo); j <= d; j++) out.push(phaseIn(a, j));
  const current = a.cycles[a.cycles.length - 1];
  if (current && current.end === null && current.shift === null && d - current.start + 1 >= CYCLE.minShiftCycleDay) {
    for (let j = Math.max(d - 1, lo); j <= d; j++) if (out[j - lo] === "follicular" && risesAbove(src.temperature, j)) out[j - lo] = "unknown";
    // past the day the shift usually comes, a night not yet confirmed luteal may be
    const usual = a.usualShiftFrom;
    if (usual !== null) for (let j = Math.max(current.start + usual, lo); j <= d; j++) if (out[j - lo] === "follicular") out[j - lo] = "unknown";
  }
  return out;
}

/** Whether night j is above the highest of the six nights before it (a shift may be starting). */
function risesAbove(t: readonly Num[], j: number): boolean {
  const v = t[j];
  if (v === null || v === undefined) return false;
  const lows: number[] = [];
  for (let k = j - 1; k >= 0 && lows.length < CYCLE.lowNights && k >= j - CYCLE.lowNights - 3; k--) {
    const x = t[k];
    if (x !== null && x !== undefined) lows.push(x);
  }
  return lows.length === CYCLE.lowNights && v > Math.max(...lows) + CYCLE.margin;
}

/** The person's shift of each marker from the labelled nights (index lo + k has phases[k]). */
export function phaseShift(inputs: EarlyWarningInputs, at: (j: number) => number, phases: readonly CyclePhase[], lo: number, hi: number): PhaseShift {
  const out = {} as PhaseShift;
  for (const m of EARLY_WARNING_MARKERS) {
    const lut: number[] = [];
    const fol: number[] = [];
    for (let j = lo; j <= hi; j++) {
      const p = phases[j - lo];
      const v = onScale(m, inputs[m][at(j)]);
      if (v === null) continue;
      if (p === "luteal") lut.push(v);
      else if (p === "follicular") fol.push(v);
    }
    if (lut.length < CYCLE_ADJUST.minPhaseNights || fol.length < CYCLE_ADJUST.minPhaseNights) out[m] = null;
    else {
      const [low, high] = CYCLE_ADJUST.bounds[m];
      out[m] = Math.min(high, Math.max(low, median(lut) - median(fol)));
    }
  }
  return out;
}

function describe(phase: CyclePhase, shift: PhaseShift): string {
  const parts: string[] = [];
  const f = (v: number, d: number) => `${v >= 0 ? "+" : "−"}${Math.abs(v).toFixed(d)}`;
  if (shift.temperature_deviation) parts.push(`temperature ${f(shift.temperature_deviation, 2)} °C`);
  if (shift.resting_heart_rate) parts.push(`resting heart rate ${f(shift.resting_heart_rate, 1)} bpm`);
  if (shift.hrv) parts.push(`HRV ${f((Math.exp(shift.hrv) - 1) * 100, 0)} %`);
  if (shift.breathing_rate) parts.push(`breathing rate ${f(shift.breathing_rate, 1)}/min`);
  const rise = `your usual luteal change (${parts.join(", ")})`;
  if (phase === "luteal") return `Luteal night: ${rise} taken off tonight and the luteal nights of the baseline.`;
  if (phase === "unknown") return `Phase unclear: half of ${rise} taken off tonight; luteal nights of the baseline corrected.`;
  return `${phase === "menstrual" ? "Menstrual" : "Follicular"} night: luteal nights of the baseline corrected by ${rise}.`;
}

/**
 * The correction of every signals slot (index i of `inputs` is the source's night i + offset):
 * null for a night with no correction (no cycle known then, or too few nights of each phase).
 */
export function cycleCorrections(inputs: EarlyWarningInputs, src: CycleSource, offset: number): Array<NightCorrection | null> {
  const n = Math.max(...EARLY_WARNING_MARKERS.map((m) => inputs[m].length));
  const cache: FitCache = new Map();
  const out: Array<NightCorrection | null> = [];
  const reach = EARLY_WARNING.windowDays + 2;
  for (let i = 0; i < n; i++) {
    const d = i + offset;
    const a = analyseCycles(src, d, cache);
    if (a.cycles.length === 0) {
      out.push(null);
      continue;
    }
    const lo = d - Math.max(CYCLE_ADJUST.shiftWindow, reach);
    const phases = phasesKnownAt(src, a, lo, d);
    const first = Math.max(0, lo);
    const at = (j: number) => j - offset;
    const shift = phaseShift(
      inputs,
      at,
      phases.slice(Math.max(0, d - CYCLE_ADJUST.shiftWindow) - first),
      Math.max(0, d - CYCLE_ADJUST.shiftWindow),
      d - EARLY_WARNING.excludeNights - 1,
    );
    if (EARLY_WARNING_MARKERS.every((m) => !shift[m])) {
      out.push(null);
      continue;
    }
    const adjusted = {} as Record<Marker, Num[]>;
    for (const m of EARLY_WARNING_MARKERS) {
      const xs = inputs[m].slice() as Num[];
      const s = shift[m];
      if (s) {
        for (let j = Math.max(0, d - reach); j <= d; j++) {
          const k = at(j);
          const v = xs[k];
          if (k < 0 || v === null || v === undefined) continue;
          const share = shareOf(phases[j - first]!);
          if (share) xs[k] = m === "hrv" ? v * Math.exp(-share * s) : v - share * s;
        }
      }
      adjusted[m] = xs;
    }
    const phase = phases[d - first]!;
    out.push({ phase, share: shareOf(phase), shift, inputs: adjusted, description: describe(phase, shift) });
  }
  return out;
}
