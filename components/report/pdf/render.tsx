// The report's PDF, rendered on the server (issue 45): @react-pdf/renderer lays the document out
// and writes it with the PDF's built-in fonts, so nothing is downloaded and no browser runs.
// Server-only: the renderer and its layout engine never reach a browser bundle. Next.js keeps
// @react-pdf/renderer out of its server bundles too (its default serverExternalPackages): it
// runs with the installed React, which is why the document's components use no hooks.
import "server-only";
import { Font, renderToBuffer } from "@react-pdf/renderer";
import { reportFileName, type Report } from "@/lib/metrics/report";
import { ReportDocument, type ReportDocumentOptions } from "./report-document";

// Words are never hyphenated: a figure or a name stays whole, for the eye and for text extraction.
Font.registerHyphenationCallback((word) => [word]);

/**
 * One render at a time in this process: a render is a second or two of CPU and some tens of MB
 * of layout, so requests that come together wait for each other rather than add up (the memory
 * a render may take above rest is one render's: docs/performance.md#report).
 */
let tail: Promise<unknown> = Promise.resolve();
function oneAtATime<T>(job: () => Promise<T>): Promise<T> {
  const run = tail.then(job, job);
  tail = run.catch(() => undefined);
  return run;
}

/** The report as a PDF file's bytes. */
export async function renderReportPdf(report: Report, options: ReportDocumentOptions = {}): Promise<Buffer> {
  return oneAtATime(() => renderToBuffer(<ReportDocument report={report} docsUrl={options.docsUrl} />));
}

/**
 * The report's PDF as a download: application/pdf, named for its period
 * (ringside-report-2026-01-01-to-2026-03-31.pdf), never cached (the person's data).
 */
export async function reportPdfResponse(report: Report, options: ReportDocumentOptions = {}): Promise<Response> {
  const pdf = await renderReportPdf(report, options);
  return new Response(new Uint8Array(pdf), {
    headers: {
      "content-type": "application/pdf",
      "content-disposition": `attachment; filename="${reportFileName(report.query)}"`,
      "content-length": String(pdf.length),
      "cache-control": "private, no-store",
    },
  });
}
