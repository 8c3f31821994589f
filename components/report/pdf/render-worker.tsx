// The report's PDF renderer on a thread of its own (./render.tsx starts it): each message is one
// report to render; the answer is the PDF's bytes (moved, not copied) or the error's message.
// The thread keeps the library loaded between renders and ends when render.tsx lets it go.
import { parentPort } from "node:worker_threads";
import type { Report } from "@/lib/metrics/report";
import { loadPdfRenderer } from "./lean-library";

/** What render.tsx sends: one report and where its figures are explained. */
export type RenderRequest = { id: number; report: Report; docsUrl?: string };
/** What this thread answers: the PDF's bytes, or why there are none. */
export type RenderAnswer = { id: number; ok: true; pdf: Uint8Array<ArrayBuffer> } | { id: number; ok: false; message: string };

const port = parentPort;
if (!port) throw new Error("render-worker runs as a worker thread (components/report/pdf/render.tsx)");
const renderer = loadPdfRenderer();

port.on("message", async ({ id, report, docsUrl }: RenderRequest) => {
  let answer: RenderAnswer;
  try {
    const { renderToBuffer, ReportDocument } = await renderer;
    // a copy of its own (tens of kB), so that its memory can be moved to the server's thread
    answer = { id, ok: true, pdf: new Uint8Array(await renderToBuffer(<ReportDocument report={report} docsUrl={docsUrl} />)) };
  } catch (e) {
    answer = { id, ok: false, message: e instanceof Error ? e.message : String(e) };
  }
  port.postMessage(answer, answer.ok ? [answer.pdf.buffer] : []);
});
