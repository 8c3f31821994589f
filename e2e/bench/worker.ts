// Runs one measure in a process of its own, so neither the load nor the clock shares an event
// loop with the benchmark's other state (servers' logs, samplers, thousands of documents):
//   node --import tsx e2e/bench/worker.ts '{"kind":"webhooks", …}'   → one JSON line
import { measureTrends, rawDailyColumnReader } from "./trends";
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

async function trends(job: TrendsJob) {
  const reader = rawDailyColumnReader(job.dbFile, job.table, job.column);
  const get = async (path: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${job.appUrl}${path}`, { headers: { cookie: job.cookie, ...headers } });
    if (res.status !== 200) throw new Error(`${path.split("?")[0]}: ${res.status}`);
    await res.arrayBuffer();
  };
  try {
    const figures = await measureTrends({
      warmup: job.warmup,
      iterations: job.iterations,
      api: () => get(`/api/metrics/${job.metric}?from=${job.from}&to=${job.to}`),
      raw: () => reader.read(job.userId, job.readFrom, job.to),
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
    return { ...figures, context };
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
