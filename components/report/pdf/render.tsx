// The report's PDF, rendered on the server (issue 45): @react-pdf/renderer lays the document out
// and writes it with the PDF's built-in fonts, so nothing is downloaded and no browser runs.
// Server-only: the renderer and its layout engine never reach a browser bundle. Next.js keeps
// @react-pdf/renderer out of its server bundles too (its default serverExternalPackages): it
// runs with the installed React, which is why the document's components use no hooks.
//
// Where it renders (docs/performance.md#report-pdf): a render's layout tree lives through the
// whole render, so on the server's own thread it survives the young generation's collections and
// V8 doubles the server's semi-spaces (new space 32 → 128 MB: +200 MB of RSS over rest in
// npm run bench). So it renders on a thread of its own (./render-worker.tsx) whose heap is
// capped (RENDER_HEAP); the thread stays while renders come and ends RENDER_IDLE_MS after the
// last one, its heap, the library and the layout engine's WebAssembly memory with it. Where the
// server's own semi-spaces are capped already (a small box: lib/server/start.mjs, or
// --max-semi-space-size in NODE_OPTIONS) that growth cannot happen, and a thread would only add
// its own start-up (about 13 MB): there it renders on the server's thread.
import "server-only";
import { Worker } from "node:worker_threads";
import { reportFileName, type Report } from "@/lib/metrics/report";
import { loadPdfRenderer } from "./lean-library";
import type { ReportDocumentOptions } from "./report-document";
import type { RenderAnswer, RenderRequest } from "./render-worker";

/**
 * The render thread's heap, in MB: a young generation of a few MB that cannot grow, and an old
 * one for the library, the layout of a year's report and its garbage (a year's report renders
 * within 32; docs/performance.md#report-pdf). A render that needs more fails alone (the thread
 * ends, the server's own heap is untouched) and the next render starts a new thread.
 */
const RENDER_HEAP = { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 64 } as const;
/** How long the render thread waits for the next report before it ends. */
const RENDER_IDLE_MS = 30_000;

type Pending = { resolve: (pdf: Buffer) => void; reject: (err: Error) => void };

let thread: { worker: Worker; pending: Map<number, Pending> } | null = null;
let idle: NodeJS.Timeout | null = null;
let nextId = 1;

function startThread(): NonNullable<typeof thread> {
  const worker = new Worker(new URL("./render-worker.tsx", import.meta.url), {
    resourceLimits: RENDER_HEAP,
    // Next.js builds the thread's entry with the route; anywhere else (the tests) it is the
    // TypeScript source, which tsx loads
    ...(process.env.NEXT_RUNTIME ? {} : { execArgv: [...process.execArgv, "--import", "tsx"] }),
  });
  const pending = new Map<number, Pending>();
  const current = { worker, pending };
  const fail = (err: Error) => {
    if (thread === current) thread = null;
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  worker.on("message", (answer: RenderAnswer) => {
    const p = pending.get(answer.id);
    if (!p) return;
    pending.delete(answer.id);
    if (answer.ok) p.resolve(Buffer.from(answer.pdf.buffer, answer.pdf.byteOffset, answer.pdf.byteLength));
    else p.reject(new Error(`The report's PDF could not be rendered: ${answer.message}`));
  });
  worker.on("error", (err) => fail(err));
  worker.on("exit", (code) => fail(new Error(`The report's PDF renderer stopped (exit code ${code})`)));
  // an idle thread never keeps the process alive
  worker.unref();
  return current;
}

function renderOnThread(request: Omit<RenderRequest, "id">): Promise<Buffer> {
  if (idle) clearTimeout(idle);
  idle = null;
  thread ??= startThread();
  const current = thread;
  const id = nextId++;
  return new Promise<Buffer>((resolve, reject) => {
    current.pending.set(id, { resolve, reject });
    current.worker.postMessage({ id, ...request } satisfies RenderRequest);
  }).finally(() => {
    if (thread !== current || current.pending.size > 0) return;
    idle = setTimeout(() => {
      idle = null;
      if (thread === current && current.pending.size === 0) {
        thread = null;
        void current.worker.terminate();
      }
    }, RENDER_IDLE_MS);
    idle.unref();
  });
}

/**
 * One render at a time in this process: a render is a second or two of CPU and some tens of MB
 * of layout, so requests that come together wait for each other rather than add up (the memory
 * a render may take above rest is one render's: docs/performance.md#report-pdf).
 */
let tail: Promise<unknown> = Promise.resolve();
function oneAtATime<T>(job: () => Promise<T>): Promise<T> {
  const run = tail.then(job, job);
  tail = run.catch(() => undefined);
  return run;
}

/** The server's young generation is capped by a flag (lib/server/start.mjs on a small box, or NODE_OPTIONS). */
const youngGenerationCapped = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? "").split(/\s+/)].some((a) => /^--max[-_]semi[-_]space[-_]size\b/.test(a));

let here: ReturnType<typeof loadPdfRenderer> | null = null;
/** The report rendered on the server's own thread (where its young generation is capped; and a test's comparison). */
export async function renderReportPdfHere(report: Report, options: ReportDocumentOptions = {}): Promise<Buffer> {
  here ??= loadPdfRenderer();
  const { renderToBuffer, ReportDocument } = await here;
  return oneAtATime(() => renderToBuffer(<ReportDocument report={report} docsUrl={options.docsUrl} />));
}

/** The report as a PDF file's bytes. */
export async function renderReportPdf(report: Report, options: ReportDocumentOptions = {}): Promise<Buffer> {
  if (youngGenerationCapped) return renderReportPdfHere(report, options);
  return oneAtATime(() => renderOnThread({ report, docsUrl: options.docsUrl }));
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
