// The report's PDF, rendered on the server (issue 45): @react-pdf/renderer lays the document out
// and writes it with the PDF's built-in fonts, so nothing is downloaded and no browser runs.
// Server-only: the renderer and its layout engine never reach a browser bundle. Next.js keeps
// @react-pdf/renderer out of its server bundles too (its default serverExternalPackages): it
// runs with the installed React, which is why the document's components use no hooks.
import "server-only";
import { Font, renderToBuffer } from "@react-pdf/renderer";
import type { Report } from "@/lib/metrics/report";
import { ReportDocument, type ReportDocumentOptions } from "./report-document";

// Words are never hyphenated: a figure or a name stays whole, for the eye and for text extraction.
Font.registerHyphenationCallback((word) => [word]);

/** The report as a PDF file's bytes. */
export async function renderReportPdf(report: Report, options: ReportDocumentOptions = {}): Promise<Buffer> {
  return renderToBuffer(<ReportDocument report={report} docsUrl={options.docsUrl} />);
}
