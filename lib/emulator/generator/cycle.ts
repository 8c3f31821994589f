// A woman's menstrual cycles, drawn once per person and cycle (spec: cycle-facts.md), and what
// they do to her nights. Deterministic in (seed, user): no clock, no Math.random.
//
// - The person: a mean cycle length of 29.3 days, 0.18 days shorter per year of age, ±1.8 days
//   between women (Bull et al. 2019: 29.3 mean, follicular 16.9, luteal 12.4 days); a mean luteal
//   phase of 12.4 ± 1.3 days; periods of about 5 days.
// - Each cycle: its follicular phase ±2.2 days and its luteal phase ±1.0 day around her means
//   (the length varies mostly by the follicular phase), within 8–30 and 7–17 days (Bull's 95 %
//   ranges). Ovulation is the follicular phase's last day; the luteal phase follows it.
// - The nights: the temperature is raised from 1 or 2 days after ovulation to the cycle's end
//   (progesterone, 1–3 days after ovulation), by about 0.30 °C (Maijala et al. 2019: 0.30, SD 0.12),
//   the first raised night at 60 %; the lowest heart rate by 1–3 bpm (Shilaih et al. 2017), HRV
//   a few per cent lower (Alzueta et al. 2022). The ring reports deviations from the person's
//   own norm, so each effect is centred on the cycle: a follicular night sits a little below
//   the norm, a luteal night above it.
// - Cycling: women up to 50 (menopause); men and older women have no cycle.
import { rngFor } from "@/lib/emulator/prng";
import { dayToIndex } from "@/lib/days";
import { clamp } from "./numbers";

export type CyclePhaseName = "menstrual" | "follicular" | "luteal";

/** One day of a cycle, and the cycle it belongs to. */
export type CycleDay = {
  /** 1 on a period's first day */
  cycleDay: number;
  phase: CyclePhaseName;
  /** the cycle's first day (a day index), its length in days and its period's length */
  start: number;
  length: number;
  menses: number;
  /** the day of ovulation (the follicular phase's last day) */
  ovulation: number;
  /** the first night of raised temperature (1 or 2 days after ovulation) */
  shiftStart: number;
  /** how far this night is raised, 0–1 (0 before the shift, 0.6 its first night, then 1) */
  raised: number;
  /** this cycle's luteal temperature rise (°C), lowest heart rate rise (bpm) and HRV drop (fraction) */
  tempRise: number;
  hrRise: number;
  hrvDrop: number;
};

type Cycle = { start: number; follicular: number; luteal: number; menses: number; shiftDelay: number; tempRise: number; hrRise: number; hrvDrop: number };

/** The share of a cycle's nights that are raised, about: what each effect is centred by. */
const RAISED_SHARE = 0.45;
/** Cycles are counted from a day near 2000-01-01 (cycle 0), forwards and backwards. */
const ORIGIN = dayToIndex("2000-01-01");

export class CycleTrack {
  private readonly meanFollicular: number;
  private readonly meanLuteal: number;
  private readonly meanMenses: number;
  private readonly tempRise: number;
  private readonly hrRise: number;
  private readonly hrvDrop: number;
  private readonly anchor: number;
  /** cycles 0, 1, 2, … (from the anchor on) and −1, −2, … (before it), drawn as far as asked */
  private readonly forward: Cycle[] = [];
  private readonly backward: Cycle[] = [];

  constructor(
    private readonly prefix: string,
    age: number,
    /** where in a cycle the person is at the origin, 0–28 days */
    phaseOffset: number,
  ) {
    const r = rngFor(prefix, "cycle-person");
    const length = clamp(29.3 - 0.18 * (age - 30) + 1.8 * r.normal(), 24, 36);
    this.meanLuteal = clamp(12.4 + 1.3 * r.normal(), 9, 16);
    this.meanFollicular = length - this.meanLuteal;
    this.meanMenses = clamp(5 + 0.8 * r.normal(), 3, 7);
    this.tempRise = clamp(0.3 + 0.08 * r.normal(), 0.15, 0.5);
    this.hrRise = clamp(2 + 0.6 * r.normal(), 1, 3);
    this.hrvDrop = clamp(0.05 + 0.02 * r.normal(), 0.02, 0.09);
    this.anchor = ORIGIN - Math.floor(phaseOffset);
  }

  private draw(k: number, start: number): Cycle {
    const r = rngFor(this.prefix, "cycle", k);
    return {
      start,
      follicular: Math.round(clamp(this.meanFollicular + 2.2 * r.normal(), 8, 30)),
      luteal: Math.round(clamp(this.meanLuteal + 1.0 * r.normal(), 7, 17)),
      menses: Math.round(clamp(this.meanMenses + 0.7 * r.normal(), 3, 7)),
      shiftDelay: r.chance(0.5) ? 1 : 2,
      tempRise: this.tempRise * clamp(1 + 0.12 * r.normal(), 0.7, 1.3),
      hrRise: this.hrRise * clamp(1 + 0.15 * r.normal(), 0.6, 1.4),
      hrvDrop: this.hrvDrop * clamp(1 + 0.15 * r.normal(), 0.6, 1.4),
    };
  }

  private cycleOf(idx: number): Cycle {
    if (idx >= this.anchor) {
      if (this.forward.length === 0) this.forward.push(this.draw(0, this.anchor));
      for (let last = this.forward.at(-1)!; last.start + last.follicular + last.luteal <= idx; last = this.forward.at(-1)!) {
        this.forward.push(this.draw(this.forward.length, last.start + last.follicular + last.luteal));
      }
      return search(this.forward, idx);
    }
    while (this.backward.length === 0 || this.backward.at(-1)!.start > idx) {
      const k = -(this.backward.length + 1);
      const next = this.backward.at(-1)?.start ?? this.anchor;
      const c = this.draw(k, 0);
      this.backward.push({ ...c, start: next - c.follicular - c.luteal });
    }
    // backward is in descending start order: the first whose start is at or before idx
    return this.backward.find((c) => c.start <= idx)!;
  }

  /** The cycle day, phase and effects of a day (a day index). */
  at(idx: number): CycleDay {
    const c = this.cycleOf(idx);
    const cycleDay = idx - c.start + 1;
    const ovulation = c.start + c.follicular - 1;
    const shiftStart = ovulation + c.shiftDelay;
    const raised = idx < shiftStart ? 0 : idx === shiftStart ? 0.6 : 1;
    return {
      cycleDay,
      phase: cycleDay <= c.menses ? "menstrual" : cycleDay <= c.follicular ? "follicular" : "luteal",
      start: c.start,
      length: c.follicular + c.luteal,
      menses: c.menses,
      ovulation,
      shiftStart,
      raised,
      tempRise: c.tempRise,
      hrRise: c.hrRise,
      hrvDrop: c.hrvDrop,
    };
  }
}

/** The cycle holding idx, in cycles sorted by start (binary search). */
function search(cycles: readonly Cycle[], idx: number): Cycle {
  let lo = 0;
  let hi = cycles.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (cycles[mid]!.start <= idx) lo = mid;
    else hi = mid - 1;
  }
  return cycles[lo]!;
}

/** A night's temperature (°C), lowest heart rate (bpm) and log-HRV shifts from the cycle, centred on it. */
export function cycleEffects(d: CycleDay): { temp: number; hr: number; logHrv: number } {
  const lift = d.raised - RAISED_SHARE;
  return { temp: d.tempRise * lift, hr: d.hrRise * lift, logHrv: -d.hrvDrop * lift };
}
