// Trend reads: the trends API (a full HTTP round trip) against a raw better-sqlite3 read of the
// same rows, measured side by side (interleaved), after a warm-up.
import Database from "better-sqlite3";
import zlib from "node:zlib";
import { percentile, ratio, round } from "./stats";

export type TrendFigures = {
  p50_ms: number;
  p95_ms: number;
  raw_p95_ms: number;
  ratio: number;
  iterations: number;
  rows: number;
  /** p95 of each `also` request, timed in the same loop */
  also_p95_ms: Record<string, number>;
};

/**
 * Times `api`, `raw` and each of `also` in turn, `warmup` times unmeasured, then `iterations`
 * times each (interleaved, so they share the machine's moments). `raw` returns the rows it read
 * (their count is reported).
 */
export async function measureTrends(opts: {
  api: () => Promise<void>;
  raw: () => unknown[];
  also?: Record<string, () => Promise<void>>;
  iterations: number;
  warmup: number;
}): Promise<TrendFigures> {
  const api: number[] = [];
  const raw: number[] = [];
  const also = Object.fromEntries(Object.keys(opts.also ?? {}).map((k) => [k, [] as number[]]));
  let rows = 0;
  for (let i = 0; i < opts.warmup + opts.iterations; i++) {
    let t = performance.now();
    await opts.api();
    const a = performance.now() - t;
    t = performance.now();
    rows = opts.raw().length;
    const r = performance.now() - t;
    if (i >= opts.warmup) {
      api.push(a);
      raw.push(r);
    }
    for (const [k, run] of Object.entries(opts.also ?? {})) {
      t = performance.now();
      await run();
      if (i >= opts.warmup) also[k]!.push(performance.now() - t);
    }
  }
  const p95 = percentile(api, 95);
  const rawP95 = percentile(raw, 95);
  return {
    p50_ms: round(percentile(api, 50), 2),
    p95_ms: round(p95, 2),
    raw_p95_ms: round(rawP95, 3),
    ratio: ratio(p95, rawP95, 2),
    iterations: opts.iterations,
    rows,
    also_p95_ms: Object.fromEntries(Object.entries(also).map(([k, xs]) => [k, round(percentile(xs, 95), 2)])),
  };
}

/**
 * The answer's size: JSON bytes and gzip bytes (zlib's default level, as the server's
 * compression uses) of the compact answer as sent, and of the same series in the shape the
 * route sent before it travelled as columns (`before`).
 */
export function answerBytes(sent: string, before: unknown): { json: number; gzip: number; json_before: number; gzip_before: number } {
  const old = JSON.stringify(before);
  return {
    json: Buffer.byteLength(sent),
    gzip: zlib.gzipSync(sent).length,
    json_before: Buffer.byteLength(old),
    gzip_before: zlib.gzipSync(old).length,
  };
}

/**
 * The raw read the trends API's numeric series stands on: one daily column of one person in
 * a day range, in day order (what lib/db/queries/ring-data.ts asks SQLite for).
 */
export function rawDailyColumnReader(dbFile: string, table: string, column: string) {
  const db = new Database(dbFile, { readonly: true, fileMustExist: true });
  db.pragma("busy_timeout = 5000");
  const stmt = db.prepare(`SELECT day, "${column}" AS value FROM "${table}" WHERE userId = ? AND day >= ? AND day <= ? ORDER BY day, id`);
  return {
    read: (userId: string, from: string, to: string) => stmt.all(userId, from, to),
    close: () => db.close(),
  };
}

/** Adds `days` to a YYYY-MM-DD day (UTC calendar). */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}
