// The report's PDF (issue 45), a step of `npm run bench` (main pass and small box) and of
// `npm run bench:report`: a person with five years of history, signed in, downloads the report
// of the last 90 days and of the last year (GET /api/report, every default section, compared with
// the period before) from the production server. Figures: each download's wall time (the median
// of RUNS, the report's reading and the PDF's rendering both) and the server's RSS peak during
// them above its RSS at rest just before the first (which a fresh server's first render
// includes: the PDF library is loaded then). Targets: ≤ 2 s, ≤ 5 s, ≤ +60 MB.
import { readRssMb, sampleRss } from "./memory";
import { median, round } from "./stats";
import { addDays } from "./trends";

export type ReportFigures = { pdf_90d_s: number; pdf_1y_s: number; render_peak_above_rest_mb: number };

export const REPORT_TARGETS = { pdf_90d_s: 2, pdf_1y_s: 5, render_peak_above_rest_mb: 60 } as const;

const RUNS = 3;

export type MeasureReportOptions = {
  appUrl: string;
  serverPid: number;
  /** the signed-in person's session cookie (a Cookie header) */
  cookie: string;
  /** the last day of the person's history */
  lastDay: string;
  log: (msg: string) => void;
};

/** One download: its wall time in seconds; throws unless it is a PDF. */
async function download(opts: MeasureReportOptions, days: number): Promise<number> {
  const from = addDays(opts.lastDay, -(days - 1));
  const url = `${opts.appUrl}/api/report?from=${from}&to=${opts.lastDay}&compare=previous`;
  const started = performance.now();
  const res = await fetch(url, { headers: { cookie: opts.cookie } });
  const body = Buffer.from(await res.arrayBuffer());
  const s = (performance.now() - started) / 1000;
  if (res.status !== 200 || res.headers.get("content-type") !== "application/pdf" || body.subarray(0, 5).toString("latin1") !== "%PDF-") {
    throw new Error(`GET /api/report (${days} days) → ${res.status} ${res.headers.get("content-type")}: ${body.subarray(0, 200).toString("utf8")}`);
  }
  return s;
}

export async function measureReport(opts: MeasureReportOptions): Promise<ReportFigures> {
  const restMb = readRssMb(opts.serverPid) ?? 0;
  const rss = sampleRss(opts.serverPid, 20);
  const runs90: number[] = [];
  const runsYear: number[] = [];
  let peakMb = restMb;
  try {
    for (let i = 0; i < RUNS; i++) {
      runs90.push(await download(opts, 90));
      runsYear.push(await download(opts, 365));
    }
  } finally {
    const peak = rss.stop();
    peakMb = peak.peakMb;
    opts.log(
      `report: 90 days ${runs90.map((s) => round(s, 2)).join(", ")} s; a year ${runsYear.map((s) => round(s, 2)).join(", ")} s; ` +
        `RSS ${round(restMb, 0)} MB at rest before, peak ${round(peakMb, 0)} MB (${peak.samples} samples)`,
    );
  }
  return { pdf_90d_s: round(median(runs90), 2), pdf_1y_s: round(median(runsYear), 2), render_peak_above_rest_mb: round(Math.max(0, peakMb - restMb), 0) };
}
