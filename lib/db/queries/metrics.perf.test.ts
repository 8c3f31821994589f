// The trends read path on five years of data: reading a metric's series with its statistics
// (what GET /api/metrics/:metric does after the session check) must stay within 3× of a raw
// better-sqlite3 read of the same rows.
import { beforeAll, describe, expect, it } from "vitest";
import { generateRange, COLLECTIONS as FIXTURE_COLLECTIONS } from "@/lib/emulator/fixtures";

const USER = "u-perf";
const LAST = "2026-06-30";
const FIRST = "2021-07-01";

beforeAll(async () => {
  const { rawDb } = await import("@/lib/db/raw");
  const { mapDocument } = await import("@/lib/sync/map");
  const { ingestDocuments } = await import("@/lib/db/queries/ring-documents");
  const now = new Date().toISOString();
  rawDb()
    .prepare(`INSERT INTO "User" (id, email, role, units, theme, createdAt, updatedAt) VALUES (?, ?, 'owner', 'metric', 'system', ?, ?)`)
    .run(USER, "perf@example.test", now, now);
  const docs = generateRange({ seed: "perf", userKey: "perf" }, FIRST, LAST);
  for (const c of FIXTURE_COLLECTIONS) {
    const rows = docs[c].map((d) => mapDocument(c, d, USER, now)).flatMap((r) => (r.ok ? [r.row] : []));
    for (let i = 0; i < rows.length; i += 1000) ingestDocuments({ collection: c, userId: USER, rows: rows.slice(i, i + 1000) });
  }
}, 60_000);

function p95(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.ceil(s.length * 0.95) - 1]!;
}

describe("trends read path", () => {
  it.each([
    ["sleep.score", "2025-07-01", LAST],
    ["night.average_hrv", "2025-07-01", LAST],
    ["activity.steps", FIRST, LAST],
  ])("reads %s (%s to %s) within 3× of the raw query", async (id, from, to) => {
    const { getMetricSeries } = await import("@/lib/db/queries/metrics");
    const { rawDb } = await import("@/lib/db/raw");
    const { getMetric } = await import("@/lib/metrics/catalog");
    const { warmupFrom } = await import("@/lib/metrics/series");
    const metric = getMetric(id)!;
    const start = warmupFrom(from, to);
    // the same rows the series reads (sleep periods: every period of those days)
    const raw =
      metric.source.type === "daily"
        ? rawDb().prepare(`SELECT day, "${metric.source.column}" AS value FROM daily_${metric.collection.replace("daily_", "")} WHERE userId = ? AND day >= ? AND day <= ? ORDER BY day, id`)
        : rawDb().prepare(`SELECT day, type, total_sleep_duration, time_in_bed, average_hrv FROM sleep_period WHERE userId = ? AND day >= ? AND day <= ? ORDER BY day, bedtime_start, id`);
    const api: number[] = [];
    const sql: number[] = [];
    for (let i = 0; i < 260; i++) {
      let t = performance.now();
      const s = getMetricSeries({ userId: USER, metric, from, to });
      JSON.stringify(s);
      api.push(performance.now() - t);
      t = performance.now();
      raw.all(USER, start, to);
      sql.push(performance.now() - t);
    }
    const ratio = p95(api.slice(60)) / p95(sql.slice(60));
    expect(ratio, `series p95 ${p95(api.slice(60)).toFixed(3)} ms, raw p95 ${p95(sql.slice(60)).toFixed(3)} ms`).toBeLessThanOrEqual(3);
  });
});
