// The report's summary page in the PDF: who and when, the means of the scores and of the
// nightly physiology (with the compared period's and the normal range), the nights early warning
// flagged, then sleep debt and regularity. The words are the page's (components/report/report-text.ts).
import { REPORT_COMPARE_LABELS, REPORT_SECTION_LABELS, type ReportMean, type ReportSection, type ReportSummary } from "@/lib/metrics/report";
import { MARKER_LABELS, type Marker } from "@/lib/signals/early-warning";
import {
  reportDay,
  reportFigureLine,
  reportMeanCells,
  reportMeanHeads,
  reportPeriod,
  reportPerson,
  reportSleepNeedLine,
} from "@/components/report/report-text";
import type { Column, PdfWriter } from "./layout";
import { STYLES } from "./styles";

/** "How these figures are computed: docs/report.md, …", a link to the docs page's section when its address is known. */
export function docsRef(w: PdfWriter, section: ReportSection, docsUrl?: string): void {
  const words = `How these figures are computed: docs/report.md, "${REPORT_SECTION_LABELS[section]}".`;
  w.text(words, docsUrl ? STYLES.link : STYLES.ref, docsUrl ? { link: `${docsUrl}#${section}` } : {});
}

/** The widths of the means table's columns (shares of the content's width), with and without the comparison. */
const MEAN_WIDTHS = { compared: [0.22, 0.12, 0.07, 0.12, 0.1, 0.22, 0.15], alone: [0.3, 0.12, 0.07, 0.27, 0.24] } as const;

function meansTable(w: PdfWriter, means: readonly ReportMean[], compared: boolean): void {
  const widths = compared ? MEAN_WIDTHS.compared : MEAN_WIDTHS.alone;
  const columns: Column[] = reportMeanHeads(compared).map((head, i) => ({ head, width: widths[i]!, align: i === 0 ? "left" : "right" }));
  w.table(
    columns,
    means.map((m) => reportMeanCells(m, compared)),
  );
}

const EARLY_WARNING_COLUMNS: Column[] = [
  { head: "Night", width: 0.22 },
  { head: "Level", width: 0.12 },
  { head: "Flags", width: 0.08, align: "right" },
  { head: "Markers", width: 0.4 },
  { head: "Rest mode", width: 0.18 },
];

/** The summary: the title page's section. */
export function summarySection(w: PdfWriter, s: ReportSummary, docsUrl?: string): void {
  const compared = s.compared !== null;
  const ew = s.earlyWarning;
  w.text("Summary", STYLES.h2);
  docsRef(w, "summary", docsUrl);
  if (reportPerson(s.person)) w.keyValue("Person", reportPerson(s.person));
  w.keyValue("Period", `${reportPeriod(s)} (${s.days} days)`);
  w.keyValue("Compared with", s.compared ? `${REPORT_COMPARE_LABELS[s.compare]}: ${reportPeriod(s.compared)}` : REPORT_COMPARE_LABELS.none);
  w.keyValue("Nights with data", `${s.nightsWithData} of ${s.days}`);
  w.keyValue("Days with data", `${s.daysWithData} of ${s.days}`);

  w.text("Scores", STYLES.h3, { keepWith: 30 });
  meansTable(w, s.scores, compared);
  w.text("Nightly physiology", STYLES.h3, { keepWith: 30 });
  meansTable(w, s.physiology, compared);

  const flagged = `${ew.watch + ew.likely} of ${ew.judged} judged nights flagged: ${ew.likely} likely, ${ew.watch} watch.`;
  w.text("Early warning", STYLES.h3, { keepWith: w.blockHeight(flagged, STYLES.paragraph) });
  w.text(flagged, STYLES.paragraph);
  if (ew.nights.length > 0)
    w.table(
      EARLY_WARNING_COLUMNS,
      ew.nights.map((n) => [
        reportDay(n.day),
        n.level,
        String(n.flags),
        n.markers.map((m) => MARKER_LABELS[m as Marker] ?? m).join(", ") || "—",
        n.muted ? "on (not alerted)" : "off",
      ]),
    );

  const regularity: Array<[string, string]> = [
    ["Sleep debt", reportFigureLine(s.sleepDebt, "h", 1)],
    ["Sleep need", reportSleepNeedLine(s.sleepNeed)],
    ["Sleep Regularity Index (SRI)", reportFigureLine(s.regularity.sri, "", 0)],
    ["Bedtime spread (SD)", reportFigureLine(s.regularity.bedtimeSdMin, "min", 0)],
    ["Wake-time spread (SD)", reportFigureLine(s.regularity.wakeTimeSdMin, "min", 0)],
  ];
  // the heading and its lines on one page
  w.ensure(w.blockHeight("Sleep debt and regularity", STYLES.h3) + regularity.reduce((h, [k, v]) => h + w.keyValueHeight(k, v), 0));
  w.text("Sleep debt and regularity", STYLES.h3);
  for (const [k, v] of regularity) w.keyValue(k, v);
}
