// The published figures (results/latest.json, exactly this shape, numbers only) and the
// table printed with them, each measure beside its target.

export type BenchResult = {
  date: string;
  node: string;
  cores: number;
  backfill: {
    years: number;
    documents: number;
    wall_s: number;
    requests: number;
    min_requests: number;
    ingest_s: number;
    raw_ingest_s: number;
    ingest_ratio: number;
  };
  /**
   * the 5-year trends answer (200) against the raw query, the same loop's /api/health and the
   * same request with its ETag in If-None-Match (304)
   */
  trends: { p50_ms: number; p95_ms: number; raw_p95_ms: number; ratio: number; health_p95_ms: number; not_modified_p95_ms: number };
  /** the 5-year trends answer's bytes: as sent now (columns) and in the shape sent before; `wire`: gzip bytes received */
  trends_answer: { json_bytes: number; gzip_bytes: number; json_bytes_before: number; gzip_bytes_before: number; wire_bytes: number };
  /** the 5-year heart-rate backfill of the same connect, and one day's curve read */
  heart_rate: {
    years: number;
    samples: number;
    wall_s: number;
    requests: number;
    min_requests: number;
    ingest_s: number;
    raw_ingest_s: number;
    ingest_ratio: number;
    day_read_p95_ms: number;
    raw_day_read_p95_ms: number;
    day_read_ratio: number;
  };
  /** the same samples stored one row per sample against packed per person and UTC day (the layout's choice) */
  heart_rate_layouts: {
    rows: { ingest_s: number; mb: number; day_read_p95_ms: number };
    packed: { ingest_s: number; mb: number; day_read_p95_ms: number };
  };
  webhooks: { acks_per_s: number; p99_ms: number; concurrency: number; duration_s: number };
  pages: {
    today: { charts_ms: number; js_gzip_kb: number };
    trends: { charts_ms: number; js_gzip_kb: number };
    correlations: { charts_ms: number; js_gzip_kb: number };
  };
  /** RSS: right after start, at rest after the whole run, the peak of the whole run and of the backfill */
  memory: { idle_mb: number; rest_mb: number; peak_mb: number; peak_backfill_mb: number };
  /**
   * a 5-year account export (heart rate every 5 minutes of wear) through POST /api/import
   * (e2e/bench/import.ts): its wall time and the server's RSS at rest before and its peak
   */
  import?: { years: number; samples: number; documents: number; zip_mb: number; wall_s: number; rest_mb: number; peak_mb: number; peak_above_rest_mb: number };
};

/** The import's targets: a 5-year export within a minute, the server's memory peak within 100 MB above rest. */
export const IMPORT_TARGETS = { wall_s: 60, peak_above_rest_mb: 100 } as const;

/** The trends answer's budget: 1.5 × (p95 of /api/health + p95 of the raw query). */
export const trendsBudgetMs = (t: BenchResult["trends"]) => Math.round(1.5 * (t.health_p95_ms + t.raw_p95_ms) * 100) / 100;
/** The 304's budget: 1.2 × the p95 of /api/health. */
export const notModifiedBudgetMs = (t: BenchResult["trends"]) => Math.round(1.2 * t.health_p95_ms * 100) / 100;
const PAGE_BUDGET_MS = 500;
const kb = (bytes: number) => `${Math.round(bytes / 102.4) / 10} kB`;

export type Check = { measure: string; value: string; target: string; ok: boolean };

/** Every target of the issue, checked against one run's figures. */
export function checkTargets(r: BenchResult): Check[] {
  const reqRatio = r.backfill.min_requests > 0 ? r.backfill.requests / r.backfill.min_requests : Infinity;
  return [
    { measure: "5-year backfill wall time", value: `${r.backfill.wall_s} s (${r.backfill.documents} documents)`, target: "≤ 5 s", ok: r.backfill.wall_s <= 5 },
    {
      measure: "Ingest vs raw better-sqlite3 upsert",
      value: `${r.backfill.ingest_s} s vs ${r.backfill.raw_ingest_s} s = ${r.backfill.ingest_ratio}×`,
      target: "≤ 2×",
      ok: r.backfill.ingest_ratio <= 2,
    },
    {
      measure: "Requests vs minimum",
      value: `${r.backfill.requests} vs ${r.backfill.min_requests} = ${Math.round(reqRatio * 100) / 100}×`,
      target: "≤ 1.1×",
      ok: reqRatio <= 1.1,
    },
    {
      measure: "5-year heart-rate backfill wall time",
      value: `${r.heart_rate.wall_s} s (${r.heart_rate.samples} samples)`,
      target: "≤ 10 s",
      ok: r.heart_rate.wall_s <= 10,
    },
    {
      measure: "Heart-rate requests vs minimum",
      value: `${r.heart_rate.requests} vs ${r.heart_rate.min_requests} = ${r.heart_rate.min_requests > 0 ? Math.round((r.heart_rate.requests / r.heart_rate.min_requests) * 100) / 100 : "∞"}×`,
      target: "≤ 1.1×",
      ok: r.heart_rate.min_requests > 0 && r.heart_rate.requests / r.heart_rate.min_requests <= 1.1,
    },
    {
      measure: "Heart-rate ingest vs raw insert",
      value: `${r.heart_rate.ingest_s} s vs ${r.heart_rate.raw_ingest_s} s = ${r.heart_rate.ingest_ratio}×`,
      target: "≤ 2×",
      ok: r.heart_rate.ingest_ratio <= 2,
    },
    {
      measure: "One day's heart-rate curve p95",
      value: `${r.heart_rate.day_read_p95_ms} ms vs raw query ${r.heart_rate.raw_day_read_p95_ms} ms = ${r.heart_rate.day_read_ratio}×`,
      target: "milliseconds (≤ 5 ms)",
      ok: r.heart_rate.day_read_p95_ms <= 5,
    },
    {
      measure: "Trends API p95 (5 years)",
      value: `${r.trends.p95_ms} ms (p50 ${r.trends.p50_ms} ms); /api/health ${r.trends.health_p95_ms} ms, raw query ${r.trends.raw_p95_ms} ms (${r.trends.ratio}× raw)`,
      target: `≤ 1.5 × (health + raw) = ${trendsBudgetMs(r.trends)} ms`,
      ok: r.trends.p95_ms <= trendsBudgetMs(r.trends),
    },
    {
      measure: "Trends API 304 (matching ETag) p95",
      value: `${r.trends.not_modified_p95_ms} ms vs /api/health ${r.trends.health_p95_ms} ms`,
      target: `≤ 1.2 × health = ${notModifiedBudgetMs(r.trends)} ms`,
      ok: r.trends.not_modified_p95_ms <= notModifiedBudgetMs(r.trends),
    },
    {
      measure: "Trends answer (5 years), gzip",
      value: `${kb(r.trends_answer.gzip_bytes)} (JSON ${kb(r.trends_answer.json_bytes)}) vs ${kb(r.trends_answer.gzip_bytes_before)} (JSON ${kb(r.trends_answer.json_bytes_before)}) before`,
      target: "smaller than before",
      ok: r.trends_answer.gzip_bytes < r.trends_answer.gzip_bytes_before,
    },
    {
      measure: "Webhook acks",
      value: `${r.webhooks.acks_per_s}/s, p99 ${r.webhooks.p99_ms} ms (${r.webhooks.concurrency} connections, ${r.webhooks.duration_s} s)`,
      target: "≥ 500/s, p99 ≤ 50 ms",
      ok: r.webhooks.acks_per_s >= 500 && r.webhooks.p99_ms <= 50,
    },
    ...(["today", "trends", "correlations"] as const).map((p) => ({
      measure: `${p[0]!.toUpperCase()}${p.slice(1)}: charts drawn, JS`,
      value: `${r.pages[p].charts_ms} ms, ${r.pages[p].js_gzip_kb} kB gzip`,
      target: `≤ ${PAGE_BUDGET_MS} ms; ≤ 200 kB`,
      ok: r.pages[p].charts_ms <= PAGE_BUDGET_MS && r.pages[p].js_gzip_kb <= 200,
    })),
    ...(r.import
      ? [
          {
            measure: "Import of a 5-year export",
            value: `${r.import.wall_s} s for ${r.import.samples} heart-rate samples and ${r.import.documents} documents (${r.import.zip_mb} MB ZIP); RSS +${r.import.peak_above_rest_mb} MB above ${r.import.rest_mb} MB at rest`,
            target: `≤ ${IMPORT_TARGETS.wall_s} s; ≤ +${IMPORT_TARGETS.peak_above_rest_mb} MB`,
            ok: r.import.wall_s <= IMPORT_TARGETS.wall_s && r.import.peak_above_rest_mb <= IMPORT_TARGETS.peak_above_rest_mb,
          },
        ]
      : []),
    {
      measure: "App memory (RSS)",
      value: `${r.memory.rest_mb} MB at rest after the run (${r.memory.idle_mb} MB after start); peak ${r.memory.peak_mb} MB (backfill ${r.memory.peak_backfill_mb} MB)`,
      target: "at rest ≤ 200 MB; peak ≤ 300 MB",
      ok: r.memory.rest_mb <= 200 && r.memory.idle_mb <= 200 && r.memory.peak_mb <= 300,
    },
  ];
}

/** A plain-text table: measure | figure | target | met. */
export function formatTable(checks: Check[]): string {
  const rows = [["Measure", "Figure", "Target", "Met"], ...checks.map((c) => [c.measure, c.value, c.target, c.ok ? "yes" : "NO"])];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i]!)).join("  ");
  return [line(rows[0]!), widths.map((w) => "-".repeat(w)).join("  "), ...rows.slice(1).map(line)].join("\n");
}

/** True when `value` has exactly the published shape with finite numbers (and the date/node strings). */
export function isBenchResult(value: unknown): value is BenchResult {
  const shape: Record<string, unknown> = {
    date: "s",
    node: "s",
    cores: 0,
    backfill: { years: 0, documents: 0, wall_s: 0, requests: 0, min_requests: 0, ingest_s: 0, raw_ingest_s: 0, ingest_ratio: 0 },
    trends: { p50_ms: 0, p95_ms: 0, raw_p95_ms: 0, ratio: 0, health_p95_ms: 0, not_modified_p95_ms: 0 },
    trends_answer: { json_bytes: 0, gzip_bytes: 0, json_bytes_before: 0, gzip_bytes_before: 0, wire_bytes: 0 },
    heart_rate: {
      years: 0,
      samples: 0,
      wall_s: 0,
      requests: 0,
      min_requests: 0,
      ingest_s: 0,
      raw_ingest_s: 0,
      ingest_ratio: 0,
      day_read_p95_ms: 0,
      raw_day_read_p95_ms: 0,
      day_read_ratio: 0,
    },
    heart_rate_layouts: { rows: { ingest_s: 0, mb: 0, day_read_p95_ms: 0 }, packed: { ingest_s: 0, mb: 0, day_read_p95_ms: 0 } },
    webhooks: { acks_per_s: 0, p99_ms: 0, concurrency: 0, duration_s: 0 },
    pages: { today: { charts_ms: 0, js_gzip_kb: 0 }, trends: { charts_ms: 0, js_gzip_kb: 0 }, correlations: { charts_ms: 0, js_gzip_kb: 0 } },
    memory: { idle_mb: 0, rest_mb: 0, peak_mb: 0, peak_backfill_mb: 0 },
    import: { years: 0, samples: 0, documents: 0, zip_mb: 0, wall_s: 0, rest_mb: 0, peak_mb: 0, peak_above_rest_mb: 0 },
  };
  /** top-level parts a result may lack (a run that did not measure them) */
  const optional = new Set(["import"]);
  const same = (v: unknown, s: unknown, top = false): boolean => {
    if (s === "s") return typeof v === "string";
    if (typeof s === "number") return typeof v === "number" && Number.isFinite(v);
    if (!v || typeof v !== "object" || Array.isArray(v)) return false;
    const a = Object.keys(v as object).sort();
    const b = Object.keys(s as object)
      .filter((k) => !top || !optional.has(k) || k in (v as object))
      .sort();
    return a.length === b.length && a.every((k, i) => k === b[i] && same((v as Record<string, unknown>)[k], (s as Record<string, unknown>)[k]));
  };
  return same(value, shape, true);
}
