// The report as a PDF document (issue 45), written with pdfkit alone: the same Report the page
// shows (lib/metrics/report.ts), in the order: the summary page, the charts, the events
// (with the notes and the cycle when the person included them), then the methods. Real text in
// the PDF's built-in Helvetica (no font file), the document's title and language set, the charts
// as vectors (./charts.ts). The charts, the events and the methods each start a new page and say
// where their figures are explained (docs/report.md); every page carries the title, "not a
// diagnosis" and its number.
import { downloadingLine, type Report } from "@/lib/metrics/report";
import { reportDay, reportPeriod } from "@/components/report/report-text";
import { PdfWriter } from "./layout";
import { chartsSection, cycleSection, eventsSection, methodsSection, notesSection, tagsSection } from "./sections";
import { PDF_PAGE, STYLES } from "./styles";
import { summarySection } from "./summary";
import { pdfText } from "./text";

/** Where the figures are explained: the docs page's address, when the caller knows the server's origin. */
export type ReportDocumentOptions = { docsUrl?: string };

/** pdfkit's document class (loaded by ./render.ts, after its unused imports are stubbed). */
export type PdfDocumentClass = new (options?: PDFKit.PDFDocumentOptions) => PDFKit.PDFDocument;

/** The report's blocks, page after page, on `w`. */
function writeSections(w: PdfWriter, report: Report, docsUrl?: string): void {
  const q = report.query;
  w.text(report.title, STYLES.title);
  w.text(`${reportPeriod(q)} · generated ${reportDay(report.generatedAt.slice(0, 10))} by Ringside`, STYLES.subtitle);
  if (report.downloading) {
    w.text(downloadingLine(report.downloading, reportDay), STYLES.notice);
    w.text("Its charts fill in as it arrives.", STYLES.muted);
  }
  // the charts, the events and the methods each start on a new page (unless the first section on the title page)
  let written = false;
  const section = (newPage: boolean, write: () => void) => {
    if (newPage && written) w.newPage();
    write();
    written = true;
  };
  if (report.summary) section(false, () => summarySection(w, report.summary!, docsUrl));
  if (report.charts) section(true, () => chartsSection(w, report, docsUrl));
  if (report.events) section(true, () => eventsSection(w, report.events!, docsUrl));
  if (report.notes) section(false, () => notesSection(w, report.notes!, docsUrl));
  if (report.tags) section(false, () => tagsSection(w, report.tags!, docsUrl));
  if (report.cycle) section(false, () => cycleSection(w, report.cycle!, docsUrl));
  if (report.methods) section(true, () => methodsSection(w, report.methods!, docsUrl));
}

/** A new document for the report: A4, its title, language and dates set; its bytes come out of its stream. */
export function newReportDocument(PDFDocument: PdfDocumentClass, report: Report): PDFKit.PDFDocument {
  const q = report.query;
  const created = new Date(report.generatedAt);
  const doc = new PDFDocument({
    size: "A4",
    // pdfkit never breaks a page by itself: the layout (./layout.ts) keeps the bottom margin
    margins: { top: PDF_PAGE.margin, left: PDF_PAGE.margin, right: PDF_PAGE.margin, bottom: 0 },
    lang: report.lang,
    displayTitle: true,
    info: {
      Title: pdfText(report.title),
      Author: "Ringside",
      Creator: "Ringside",
      Producer: "Ringside",
      Subject: pdfText(`Ring data report, ${q.from} to ${q.to}`),
      CreationDate: created,
      ModDate: created,
    },
  });
  return doc;
}

/** Writes the report on `doc` (from newReportDocument), page after page, and ends it. */
export function writeReport(doc: PDFKit.PDFDocument, report: Report, options: ReportDocumentOptions = {}): void {
  // a dry run counts the pages (for "Page n of m"), then the real one writes them
  const dry = new PdfWriter(doc, { dry: true });
  writeSections(dry, report, options.docsUrl);
  const w = new PdfWriter(doc, { dry: false, pages: dry.page, footer: pdfText(report.title) });
  writeSections(w, report, options.docsUrl);
  w.finish();
  doc.end();
}
