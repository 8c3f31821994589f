// Webhook receive: validly signed notifications (a fresh object_id, timestamp and signature
// per request) sent by autocannon at a fixed concurrency for a bounded time, to localhost.
import { clock } from "../../lib/clock";
import crypto from "node:crypto";
import { createRequire } from "node:module";
import { ratio, round } from "./stats";

type RequestParams = { method?: string; path?: string; body?: string; headers?: Record<string, string> };
type AutocannonResult = {
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  "2xx": number;
  latency: { p50: number; p99: number; average: number; max: number };
  requests: { average: number; total: number };
};
type AutocannonOptions = {
  url: string;
  connections: number;
  duration: number;
  timeout?: number;
  requests: Array<{ method: string; setupRequest: (req: RequestParams) => RequestParams }>;
};
// autocannon ships no type declarations.
const autocannon = createRequire(import.meta.url)("autocannon") as (opts: AutocannonOptions) => Promise<AutocannonResult>;

/** Upper-case hex HMAC-SHA256 of timestamp + raw body, keyed with the client secret (facts §6.3). */
export function signNotification(secret: string, timestamp: string, body: string): string {
  return crypto
    .createHmac("sha256", secret)
    .update(timestamp + body)
    .digest("hex")
    .toUpperCase();
}

const DATA_TYPES = ["daily_activity", "daily_readiness", "daily_sleep", "daily_spo2", "daily_stress", "sleep"] as const;

/** One signed notification; `i` makes the object id (and so the dedupe key) unique. */
export function signedNotification(secret: string, userId: string, i: number): { body: string; headers: Record<string, string> } {
  const timestamp = String(Math.floor(clock.now() / 1000));
  const body = JSON.stringify({
    event_type: i % 3 === 0 ? "create" : "update",
    data_type: DATA_TYPES[i % DATA_TYPES.length],
    object_id: `bench-${process.pid}-${i}-${crypto.randomUUID()}`,
    event_time: clock
      .date()
      .toISOString()
      .replace(/\.\d+Z$/, "+00:00"),
    user_id: userId,
  });
  return {
    body,
    headers: { "content-type": "application/json", "x-oura-timestamp": timestamp, "x-oura-signature": signNotification(secret, timestamp, body) },
  };
}

export type WebhookFigures = {
  acks_per_s: number;
  p99_ms: number;
  p50_ms: number;
  concurrency: number;
  duration_s: number;
  acked: number;
  non2xx: number;
  errors: number;
};

/** Sends signed notifications to `url` for `durationS` seconds over `connections` connections. */
export async function measureWebhooks(opts: { url: string; secret: string; userId: string; connections: number; durationS: number }): Promise<WebhookFigures> {
  if (!/^http:\/\/(localhost|127\.0\.0\.1|\[::1\])[:/]/.test(opts.url)) throw new Error("webhook load goes to localhost only");
  let i = 0;
  const result = await autocannon({
    url: opts.url,
    connections: opts.connections,
    duration: opts.durationS,
    timeout: 10,
    requests: [{ method: "POST", setupRequest: (req) => ({ ...req, method: "POST", ...signedNotification(opts.secret, opts.userId, i++) }) }],
  });
  const acked = result["2xx"];
  return {
    acks_per_s: ratio(acked, result.duration, 0),
    p99_ms: round(result.latency.p99, 1),
    p50_ms: round(result.latency.p50, 1),
    concurrency: opts.connections,
    duration_s: round(result.duration, 1),
    acked,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}
