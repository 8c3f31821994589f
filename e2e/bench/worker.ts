// Runs one measure in a process of its own, so neither the load nor the clock shares an event
// loop with the benchmark's other state (servers' logs, samplers, thousands of documents):
//   node --import tsx e2e/bench/worker.ts '{"kind":"webhooks", …}'   → one JSON line
import http from "node:http";
import { getMetric, type MetricId } from "@/lib/metrics/catalog";
import { decodeSeries, type SeriesColumns } from "@/lib/metrics/columns";
import { buildNumericSeries } from "@/lib/metrics/series";
import { answerBytes, measureTrends, rawDailyColumnReader } from "./trends";
import { measureWebhooks } from "./webhooks";
import { percentile, round } from "./stats";

export type TrendsJob = {
  kind: "trends";
  appUrl: string;
  cookie: string;
  metric: string;
  dbFile: string;
  table: string;
  column: string;
  userId: string;
  from: string;
  to: string;
  /** first day the API reads (its warm-up for baselines): the raw query reads the same rows */
  readFrom: string;
  iterations: number;
  warmup: number;
  /** extra paths timed alone, for context (printed, not published) */
  context: Array<{ label: string; path: string; headers?: Record<string, string> }>;
};
export type WebhooksJob = { kind: "webhooks" } & Parameters<typeof measureWebhooks>[0];
export type WorkerJob = TrendsJob | WebhooksJob;

/** The bytes that crossed the wire for a gzip-accepting GET (not decompressed), and the encoding. */
function wireBytes(url: string, cookie: string): Promise<{ bytes: number; encoding: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { cookie, "accept-encoding": "gzip" } }, (res) => {
        let bytes = 0;
        res.on("data", (c: Buffer) => (bytes += c.length));
        res.on("end", () => resolve({ bytes, encoding: String(res.headers["content-encoding"] ?? "identity") }));
        res.on("error", reject);
      })
      .on("error", reject);
  });
}

async function trends(job: TrendsJob) {
  const reader = rawDailyColumnReader(job.dbFile, job.table, job.column);
  const get = async (path: string, headers: Record<string, string> = {}, status = 200) => {
    const res = await fetch(`${job.appUrl}${path}`, { headers: { cookie: job.cookie, ...headers } });
    if (res.status !== status) throw new Error(`${path.split("?")[0]}: ${res.status}, expected ${status}`);
    await res.arrayBuffer();
    return res;
  };
  const seriesPath = `/api/metrics/${job.metric}?from=${job.from}&to=${job.to}`;
  try {
    // the answer once, as sent (identity) and as a browser gets it (gzip), and its tag
    const first = await fetch(`${job.appUrl}${seriesPath}`, { headers: { cookie: job.cookie, "accept-encoding": "identity" } });
    const etag = first.headers.get("etag");
    if (first.status !== 200 || !etag) throw new Error(`${seriesPath.split("?")[0]}: ${first.status}, etag ${etag}`);
    const sent = await first.text();
    // before: what the route answered until it sent columns — the same pure builder over the
    // same rows, one array per field at full precision (what /api/v1 still answers)
    const rows = reader.read(job.userId, job.readFrom, job.to) as Array<{ day: string; value: number | null }>;
    const before = buildNumericSeries(getMetric(job.metric as MetricId), rows, job.from, job.to);
    const decoded = decodeSeries(JSON.parse(sent) as SeriesColumns);
    if (JSON.stringify(decoded.value) !== JSON.stringify(before.value)) throw new Error("the answer's values differ from the raw rows' series");
    const bytes = answerBytes(sent, before);
    const wire = await wireBytes(`${job.appUrl}${seriesPath}`, job.cookie);
    const figures = await measureTrends({
      warmup: job.warmup,
      iterations: job.iterations,
      api: async () => void (await get(seriesPath)),
      raw: () => reader.read(job.userId, job.readFrom, job.to),
      also: {
        health: async () => void (await get("/api/health")),
        notModified: async () => void (await get(seriesPath, { "if-none-match": etag }, 304)),
      },
    });
    const context: Record<string, string> = {};
    for (const c of job.context) {
      const xs: number[] = [];
      for (let i = 0; i < job.warmup + job.iterations / 2; i++) {
        const t = performance.now();
        await get(c.path, c.headers);
        if (i >= job.warmup) xs.push(performance.now() - t);
      }
      context[c.label] = `p50 ${round(percentile(xs, 50), 2)} ms, p95 ${round(percentile(xs, 95), 2)} ms`;
    }
    return { ...figures, context, bytes: { ...bytes, wire: wire.bytes, wire_encoding: wire.encoding } };
  } finally {
    reader.close();
  }
}

const job = JSON.parse(process.argv[2] ?? "{}") as WorkerJob;
(job.kind === "trends" ? trends(job) : measureWebhooks(job)).then(
  (figures) => {
    process.stdout.write(`${JSON.stringify(figures)}\n`);
    process.exit(0);
  },
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
