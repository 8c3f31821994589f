// The report's PDF, rendered on the server (issue 45): pdfkit writes it with the PDF's built-in
// fonts (./document.ts), so nothing is downloaded and no browser runs. Server-only: pdfkit never
// reaches a browser bundle, and Next.js leaves it in node_modules (next.config.mjs's
// serverExternalPackages), loaded by ./lean-library.ts at the first report.
//
// It renders on the server's own thread: pdfkit holds no layout tree (the document is written
// page by page as it goes), so a render takes a few MB of short-lived heap; a thread of its own
// would only add its start (docs/performance.md#report-pdf).
import "server-only";
import { AppError } from "@/lib/http/errors";
import { reportFileName, type Report } from "@/lib/metrics/report";
import { newReportDocument, writeReport, type ReportDocumentOptions } from "./document";
import { loadPdfKit } from "./lean-library";

/**
 * One render at a time in this process: requests that come together wait for each other rather
 * than add up (the memory a render may take above rest is one render's: docs/performance.md#report-pdf).
 */
let tail: Promise<unknown> = Promise.resolve();
function oneAtATime<T>(job: () => Promise<T>): Promise<T> {
  const run = tail.then(job, job);
  tail = run.catch(() => undefined);
  return run;
}

/**
 * The reports this process holds for a PDF at once, being built or waiting to be drawn (one
 * drawn at a time): past it a request is answered at once with 503 and Retry-After instead of
 * waiting without end, and nothing of it is built.
 */
export const REPORT_PDF_QUEUE_MAX = 4;
/** Seconds a refused PDF is told to wait (a render takes well under a second: docs/performance.md#report-pdf). */
export const REPORT_PDF_RETRY_AFTER_S = 5;

let queued = 0;

let library: ReturnType<typeof loadPdfKit> | null = null;

/** The report as a PDF file's bytes. */
export async function renderReportPdf(report: Report, options: ReportDocumentOptions = {}): Promise<Buffer> {
  library ??= loadPdfKit();
  const PDFDocument = await library;
  return oneAtATime(
    () =>
      new Promise<Buffer>((resolve, reject) => {
        // the pages are written out as each is full: taken as they come
        const doc = newReportDocument(PDFDocument, report);
        const chunks: Buffer[] = [];
        doc.on("data", (c: Buffer) => chunks.push(c));
        doc.on("end", () => resolve(Buffer.concat(chunks)));
        doc.on("error", reject);
        try {
          writeReport(doc, report, options);
        } catch (e) {
          reject(e instanceof Error ? e : new Error(String(e)));
        }
      }),
  );
}

/**
 * The report's PDF as a download: application/pdf, named for its period
 * (ringside-report-2026-01-01-to-2026-03-31.pdf), never cached (the person's data). `build`
 * makes the report once the request has its place in the queue; a full queue is an AppError 503
 * whose details say when to come back (the routes answer it with Retry-After).
 */
export async function reportPdfResponse(build: () => Promise<Report>, options: ReportDocumentOptions = {}): Promise<Response> {
  if (queued >= REPORT_PDF_QUEUE_MAX)
    throw new AppError("service_unavailable", `Several reports are being made just now: try again in ${REPORT_PDF_RETRY_AFTER_S} seconds.`, {
      retryAfterS: REPORT_PDF_RETRY_AFTER_S,
    });
  queued++;
  let report: Report;
  let pdf: Buffer;
  try {
    report = await build();
    pdf = await renderReportPdf(report, options);
  } finally {
    queued--;
  }
  return new Response(new Uint8Array(pdf), {
    headers: {
      "content-type": "application/pdf",
      "content-disposition": `attachment; filename="${reportFileName(report.query)}"`,
      "content-length": String(pdf.length),
      "cache-control": "private, no-store",
    },
  });
}
