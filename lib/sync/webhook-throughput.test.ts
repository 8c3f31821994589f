// The webhook receiver's hot path (signature check, zod, one prepared INSERT OR IGNORE):
// its own service time per notification (asserted), and concurrent load through a plain
// node:http server (figures). The built app adds Next.js's overhead (the benchmark's part).
import http from "node:http";
import crypto from "node:crypto";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import { afterAll, beforeAll, expect, it } from "vitest";

type LoadResult = { requests: { average: number }; latency: { p99: number }; non2xx: number; errors: number };
type RequestParams = { body?: string; headers?: Record<string, string> };
type LoadOptions = {
  url: string;
  connections: number;
  duration: number;
  overallRate?: number;
  requests: Array<{ method: string; setupRequest: (req: RequestParams) => RequestParams }>;
};
// autocannon ships no type declarations.
const autocannon = createRequire(import.meta.url)("autocannon") as (opts: LoadOptions) => Promise<LoadResult>;

let server: http.Server;
let url = "";
const SECRET = "throughput-client-secret";

beforeAll(async () => {
  process.env.RING_CLIENT_SECRET = SECRET;
  process.env.SYNC_DISABLED = "1";
  const route = await import("@/app/api/webhooks/ring/route");
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
      void route.POST(new Request(`http://x${req.url}`, { method: "POST", headers, body: Buffer.concat(chunks) })).then(async (r) => {
        res.writeHead(r.status, { "content-type": "application/json" });
        res.end(await r.text());
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/webhooks/ring`;
});

afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
});

function notification(i: number): { body: string; headers: Record<string, string> } {
  const ts = String(Math.floor(Date.now() / 1000));
  const body = JSON.stringify({ event_type: "update", data_type: "daily_sleep", object_id: `doc-${i}`, event_time: new Date().toISOString(), user_id: "load-user" });
  const signature = crypto.createHmac("sha256", SECRET).update(ts + body).digest("hex").toUpperCase();
  return { body, headers: { "content-type": "application/json", "x-oura-timestamp": ts, "x-oura-signature": signature } };
}

it("acknowledges each notification in well under the budget (≥ 500/s, p99 ≤ 50 ms)", async () => {
  const route = await import("@/app/api/webhooks/ring/route");
  const times: number[] = [];
  const started = performance.now();
  for (let i = 0; i < 3_000; i++) {
    const n = notification(1_000_000 + i);
    const req = new Request("http://x/api/webhooks/ring", { method: "POST", headers: n.headers, body: n.body });
    const t0 = performance.now();
    const res = await route.POST(req);
    times.push(performance.now() - t0);
    expect(res.status).toBe(200);
  }
  const total = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  const p99 = times[Math.floor(times.length * 0.99)]!;
  const perSecond = times.length / times.reduce((a, b) => a + b, 0) * 1000;
  console.log(`WEBHOOK_HANDLER ${JSON.stringify({ acks_per_s_one_at_a_time: Math.round(perSecond), p50_ms: +times[times.length >> 1]!.toFixed(3), p99_ms: +p99.toFixed(3), wall_s: +total.toFixed(2) })}`);
  expect(perSecond).toBeGreaterThan(500);
  expect(p99).toBeLessThan(50);
});

it("serves concurrent load over HTTP without errors", { timeout: 30_000 }, async () => {
  let i = 0;
  const result = await autocannon({
    url,
    connections: 10,
    duration: 3,
    requests: [{ method: "POST", setupRequest: (req) => ({ ...req, ...notification(++i) }) }],
  });
  // Figures only: on a shared 2-core machine the load generator competes with the server.
  console.log(`WEBHOOK_FIGURES ${JSON.stringify({ acks_per_s: Math.round(result.requests.average), p99_ms: result.latency.p99, non2xx: result.non2xx, errors: result.errors })}`);
  expect(result.non2xx).toBe(0);
  expect(result.errors).toBe(0);
  expect(result.requests.average).toBeGreaterThan(0);
});
