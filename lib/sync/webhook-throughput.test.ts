// The webhook receiver's hot path (signature check, zod, one prepared INSERT OR IGNORE) under
// sequential and concurrent load: every notification acknowledged and recorded. Its throughput
// and latency through the built app are measured by `npm run bench`.
import { clock } from "@/lib/clock";
import http from "node:http";
import crypto from "node:crypto";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import { afterAll, beforeAll, expect, it } from "vitest";
import { sqlValue } from "@/lib/test/sql";

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
  const ts = String(Math.floor(clock.now() / 1000));
  const body = JSON.stringify({
    event_type: "update",
    data_type: "daily_sleep",
    object_id: `doc-${i}`,
    event_time: clock.date().toISOString(),
    user_id: "load-user",
  });
  const signature = crypto
    .createHmac("sha256", SECRET)
    .update(ts + body)
    .digest("hex")
    .toUpperCase();
  return { body, headers: { "content-type": "application/json", "x-oura-timestamp": ts, "x-oura-signature": signature } };
}

it("acknowledges 3,000 distinct notifications one after another, each with 200 and recorded once", async () => {
  const route = await import("@/app/api/webhooks/ring/route");
  const count = async () => Number(await sqlValue(`SELECT COUNT(*) AS n FROM webhook_event WHERE ringUserId = 'load-user'`));
  const before = await count();
  for (let i = 0; i < 3_000; i++) {
    const n = notification(1_000_000 + i);
    const res = await route.POST(new Request("http://x/api/webhooks/ring", { method: "POST", headers: n.headers, body: n.body }));
    expect(res.status).toBe(200);
  }
  expect((await count()) - before).toBe(3_000);
});

it("serves concurrent load over HTTP without errors", { timeout: 30_000 }, async () => {
  let i = 0;
  const result = await autocannon({
    url,
    connections: 10,
    duration: 3,
    requests: [{ method: "POST", setupRequest: (req) => ({ ...req, ...notification(++i) }) }],
  });
  expect(result.non2xx).toBe(0);
  expect(result.errors).toBe(0);
  expect(result.requests.average).toBeGreaterThan(0);
});
