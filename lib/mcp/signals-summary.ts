// The get_signals tool's answer: one compact row per day (each signal's level or value) and the
// newest day in full (inputs and baselines), so an assistant can say what moved and against
// what without reading every field of every day. Pure.
import type { SignalsResponse } from "@/lib/api/contract";
import type { Signal } from "@/lib/signals/signal-days";
import { flagRuleText, MARKER_LABELS, type Marker } from "@/lib/signals/early-warning";

/** Days the tool answers at most (the newest of a longer range). */
export const MAX_SIGNAL_DAYS = 90;

export type SignalRow = {
  day: string;
  early_warning?: string | null;
  flagged?: string[];
  /** for each flagged marker, the rule that fired with its value and threshold, in words */
  why?: string[];
  sleep_debt_h?: number | null;
  /** the need the debt is measured against, hours ("at least" when sleep_need_at_least) */
  sleep_need_h?: number;
  sleep_need_at_least?: boolean;
  sri?: number | null;
  social_jet_lag_h?: number | null;
  acute_chronic_ratio?: number | null;
  load_zone?: string | null;
};

const UNITS: Record<Marker, { unit: string; decimals: number }> = {
  temperature_deviation: { unit: " °C", decimals: 2 },
  resting_heart_rate: { unit: " bpm", decimals: 1 },
  hrv: { unit: " %", decimals: 0 },
  breathing_rate: { unit: " breaths a minute", decimals: 1 },
};

/** A change in the marker's unit, signed: "+0.35 °C", "−12 %" (HRV's fraction as a percentage). */
function signedChange(marker: Marker, v: number): string {
  const { unit, decimals } = UNITS[marker];
  const x = marker === "hrv" ? v * 100 : v;
  return `${x > 0 ? "+" : x < 0 ? "−" : "±"}${Math.abs(x).toFixed(decimals)}${unit}`;
}

function rowOf(day: string, signals: readonly Signal[]): SignalRow {
  const row: SignalRow = { day };
  for (const s of signals) {
    if (s.kind === "early_warning") {
      row.early_warning = s.level;
      row.flagged = s.markers.filter((m) => m.flagged).map((m) => m.marker);
      const why = s.markers.flatMap((m) =>
        m.flagged && m.rule ? [`${MARKER_LABELS[m.marker]}: ${flagRuleText(m.rule, (v) => signedChange(m.marker, v))}`] : [],
      );
      if (why.length) row.why = why;
    } else if (s.kind === "sleep_debt") {
      row.sleep_debt_h = s.value;
      row.sleep_need_h = s.baseline.needH;
      row.sleep_need_at_least = s.baseline.needAtLeast;
    } else if (s.kind === "regularity") {
      row.sri = s.value;
      row.social_jet_lag_h = s.socialJetLag.hours;
    } else {
      row.acute_chronic_ratio = s.value;
      row.load_zone = s.zone;
    }
  }
  return row;
}

/** The newest day's sleep need: its hours, its range, whether it is a lower bound, and where it came from (in words). */
function sleepNeedOf(newest: SignalsResponse["days"][number] | null) {
  const debt = newest?.signals.find((x) => x.kind === "sleep_debt");
  if (debt?.kind !== "sleep_debt") return null;
  const b = debt.baseline;
  return {
    hours: b.needH,
    range_h: b.needRange && [b.needRange.lowH, b.needRange.highH],
    at_least: b.needAtLeast,
    source: b.needSource,
    source_text: b.needSourceText,
  };
}

export function summarizeSignals(s: SignalsResponse) {
  const newest = s.days.at(-1) ?? null;
  const watch = s.days.filter((d) => d.signals.some((x) => x.kind === "early_warning" && (x.level === "watch" || x.level === "likely")));
  return {
    from: s.from,
    to: s.to,
    kinds: s.kinds,
    settings: s.settings,
    early_warning_days: watch.map((d) => {
      const e = d.signals.find((x) => x.kind === "early_warning");
      return { day: d.day, level: e?.kind === "early_warning" ? e.level : null };
    }),
    sleep_need: sleepNeedOf(newest),
    rows: s.days.map((d) => rowOf(d.day, d.signals)),
    newest: newest ? { day: newest.day, signals: newest.signals } : null,
    note: "Signals describe changes against the person's own history; they are not a diagnosis. Methods and sources: /docs/signals.",
  };
}
