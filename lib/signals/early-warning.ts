// Early warning: several nightly markers leaving the person's own baseline together, as
// illness (or strain, alcohol, travel) often shows in the days before symptoms. Pure.
//
// Each marker's baseline is the median of its nights d−60 … d−3 (the last two nights left out,
// so an episode does not hide itself), from at least 14 nights. Flags, from published work
// (docs/signals.md cites each):
//   - temperature deviation ≥ +0.5 °C, or its 3-night mean ≥ +0.3 °C (the ring maker's ±0.5 °C
//     normal variation; Smarr et al. 2020);
//   - resting heart rate (the night's lowest) ≥ +4 bpm (NightSignal, Alavi et al. 2022);
//   - HRV: the night's ln HRV more than 2 SD below its baseline (the ln scale of Plews et al.);
//   - breathing rate ≥ +1.5 breaths a minute.
// Level: "likely" when ≥ 2 flags co-occur, or when the heart-rate flag holds two nights in a
// row (NightSignal's red); "watch" with one flag (NightSignal's yellow); else "none". Too few
// markers to judge (no value, or no baseline yet): no level at all.
//
// For a person who tracks their cycle, a night can come with a phase correction
// (lib/signals/cycle-adjust.ts): the night is judged on the corrected series, and its values and
// baselines are shown back on the night's own level.
import type { Num } from "@/lib/metrics/stats";

export const EARLY_WARNING_MARKERS = ["temperature_deviation", "resting_heart_rate", "hrv", "breathing_rate"] as const;
export type Marker = (typeof EARLY_WARNING_MARKERS)[number];

export const MARKER_LABELS: Record<Marker, string> = {
  temperature_deviation: "Temperature",
  resting_heart_rate: "Resting heart rate",
  hrv: "HRV",
  breathing_rate: "Breathing rate",
};

export const EARLY_WARNING = {
  /** the baseline reads nights d − windowDays … d − (excludeNights + 1) */
  windowDays: 60,
  excludeNights: 2,
  minNights: 14,
  /** markers with a value and a baseline needed to say anything */
  minMarkers: 2,
  temperature: { delta: 0.5, mean3: 0.3 },
  restingHeartRate: { delta: 4 },
  /** HRV: SDs below the baseline on the ln scale, and the smallest SD used (5 %) */
  hrv: { sd: 2, sdFloor: 0.05 },
  breathingRate: { delta: 1.5 },
} as const;

export type EarlyWarningLevel = "none" | "watch" | "likely";
export const EARLY_WARNING_LEVELS: readonly EarlyWarningLevel[] = ["none", "watch", "likely"];

/** The night's values of each marker, one slot per day (raw units: °C, bpm, ms, breaths/min). */
export type EarlyWarningInputs = Record<Marker, readonly Num[]>;

export type MarkerBaseline = { median: number; sd: number | null; nights: number };

/**
 * The rule that flagged a marker (docs/signals.md's table): tonight's change against the
 * baseline ("change"), the temperature's 3-night mean ("mean3"), the resting heart rate two
 * nights in a row ("two_nights", which makes the night "likely"), or HRV's SD rule ("sd").
 */
export const FLAG_RULES = ["change", "mean3", "two_nights", "sd"] as const;
export type FlagRule = (typeof FLAG_RULES)[number];
/** The rule that fired, the value it read (HRV: the change as a fraction) and its threshold; `previous`: the night before's change (two_nights). */
export type MarkerRule = { name: FlagRule; value: number; threshold: number; previous?: number };

export type MarkerResult = {
  marker: Marker;
  value: number | null;
  baseline: MarkerBaseline | null;
  /** value − baseline median (HRV: the change as a fraction, −0.3 = 30 % lower) */
  delta: number | null;
  /** the delta at which it flags (HRV: a negative fraction) */
  threshold: number | null;
  flagged: boolean;
  /** temperature: the mean delta of the last 3 nights (at least 2 with a value) */
  mean3?: number | null;
  /** the rule that flagged it (null when it did not flag) */
  rule: MarkerRule | null;
};

/** A night's phase correction: the series to judge it on, and the share of each marker's shift tonight carries. */
export type EarlyWarningCorrection = { inputs: EarlyWarningInputs; share: number; shift: Record<Marker, number | null> };

export type EarlyWarningNight = {
  level: EarlyWarningLevel | null;
  status: "ok" | "insufficient_history" | "no_data";
  flags: number;
  /** the heart-rate flag held tonight and the night before */
  heartRateTwoNights: boolean;
  markers: MarkerResult[];
};

/** Median of the non-null values (null when there are none). */
export function median(xs: readonly number[]): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

function sampleSd(xs: readonly number[]): number | null {
  if (xs.length < 2) return null;
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  return Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / (xs.length - 1));
}

/** A marker's baseline for slot i, on its maths scale (ln for HRV). */
export function markerBaseline(x: readonly Num[], i: number): MarkerBaseline | null {
  const { windowDays, excludeNights, minNights } = EARLY_WARNING;
  const vals: number[] = [];
  for (let j = Math.max(0, i - windowDays); j <= i - excludeNights - 1; j++) {
    const v = x[j];
    if (v !== null && v !== undefined) vals.push(v);
  }
  if (vals.length < minNights) return null;
  return { median: median(vals)!, sd: sampleSd(vals), nights: vals.length };
}

const lnOrNull = (v: Num | undefined): Num => (v === null || v === undefined || !(v > 0) ? null : Math.log(v));

/**
 * The early warning of every slot (one per night) of the inputs, oldest first; a night with a
 * correction is judged on its corrected series.
 */
export function computeEarlyWarning(inputs: EarlyWarningInputs, corrections?: ReadonlyArray<EarlyWarningCorrection | null>): EarlyWarningNight[] {
  const n = Math.max(...EARLY_WARNING_MARKERS.map((m) => inputs[m].length));
  const hrvLn = inputs.hrv.map(lnOrNull);
  const hrDelta: Num[] = new Array(n).fill(null);
  const out: EarlyWarningNight[] = [];
  for (let i = 0; i < n; i++) {
    const c = corrections?.[i] ?? null;
    const markers: MarkerResult[] = [];
    for (const marker of EARLY_WARNING_MARKERS)
      markers.push(
        c ? shownAtNightLevel(assessMarker(marker, c.inputs, correctedLn(c.inputs.hrv, i), i), inputs, c, i) : assessMarker(marker, inputs, hrvLn, i),
      );
    const hr = markers.find((m) => m.marker === "resting_heart_rate")!;
    hrDelta[i] = hr.delta;
    const prev = i > 0 ? hrDelta[i - 1] : null;
    const heartRateTwoNights = hr.flagged && prev !== null && prev !== undefined && prev >= EARLY_WARNING.restingHeartRate.delta;
    if (heartRateTwoNights && hr.delta !== null)
      markers[markers.indexOf(hr)] = { ...hr, rule: { name: "two_nights", value: hr.delta, threshold: EARLY_WARNING.restingHeartRate.delta, previous: prev! } };
    const assessable = markers.filter((m) => m.value !== null && m.baseline !== null).length;
    const withValue = markers.filter((m) => m.value !== null).length;
    const flags = markers.filter((m) => m.flagged).length;
    if (assessable < EARLY_WARNING.minMarkers) {
      out.push({ level: null, status: withValue < EARLY_WARNING.minMarkers ? "no_data" : "insufficient_history", flags, heartRateTwoNights, markers });
      continue;
    }
    const level: EarlyWarningLevel = flags >= 2 || heartRateTwoNights ? "likely" : flags === 1 ? "watch" : "none";
    out.push({ level, status: "ok", flags, heartRateTwoNights, markers });
  }
  return out;
}

/** ln HRV of the nights a night's baseline reads (the window and the night). */
function correctedLn(hrv: readonly Num[], i: number): Num[] {
  const out: Num[] = new Array(i + 1).fill(null);
  for (let j = Math.max(0, i - EARLY_WARNING.windowDays); j <= i; j++) out[j] = lnOrNull(hrv[j]);
  return out;
}

/** A marker judged on corrected values, shown with tonight's raw value and the baseline moved to tonight's level (the delta is unchanged). */
function shownAtNightLevel(m: MarkerResult, raw: EarlyWarningInputs, c: EarlyWarningCorrection, i: number): MarkerResult {
  const s = (c.shift[m.marker] ?? 0) * c.share;
  const baseline = m.baseline && { ...m.baseline, median: m.marker === "hrv" ? m.baseline.median * Math.exp(s) : m.baseline.median + s };
  return { ...m, value: raw[m.marker][i] ?? null, baseline };
}

function assessMarker(marker: Marker, inputs: EarlyWarningInputs, hrvLn: readonly Num[], i: number): MarkerResult {
  const value = inputs[marker][i] ?? null;
  if (marker === "hrv") {
    const b = markerBaseline(hrvLn, i);
    const x = hrvLn[i] ?? null;
    if (!b) return { marker, value, baseline: null, delta: null, threshold: null, flagged: false, rule: null };
    const sd = Math.max(b.sd ?? 0, EARLY_WARNING.hrv.sdFloor);
    const threshold = Math.exp(-EARLY_WARNING.hrv.sd * sd) - 1;
    const delta = x === null ? null : Math.exp(x - b.median) - 1;
    const flagged = delta !== null && delta <= threshold;
    // the baseline in ms (the geometric median), its spread on the ln scale
    return {
      marker,
      value,
      baseline: { median: Math.exp(b.median), sd: b.sd, nights: b.nights },
      delta,
      threshold,
      flagged,
      rule: flagged ? { name: "sd", value: delta, threshold } : null,
    };
  }
  const x = inputs[marker];
  const b = markerBaseline(x, i);
  if (!b)
    return {
      marker,
      value,
      baseline: null,
      delta: null,
      threshold: null,
      ...(marker === "temperature_deviation" ? { mean3: null } : {}),
      flagged: false,
      rule: null,
    };
  const delta = value === null ? null : value - b.median;
  if (marker === "temperature_deviation") {
    const { delta: t, mean3: t3 } = EARLY_WARNING.temperature;
    const recent: number[] = [];
    for (let j = i - 2; j <= i; j++) {
      const v = j >= 0 ? x[j] : null;
      if (v !== null && v !== undefined) recent.push(v - b.median);
    }
    const mean3 = recent.length >= 2 ? recent.reduce((a, c) => a + c, 0) / recent.length : null;
    // tonight's change first; else the 3-night mean (which still needs tonight's value)
    const rule: MarkerRule | null =
      delta === null
        ? null
        : delta >= t
          ? { name: "change", value: delta, threshold: t }
          : mean3 !== null && mean3 >= t3
            ? { name: "mean3", value: mean3, threshold: t3 }
            : null;
    return { marker, value, baseline: b, delta, threshold: t, mean3, flagged: rule !== null, rule };
  }
  const threshold = marker === "resting_heart_rate" ? EARLY_WARNING.restingHeartRate.delta : EARLY_WARNING.breathingRate.delta;
  const flagged = delta !== null && delta >= threshold;
  return { marker, value, baseline: b, delta, threshold, flagged, rule: flagged ? { name: "change", value: delta, threshold } : null };
}

/** Whether a level is at least `min` (watch < likely). */
export function levelAtLeast(level: EarlyWarningLevel | null, min: Exclude<EarlyWarningLevel, "none">): boolean {
  if (level === null) return false;
  return EARLY_WARNING_LEVELS.indexOf(level) >= EARLY_WARNING_LEVELS.indexOf(min);
}

/**
 * The rule that flagged a marker, in docs/signals.md's words, its value and threshold written by
 * `change` (a signed change in the marker's unit; HRV's a fraction: −0.3 = 30 % lower):
 * "the mean of the last 3 nights +0.35 °C, at least +0.3 °C above baseline".
 */
export function flagRuleText(rule: MarkerRule, change: (v: number) => string): string {
  switch (rule.name) {
    case "change":
      return `tonight's change ${change(rule.value)}, at least ${change(rule.threshold)} above baseline`;
    case "mean3":
      return `the mean of the last 3 nights ${change(rule.value)}, at least ${change(rule.threshold)} above baseline`;
    case "two_nights":
      return (
        `two nights in a row at least ${change(rule.threshold)} above baseline: ${change(rule.value)} tonight` +
        (rule.previous !== undefined ? `, ${change(rule.previous)} the night before` : "")
      );
    case "sd":
      return `${change(rule.value)}, more than ${EARLY_WARNING.hrv.sd} SD below baseline (${change(rule.threshold)})`;
  }
}
