// Display of metric values: unit conversion (metric or imperial) and formatting. Charts and
// summaries convert with these so a value reads the same everywhere.
import type { MetricDef } from "@/lib/metrics/catalog";

export type Units = "metric" | "imperial";

const M_PER_MILE = 1609.344;

/** The scale a chart's axis uses for a metric: stored value × factor, in `unit`. */
export type DisplayScale = { factor: number; offset: number; unit: string; decimals: number };

export function displayScale(m: MetricDef, units: Units): DisplayScale {
  switch (m.unit) {
    case "s":
      return m.durationIn === "min" ? { factor: 1 / 60, offset: 0, unit: "min", decimals: 0 } : { factor: 1 / 3600, offset: 0, unit: "h", decimals: 1 };
    case "m":
      return units === "imperial" ? { factor: 1 / M_PER_MILE, offset: 0, unit: "mi", decimals: 1 } : { factor: 1 / 1000, offset: 0, unit: "km", decimals: 1 };
    case "°C":
      // a deviation, so no +32: 1 °C of difference is 1.8 °F of difference
      return units === "imperial" ? { factor: 1.8, offset: 0, unit: "°F", decimals: m.decimals } : { factor: 1, offset: 0, unit: "°C", decimals: m.decimals };
    case "score":
      return { factor: 1, offset: 0, unit: "", decimals: m.decimals };
    case "count":
      return { factor: 1, offset: 0, unit: "", decimals: m.decimals };
    default:
      return { factor: 1, offset: 0, unit: m.unit, decimals: m.decimals };
  }
}

/** "7 h 05 min", "45 min", "0 min". */
export function formatDuration(seconds: number): string {
  const neg = seconds < 0;
  const total = Math.round(Math.abs(seconds) / 60);
  const h = Math.floor(total / 60);
  const min = total % 60;
  const s = h > 0 ? `${h} h ${String(min).padStart(2, "0")} min` : `${min} min`;
  return neg ? `−${s}` : s;
}

function groupThousands(n: number, decimals: number): string {
  const fixed = Math.abs(n).toFixed(decimals);
  const [int, frac] = fixed.split(".");
  const grouped = (int ?? "0").replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${n < 0 ? "−" : ""}${grouped}${frac ? `.${frac}` : ""}`;
}

/** A number with thousands separators and a real minus sign. */
export function formatNumber(n: number, decimals = 0): string {
  return groupThousands(n, decimals);
}

/** A value with its unit, as shown to the person ("7 h 12 min", "8,012 steps", "+0.31 °C"). */
export function formatValue(m: MetricDef, v: number | null | undefined, units: Units = "metric", opts: { unit?: boolean } = {}): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return "—";
  const withUnit = opts.unit !== false;
  if (m.unit === "s") return formatDuration(v);
  if (m.kind === "temperature_deviation") {
    const s = displayScale(m, units);
    const d = v * s.factor;
    const str = `${d > 0 ? "+" : ""}${groupThousands(d, s.decimals)}`;
    return withUnit ? `${str} ${s.unit}` : str;
  }
  if (m.unit === "m") {
    const s = displayScale(m, units);
    const str = groupThousands(v * s.factor, Math.abs(v * s.factor) < 10 ? 2 : 1);
    return withUnit ? `${str} ${s.unit}` : str;
  }
  const s = displayScale(m, units);
  const str = groupThousands(v * s.factor, s.decimals);
  if (!withUnit || !s.unit) return m.unit === "steps" && withUnit ? `${str} steps` : str;
  if (s.unit === "%") return `${str}%`;
  return `${str} ${s.unit}`;
}

/** A change ("+3", "−12 min", "+0.20 °C"); "±0" for no change. */
export function formatDelta(m: MetricDef, delta: number | null | undefined, units: Units = "metric"): string {
  if (delta === null || delta === undefined || !Number.isFinite(delta)) return "—";
  const s = displayScale(m, units);
  const d = delta * s.factor;
  const decimals = m.unit === "s" ? 0 : s.decimals;
  const rounded = Number(d.toFixed(decimals));
  if (rounded === 0) return "±0";
  const sign = rounded > 0 ? "+" : "−";
  if (m.unit === "s") {
    const body = formatDuration(Math.abs(delta));
    return `${sign}${body}`;
  }
  const body = groupThousands(Math.abs(rounded), decimals);
  const unit = s.unit === "%" ? "%" : s.unit ? ` ${s.unit}` : "";
  return `${sign}${body}${unit}`;
}

/** Axis tick label of a display-scale value. */
export function formatTick(scale: DisplayScale, v: number): string {
  const span = Math.abs(v);
  const decimals = span !== 0 && span < 1 ? Math.max(1, scale.decimals) : Number.isInteger(v) ? 0 : Math.min(2, Math.max(1, scale.decimals));
  return groupThousands(v, decimals);
}

/** Whether a change is good, bad or neutral for this metric. */
export function deltaTone(m: MetricDef, delta: number | null | undefined): "good" | "bad" | "neutral" {
  if (delta === null || delta === undefined || delta === 0 || m.direction === "neutral") return "neutral";
  return delta > 0 === (m.direction === "higher") ? "good" : "bad";
}

/** A fraction as a signed percentage ("+4.2%"). */
export function formatPct(frac: number | null | undefined): string {
  if (frac === null || frac === undefined || !Number.isFinite(frac)) return "—";
  const p = frac * 100;
  const r = Math.abs(p) < 10 ? p.toFixed(1) : p.toFixed(0);
  if (Number(r) === 0) return "±0%";
  return `${p > 0 ? "+" : "−"}${r.replace("-", "")}%`;
}
