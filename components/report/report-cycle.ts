// The report's cycle section in words and rows, for the page and the PDF alike. Pure.
import type { ReportCycle } from "@/lib/metrics/report";
import { formatDay } from "@/lib/days";

const day = (d: string) => formatDay(d, { withYear: true, withWeekday: false });

/** The column heads of the cycles' table. */
export const REPORT_CYCLE_HEADS = ["Cycle started", "Length", "Ovulation detected"];

/** The section's sentence: why there is nothing, or the next period's window. */
export function reportCycleNote(c: ReportCycle): string {
  if (!c.tracked) return "Not tracked: cycle tracking is off for this person.";
  if (c.status === "not_applicable") return `Not tracked in the period: ${c.message ?? "paused"}`;
  const next = c.prediction ? ` Next period expected ${day(c.prediction.from)} to ${day(c.prediction.to)} (± ${c.prediction.sd_days.toFixed(1)} days).` : "";
  const n = c.cycles.length;
  return `${n === 0 ? "No cycle started in the period." : `${n} cycle${n === 1 ? "" : "s"} started in the period.`}${next}`;
}

/** One row per cycle starting in the period: its start, its length (days; "ongoing" for the current one), its ovulation. */
export function reportCycleRows(c: ReportCycle): string[][] {
  if (!c.tracked) return [];
  return c.cycles.map((x) => [day(x.start), x.length === null ? "ongoing" : `${x.length} days`, x.ovulation ? day(x.ovulation) : "—"]);
}
