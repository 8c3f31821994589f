// How the PDF writes a figure: the number at the report's decimals with its unit ("52.3 bpm",
// "96.4%", "+0.21 °C"), a change with its sign ("+1.3 bpm", "-0.4 ms", "±0"), "—" for none.
import { formatNumber } from "@/lib/metrics/format";

/** Units not written after the number: a score is just its number. */
const UNWRITTEN_UNITS = new Set(["", "score"]);

/** A unit as a title shows it in parentheses: "" for a unit not written ("score"). */
export const writtenUnit = (unit: string): string => (UNWRITTEN_UNITS.has(unit) ? "" : unit);

/** `v` at `decimals` with `unit`; `signed`: a plus sign before a positive value, "±0" for one that rounds to zero. */
export function formatFigure(v: number | null | undefined, unit: string, decimals: number, signed = false): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return "—";
  const rounded = Number(v.toFixed(decimals));
  const n = signed && rounded === 0 ? "±0" : `${signed && rounded > 0 ? "+" : ""}${formatNumber(v, decimals)}`;
  if (unit === "%") return `${n}%`;
  return UNWRITTEN_UNITS.has(unit) ? n : `${n} ${unit}`;
}
