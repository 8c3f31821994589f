// The report's figures in words, as the page (/report and a share link's /r/<secret>) writes
// them: a value with its unit, a mean's row, a figure over the period, a clock time, a period.
// Plain functions (no React, no PDF library); a figure is written as the PDF writes it
// (components/report/pdf/format.ts).
import { formatDay } from "@/lib/days";
import { formatFigure } from "@/components/report/pdf/format";
import type { ReportFigure, ReportMean, ReportSleepNeed } from "@/lib/metrics/report";
import { needWords } from "@/lib/signals/sleep-need-words";

export const reportDay = (d: string) => formatDay(d, { withYear: true, withWeekday: false });
export const reportPeriod = (p: { from: string; to: string }) => `${reportDay(p.from)} to ${reportDay(p.to)}`;
/** Who the report is about, as far as it says: the name, the age ("" when it knows neither). */
export const reportPerson = (p: { name: string | null; age: number | null }) =>
  [p.name, p.age !== null ? `${p.age} years` : null].filter((x): x is string => x !== null && x !== "").join(", ");

/** A figure with its unit ("52.3 bpm", "+0.21 °C", "—"), written as the PDF writes it. */
export const reportFigure = formatFigure;

/** The temperature deviation is a signed figure (+0.2 °C); the others are not. */
const isSignedMean = (m: Pick<ReportMean, "metric">) => m.metric === "readiness.temperature_deviation";

const RANGE_WORDS = { below: "below", within: "within", above: "above" } as const;

/** A mean's cells: measure, mean, days, [compared mean, change,] normal range, where the mean lies. */
export function reportMeanCells(m: ReportMean, compared: boolean): string[] {
  const signed = isSignedMean(m);
  const range = m.range ? `${reportFigure(m.range.low, m.unit, m.decimals, signed)} to ${reportFigure(m.range.high, m.unit, m.decimals, signed)}` : "—";
  return [
    m.label,
    reportFigure(m.mean, m.unit, m.decimals, signed),
    String(m.n),
    ...(compared ? [reportFigure(m.compared?.mean, m.unit, m.decimals, signed), reportFigure(m.compared?.delta, m.unit, m.decimals, true)] : []),
    range,
    m.range ? `${RANGE_WORDS[m.range.state]}${m.range.source === "baseline" ? " (baseline band)" : ""}` : "—",
  ];
}

/** The means table's headings, matching reportMeanCells. */
export function reportMeanHeads(compared: boolean): string[] {
  return ["Measure", "Mean", "Days", ...(compared ? ["Compared", "Change"] : []), "Normal range", "Mean is"];
}

/** "7.2 h mean over 28 days; last 6.9 h on 31 Mar 2026" */
export function reportFigureLine(f: ReportFigure, unit: string, decimals: number): string {
  return (
    `${reportFigure(f.mean, unit, decimals)} mean over ${f.n} ${f.n === 1 ? "day" : "days"}` +
    (f.last ? `; last ${reportFigure(f.last.value, unit, decimals)} on ${reportDay(f.last.day)}` : "")
  );
}

/** Why a chart of a report drawn during the back-fill is empty. */
export const REPORT_EMPTY_DOWNLOADING = "The history is still downloading.";

/** "7 h 20 min (7 h 05 min – 7 h 40 min), estimated from 84 nights, on 31 Mar 2026"; a lower bound says so. */
export function reportSleepNeedLine(n: ReportSleepNeed | null): string {
  if (!n) return "—";
  const bound = n.needAtLeast ? " (the nights never reached the point where more sleep stops helping: the debt is a lower bound)" : "";
  return `${needWords(n)}, on ${reportDay(n.day)}${bound}`;
}

/** Minutes as "1 h 05 min" or "45 min". */
export function reportMinutes(m: number): string {
  return m >= 60 ? `${Math.floor(m / 60)} h ${String(Math.round(m % 60)).padStart(2, "0")} min` : `${Math.round(m)} min`;
}

/** Hours after the evening's midnight as a clock time: −1.5 → "22:30", 7.25 → "07:15". */
export function reportClockTime(hours: number): string {
  const minutes = ((Math.round(hours * 60) % 1440) + 1440) % 1440;
  return `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
}
