// The report's sections after the summary, in the PDF: the charts by group, the events (workouts
// and sessions by type, tags, rest mode), the notes and the cycle when the person included them,
// then the methods with "not a diagnosis". The words are the page's (components/report/report-text.ts).
import { formatNumber } from "@/lib/metrics/format";
import {
  REPORT_CHART_GROUPS,
  REPORT_CHART_GROUP_LABELS,
  type Report,
  type ReportCycle,
  type ReportEvents,
  type ReportMethods,
  type ReportNote,
  type ReportTag,
} from "@/lib/metrics/report";
import { REPORT_EMPTY_DOWNLOADING, reportDay, reportMinutes, reportPeriod } from "@/components/report/report-text";
import { REPORT_CYCLE_HEADS, reportCycleNote, reportCycleRows } from "@/components/report/report-cycle";
import { chartHeight, drawChart } from "./charts";
import type { Column, PdfWriter } from "./layout";
import { STYLES } from "./styles";
import { docsRef } from "./summary";

/** The charts, group by group; a group's heading stays on the page of its first chart. */
export function chartsSection(w: PdfWriter, report: Report, docsUrl?: string): void {
  const charts = report.charts ?? [];
  w.text("Charts", STYLES.h2);
  docsRef(w, "charts", docsUrl);
  for (const g of REPORT_CHART_GROUPS) {
    const inGroup = charts.filter((c) => c.group === g);
    if (inGroup.length === 0) continue;
    w.text(REPORT_CHART_GROUP_LABELS[g], STYLES.h3, { keepWith: chartHeight(w, inGroup[0]!, report.downloading ? REPORT_EMPTY_DOWNLOADING : null) });
    for (const c of inGroup) drawChart(w, c, report.query.from, report.downloading ? REPORT_EMPTY_DOWNLOADING : null);
  }
}

const COUNT_COLUMNS: Column[] = [
  { head: "Type", width: 0.4 },
  { head: "Count", width: 0.15, align: "right" },
  { head: "Time", width: 0.25, align: "right" },
  { head: "Calories", width: 0.2, align: "right" },
];

const TAG_COLUMNS: Column[] = [
  { head: "Tag", width: 0.25 },
  { head: "From", width: 0.12 },
  { head: "Days", width: 0.08, align: "right" },
  { head: "On", width: 0.55 },
];

/** A heading, then a table of `rows`, or a muted line when there are none (the heading kept with what follows). */
function headedTable(w: PdfWriter, heading: string, columns: readonly Column[], rows: string[][], none: string): void {
  w.text(heading, STYLES.h3, { keepWith: 30 });
  if (rows.length) w.table(columns, rows);
  else w.text(none, STYLES.muted);
}

const countRows = (counts: ReportEvents["workouts"]) =>
  counts.map((c) => [c.label, String(c.count), reportMinutes(c.minutes), c.calories === null ? "—" : `${formatNumber(c.calories)} kcal`]);

export function eventsSection(w: PdfWriter, e: ReportEvents, docsUrl?: string): void {
  w.text("Events", STYLES.h2);
  docsRef(w, "events", docsUrl);
  headedTable(w, "Workouts by type", COUNT_COLUMNS, countRows(e.workouts), "No workouts in the period.");
  headedTable(w, "Sessions by type", COUNT_COLUMNS, countRows(e.sessions), "No sessions in the period.");
  w.text("Rest mode", STYLES.h3, { keepWith: 12 });
  if (e.restModes.length) for (const r of e.restModes) w.text(`${reportDay(r.from)} to ${r.to ? reportDay(r.to) : "still on"}`);
  else w.text("No rest-mode periods in the period.", STYLES.muted);
}

const NOTE_COLUMNS: Column[] = [
  { head: "Day", width: 0.18 },
  { head: "Note", width: 0.62 },
  { head: "Tags", width: 0.2 },
];

export function notesSection(w: PdfWriter, notes: readonly ReportNote[], docsUrl?: string): void {
  w.text("Notes", STYLES.h2, { keepWith: 30 });
  docsRef(w, "notes", docsUrl);
  if (notes.length)
    w.table(
      NOTE_COLUMNS,
      notes.map((n) => [reportDay(n.day), n.text, n.tags.join(", ")]),
    );
  else w.text("No notes in the period.", STYLES.muted);
}

export function tagsSection(w: PdfWriter, tags: readonly ReportTag[], docsUrl?: string): void {
  w.text("Tags", STYLES.h2, { keepWith: 30 });
  docsRef(w, "tags", docsUrl);
  const rows = tags.map((t) => [t.name, t.source === "own" ? "You" : "Ring app", String(t.days.length), t.days.map(reportDay).join(", ")]);
  if (rows.length) w.table(TAG_COLUMNS, rows);
  else w.text("No tags in the period.", STYLES.muted);
}

export function cycleSection(w: PdfWriter, cycle: ReportCycle, docsUrl?: string): void {
  const rows = reportCycleRows(cycle);
  w.text("Cycle", STYLES.h2, { keepWith: 30 });
  docsRef(w, "cycle", docsUrl);
  w.text(reportCycleNote(cycle), STYLES.muted);
  if (rows.length)
    w.table(
      REPORT_CYCLE_HEADS.map((head, i) => ({ head, width: i === 1 ? 0.2 : 0.4 })),
      rows,
    );
}

export function methodsSection(w: PdfWriter, m: ReportMethods, docsUrl?: string): void {
  const device = m.device ? [m.device.hardware, m.device.firmware ? `firmware ${m.device.firmware}` : null].filter(Boolean).join(", ") : "";
  const sources = [m.sources.synced ? "synced from the ring's service" : null, m.sources.imported ? "imported from files" : null].filter(Boolean).join("; ");
  w.text("Methods", STYLES.h2);
  docsRef(w, "methods", docsUrl);
  w.keyValue("Device", device || "not known");
  w.keyValue("Data sources", sources || "none in the period");
  w.text("Units", STYLES.h3, { keepWith: 12 });
  for (const u of m.units) w.keyValue(u.label, u.unit);
  w.text("Baselines, normal ranges and signals", STYLES.h3, { keepWith: 24 });
  for (const b of m.baselines) w.text(b, STYLES.paragraph);
  w.text("Gaps", STYLES.h3, { keepWith: 12 });
  if (m.gaps.length) for (const g of m.gaps) w.text(`${reportPeriod(g)}: ${g.days} days without data`);
  else w.text("No gaps of several days in the period.", STYLES.muted);
  w.text("Not a diagnosis", STYLES.h3, { keepWith: w.blockHeight(m.disclaimer, STYLES.paragraph) });
  w.text(m.disclaimer, STYLES.paragraph);
}
