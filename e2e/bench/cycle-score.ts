// The cycle bench's scoring, shared by the bench (on what the app answered) and the accuracy
// test (on the pure functions): false alarms and recall of the early warning night by night,
// ovulations found and period starts predicted.
import { inIllness, type SyntheticPerson } from "./cycle-people";

export type Level = "none" | "watch" | "likely" | null;

/** An illness counts as caught when one of its first four nights is at watch or likely. */
export const CAUGHT_WITHIN_NIGHTS = 4;
/** A period start counts as predicted when the window shown this many days before it is centred within ±3 days of it. */
export const PREDICTION_NOTICE_DAYS = 3;

export type AlarmScore = { nights: number; falseWatch: number; falseLikely: number; illnesses: number; caught: number };

/** Scores the levels of the scored year (levels[i] is night i of the person). */
export function scoreAlarms(p: SyntheticPerson, levels: readonly Level[]): AlarmScore {
  let nights = 0;
  let falseWatch = 0;
  let falseLikely = 0;
  for (let i = p.scoredFrom; i < p.days; i++) {
    nights++;
    if (inIllness(p, i)) continue;
    const l = levels[i] ?? null;
    if (l === "watch" || l === "likely") falseWatch++;
    if (l === "likely") falseLikely++;
  }
  let caught = 0;
  for (const ill of p.illnesses) {
    let hit = false;
    for (let i = ill.onset; i < ill.onset + CAUGHT_WITHIN_NIGHTS; i++) if (levels[i] === "watch" || levels[i] === "likely") hit = true;
    if (hit) caught++;
  }
  return { nights, falseWatch, falseLikely, illnesses: p.illnesses.length, caught };
}

export type DetectionScore = { ovulations: number; ovulationsFound: number; starts: number; startsPredicted: number };

/**
 * Ovulations of the scored year found within ±2 days (detected: the ovulation days the app
 * shows), and period starts after the person's third predicted within ±3 days (nextPeriod[i]:
 * the window shown on night i, as indices).
 */
export function scoreDetection(
  p: SyntheticPerson,
  detected: ReadonlySet<number>,
  nextPeriod: ReadonlyArray<{ from: number; to: number } | null>,
): DetectionScore {
  let ovulations = 0;
  let ovulationsFound = 0;
  let starts = 0;
  let startsPredicted = 0;
  p.periodStarts.forEach((s, c) => {
    const ov = p.ovulations[c];
    const next = p.periodStarts[c + 1];
    if (ov !== null && ov !== undefined && ov >= p.scoredFrom && next !== undefined) {
      ovulations++;
      if ([-2, -1, 0, 1, 2].some((d) => detected.has(ov + d))) ovulationsFound++;
    }
    if (c >= 3 && s >= p.scoredFrom) {
      starts++;
      const w = nextPeriod[s - PREDICTION_NOTICE_DAYS];
      if (w && Math.abs((w.from + w.to) / 2 - s) <= 3) startsPredicted++;
    }
  });
  return { ovulations, ovulationsFound, starts, startsPredicted };
}

/** The targets for the cycle block (not asserted by a timed test: printed by the bench). */
export const CYCLE_TARGETS = {
  /** women's false watch nights a year at most this many times men's */
  watch_ratio: 1.5,
  false_likely_women: 1,
  recall: 0.95,
  ovulation_within_2d: 0.8,
  period_start_within_3d: 0.75,
} as const;

/** Whether a cycle block meets every target. */
export function cycleMet(c: CycleBlock): boolean {
  const t = CYCLE_TARGETS;
  return (
    c.false_watch_per_year.women <= t.watch_ratio * c.false_watch_per_year.men &&
    c.false_likely_per_year.women <= t.false_likely_women &&
    c.recall.women >= t.recall &&
    c.recall.men >= t.recall &&
    c.ovulation_within_2d >= t.ovulation_within_2d &&
    c.period_start_within_3d >= t.period_start_within_3d
  );
}

export type CycleBlock = {
  people: number;
  ovulation_within_2d: number;
  period_start_within_3d: number;
  false_watch_per_year: { women: number; men: number };
  false_likely_per_year: { women: number; men: number };
  recall: { women: number; men: number };
};

const r = (v: number, d = 2) => Math.round(v * 10 ** d) / 10 ** d;

/** The bench's `cycle` block from the people's scores. */
export function cycleBlock(
  people: readonly SyntheticPerson[],
  alarms: ReadonlyMap<string, AlarmScore>,
  detection: ReadonlyMap<string, DetectionScore>,
): CycleBlock {
  const sum = (sex: SyntheticPerson["sex"], f: (a: AlarmScore) => number) =>
    people.filter((p) => p.sex === sex).reduce((a, p) => a + (alarms.has(p.key) ? f(alarms.get(p.key)!) : 0), 0);
  const perYear = (sex: SyntheticPerson["sex"], f: (a: AlarmScore) => number) => {
    const nights = sum(sex, (a) => a.nights);
    return nights === 0 ? 0 : r((sum(sex, f) / nights) * 365);
  };
  const recall = (sex: SyntheticPerson["sex"]) => {
    const n = sum(sex, (a) => a.illnesses);
    return n === 0 ? 0 : r(sum(sex, (a) => a.caught) / n, 3);
  };
  const d = [...detection.values()];
  const ov = d.reduce((a, x) => a + x.ovulations, 0);
  const st = d.reduce((a, x) => a + x.starts, 0);
  return {
    people: people.length,
    ovulation_within_2d: ov === 0 ? 0 : r(d.reduce((a, x) => a + x.ovulationsFound, 0) / ov, 3),
    period_start_within_3d: st === 0 ? 0 : r(d.reduce((a, x) => a + x.startsPredicted, 0) / st, 3),
    false_watch_per_year: { women: perYear("woman", (a) => a.falseWatch), men: perYear("man", (a) => a.falseWatch) },
    false_likely_per_year: { women: perYear("woman", (a) => a.falseLikely), men: perYear("man", (a) => a.falseLikely) },
    recall: { women: recall("woman"), men: recall("man") },
  };
}
