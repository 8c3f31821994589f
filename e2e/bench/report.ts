// The published figures (results/latest.json, exactly this shape, numbers only but for the
// date, the version, and the small box's method and verdict) and the table printed with them,
// each measure beside its target, and the small box's figure beside the main one.
import { CEILING_METHODS, type CeilingMethod } from "./small-box";
import { GUARD_TARGETS, type GuardFigures } from "./import-guard";
import { REPORT_TARGETS, type ReportFigures } from "./report-pdf";
import type { CycleFigures } from "./cycle-measure";
import { CYCLE_TARGETS, cycleMet } from "./cycle-score";
import { SLEEP_NEED_TARGETS, sleepNeedMet, type SleepNeedFigures } from "./sleep-need-score";
import { FLOOR_TARGETS, type FloorResult } from "./floor";

type PageResult = { charts_ms: number; js_gzip_kb: number };
type PagesResult = { today: PageResult; trends: PageResult; correlations: PageResult };
type WebhooksResult = { acks_per_s: number; p99_ms: number; concurrency: number; duration_s: number };

/**
 * The small box (e2e/bench/run.ts): a fresh app pinned to `cpus` CPUs under a `ceiling_mb`
 * memory ceiling (`ceiling`: how it was held), the same backfill, pages and webhook load.
 * When it was `killed`, `killed_reason` says why, and the parts measured before are kept.
 */
export type SmallBoxResult = {
  ceiling: CeilingMethod;
  ceiling_mb: number;
  /** the CPUs the app could use: 1, or every core when taskset was missing (`pinned` false) */
  cpus: number;
  pinned: boolean;
  killed: boolean;
  killed_reason?: string;
  /** the 5-year backfill: documents (connect → all stored) and, alongside, heart rate */
  backfill?: { years: number; documents: number; wall_s: number; heart_rate_wall_s: number };
  pages?: PagesResult;
  webhooks?: WebhooksResult;
  /** the report's PDF for the same five-year person (e2e/bench/report-pdf.ts) */
  report?: ReportFigures;
  /** peaks over the pass, every 50 ms: the server process's RSS (as memory.peak_mb), and launcher and server together (memory.ts readGroupMemory) */
  memory: { peak_mb: number; group_peak_mb: number };
};

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
  webhooks: WebhooksResult;
  pages: PagesResult;
  /** RSS: right after start, at rest after the whole run, the peak of the whole run and of the backfill */
  memory: { idle_mb: number; rest_mb: number; peak_mb: number; peak_backfill_mb: number };
  /**
   * a 5-year account export (heart rate every 5 minutes of wear) through POST /api/import
   * (e2e/bench/import.ts): its wall time and the server's RSS at rest before and its peak
   */
  import?: { years: number; samples: number; documents: number; zip_mb: number; wall_s: number; rest_mb: number; peak_mb: number; peak_above_rest_mb: number };
  /** the import's guard (e2e/bench/import-guard.ts): the fuzz corpus's worst cases posted to the server */
  guard?: GuardFigures;
  /**
   * the report's PDF (e2e/bench/report-pdf.ts): the five-year person's last 90 days and last year
   * downloaded from GET /api/report, and the server's RSS peak during them above rest
   */
  report?: ReportFigures;
  /**
   * the cycle (e2e/bench/cycle-measure.ts): synthetic women and men imported, their early warning
   * scored night by night with cycle tracking on (and off: `before`), the cycle's detection
   */
  cycle?: CycleFigures;
  /**
   * the sleep need (e2e/bench/sleep-need-measure.ts): planted people imported, the need and the
   * debt of /api/v1/signals against the planted need and the true debt (`before`: the estimator
   * before issue 56 on the same nights)
   */
  sleep_need?: SleepNeedFigures;
  /** Home Assistant over MQTT (e2e/bench/mqtt.ts): people syncing at once, from each one's data version move to their state at the broker */
  mqtt?: { people: number; publish_p95_ms: number };
  /**
   * the fetch floor (e2e/bench/floor.ts): every page of the backfill's collections fetched as the
   * engine fetches them, with its concurrency, nothing stored, against the backfill of the same
   * run; and the time from consent until Today has every collection's newest day
   */
  floor?: FloorResult;
  /** the small box's pass, after the main one */
  small?: SmallBoxResult;
};

/** Home Assistant over MQTT: a person's state at the broker within 5 s of their data version's move. */
export const MQTT_TARGET_MS = 5_000;

/** The import's targets: a 5-year export within a minute, the server's memory peak within 100 MB above rest. */
export const IMPORT_TARGETS = { wall_s: 60, peak_above_rest_mb: 100 } as const;

/** The trends answer's budget: 1.5 × (p95 of /api/health + p95 of the raw query). */
export const trendsBudgetMs = (t: BenchResult["trends"]) => Math.round(1.5 * (t.health_p95_ms + t.raw_p95_ms) * 100) / 100;
/** The 304's budget: 1.2 × the p95 of /api/health. */
export const notModifiedBudgetMs = (t: BenchResult["trends"]) => Math.round(1.2 * t.health_p95_ms * 100) / 100;
/**
 * The targets of issue 30 ("fits a small box"), each written once; the table's target text is
 * made from them.
 */
export const TARGETS = {
  backfill_s: 1,
  ingest_ratio: 1.5,
  heart_rate_s: 5,
  webhook_acks_per_s: 1500,
  webhook_p99_ms: 25,
  page_ms: 300,
  page_js_kb: 120,
  memory_start_mb: 150,
  memory_rest_mb: 150,
  memory_peak_mb: 250,
  /** bench:scale: fifty backfills on PostgreSQL, two app processes against one */
  scale_two_processes: 1.5,
} as const;
const PAGE_BUDGET_MS = TARGETS.page_ms;
/** The small box's own target: each page's charts drawn within this, and the app not killed. */
const SMALL_PAGE_BUDGET_MS = 600;
const PAGE_NAMES = ["today", "trends", "correlations"] as const;
const kb = (bytes: number) => `${Math.round(bytes / 102.4) / 10} kB`;
const title = (p: string) => `${p[0]!.toUpperCase()}${p.slice(1)}`;

/** `small`: the small box's figure of the same measure ("—" when it was killed before measuring it), when there was a small pass. */
export type Check = { measure: string; value: string; target: string; ok: boolean; small?: string };

/** The small box's verdict: every page within its budget and the app not killed. */
function smallBoxCheck(s: SmallBoxResult): Check {
  const box = `${s.cpus} ${s.cpus === 1 ? "CPU" : "CPUs"}${s.pinned ? "" : " (taskset missing: not pinned)"}, ${s.ceiling_mb} MB by ${s.ceiling}`;
  const pages = s.pages ? PAGE_NAMES.map((p) => `${p} ${s.pages![p].charts_ms} ms`).join(", ") : "pages not measured";
  return {
    measure: `Small box (${box})`,
    value: s.killed
      ? `KILLED: ${s.killed_reason}; ${pages}`
      : `${pages}; not killed, RSS peak ${s.memory.peak_mb} MB (${s.memory.group_peak_mb} MB with the launcher)`,
    target: `each page ≤ ${SMALL_PAGE_BUDGET_MS} ms; not killed`,
    ok: !s.killed && !!s.pages && PAGE_NAMES.every((p) => s.pages![p].charts_ms <= SMALL_PAGE_BUDGET_MS),
  };
}

/** The report's targets (issue 45): the 90-day PDF ≤ 2 s, the year's ≤ 5 s, the server's RSS ≤ +60 MB above rest while rendering. */
const reportMet = (p: ReportFigures) =>
  p.pdf_90d_s <= REPORT_TARGETS.pdf_90d_s && p.pdf_1y_s <= REPORT_TARGETS.pdf_1y_s && p.render_peak_above_rest_mb <= REPORT_TARGETS.render_peak_above_rest_mb;

/** Every target of the issue, checked against one run's figures (the small box's beside them). */
export function checkTargets(r: BenchResult): Check[] {
  const reqRatio = r.backfill.min_requests > 0 ? r.backfill.requests / r.backfill.min_requests : Infinity;
  const s = r.small;
  /** the small box's figure for a row, "—" when it was not measured */
  const small = <T>(part: T | undefined, show: (p: T) => string) => (s ? { small: part === undefined ? "—" : show(part) } : {});
  return [
    {
      measure: "5-year backfill wall time",
      value: `${r.backfill.wall_s} s (${r.backfill.documents} documents)`,
      target: `≤ ${TARGETS.backfill_s} s`,
      ok: r.backfill.wall_s <= TARGETS.backfill_s,
      ...small(s?.backfill, (b) => `${b.wall_s} s`),
    },
    {
      measure: "Ingest vs raw better-sqlite3 upsert",
      value: `${r.backfill.ingest_s} s vs ${r.backfill.raw_ingest_s} s = ${r.backfill.ingest_ratio}×`,
      target: `≤ ${TARGETS.ingest_ratio}×`,
      ok: r.backfill.ingest_ratio <= TARGETS.ingest_ratio,
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
      target: `≤ ${TARGETS.heart_rate_s} s`,
      ok: r.heart_rate.wall_s <= TARGETS.heart_rate_s,
      ...small(s?.backfill, (b) => `${b.heart_rate_wall_s} s`),
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
      target: `≤ ${TARGETS.ingest_ratio}×`,
      ok: r.heart_rate.ingest_ratio <= TARGETS.ingest_ratio,
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
      target: `≥ ${TARGETS.webhook_acks_per_s}/s, p99 ≤ ${TARGETS.webhook_p99_ms} ms`,
      ok: r.webhooks.acks_per_s >= TARGETS.webhook_acks_per_s && r.webhooks.p99_ms <= TARGETS.webhook_p99_ms,
      ...small(s?.webhooks, (w) => `${w.acks_per_s}/s, p99 ${w.p99_ms} ms`),
    },
    ...PAGE_NAMES.map((p) => ({
      measure: `${title(p)}: charts drawn, JS`,
      value: `${r.pages[p].charts_ms} ms, ${r.pages[p].js_gzip_kb} kB gzip`,
      target: `≤ ${PAGE_BUDGET_MS} ms; ≤ ${TARGETS.page_js_kb} kB`,
      ok: r.pages[p].charts_ms <= PAGE_BUDGET_MS && r.pages[p].js_gzip_kb <= TARGETS.page_js_kb,
      ...small(s?.pages?.[p], (f) => `${f.charts_ms} ms, ${f.js_gzip_kb} kB gzip`),
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
    ...(r.guard
      ? [
          {
            measure: "Import guard: worst upload of the fuzz corpus",
            value:
              `${r.guard.worst_cpu_s} CPU-s, ${r.guard.worst_cpu_s_per_mib} CPU-s per MiB; /api/health p95 ${r.guard.health_p95_ms_during} ms and ` +
              `Today ${r.guard.today_ms_during} ms during it; 30 kB overlapping ZIP refused in ${r.guard.overlap_refused_ms} ms`,
            target:
              `≤ ${GUARD_TARGETS.cpu_s} CPU-s, ≤ ${GUARD_TARGETS.cpu_s_per_mib} per MiB; health ≤ ${GUARD_TARGETS.health_p95_ms} ms; ` +
              `Today answers; refused < ${GUARD_TARGETS.overlap_refused_ms} ms`,
            ok:
              r.guard.worst_cpu_s <= GUARD_TARGETS.cpu_s &&
              r.guard.worst_cpu_s_per_mib <= GUARD_TARGETS.cpu_s_per_mib &&
              r.guard.health_p95_ms_during <= GUARD_TARGETS.health_p95_ms &&
              r.guard.today_ms_during >= 0 &&
              r.guard.overlap_refused_ms < GUARD_TARGETS.overlap_refused_ms,
          },
        ]
      : []),
    ...(r.report
      ? [
          {
            measure: "Report PDF (5-year person): 90 days, a year; RSS during",
            value: `${r.report.pdf_90d_s} s, ${r.report.pdf_1y_s} s; +${r.report.render_peak_above_rest_mb} MB above rest`,
            target: `≤ ${REPORT_TARGETS.pdf_90d_s} s, ≤ ${REPORT_TARGETS.pdf_1y_s} s; ≤ +${REPORT_TARGETS.render_peak_above_rest_mb} MB`,
            ok: reportMet(r.report) && (!s?.report || reportMet(s.report)),
            ...small(s?.report, (p) => `${p.pdf_90d_s} s, ${p.pdf_1y_s} s; +${p.render_peak_above_rest_mb} MB`),
          },
        ]
      : []),
    ...(r.floor
      ? [
          {
            measure: "Whole backfill (documents and time series) vs the fetch floor",
            value: `${r.floor.backfill_wall_s} s vs ${r.floor.floor_s} s = ${r.floor.floor_ratio}×${r.floor.cpu ? ` (this machine's bound at that CPU: ${r.floor.cpu.bound_ratio}×)` : ""}`,
            target: `≤ ${FLOOR_TARGETS.floor_ratio}×`,
            ok: r.floor.floor_ratio <= FLOOR_TARGETS.floor_ratio,
          },
          {
            measure: "Heart-rate backfill vs its own fetch floor",
            value: `${r.heart_rate.wall_s} s = ${r.floor.heart_rate_floor_ratio}× its floor`,
            target: `≤ ${FLOOR_TARGETS.heart_rate_floor_ratio}×`,
            ok: r.floor.heart_rate_floor_ratio <= FLOOR_TARGETS.heart_rate_floor_ratio,
          },
          ...(r.floor.battery_floor_ratio !== null
            ? [
                {
                  measure: "Battery backfill vs its own fetch floor",
                  value: `${r.floor.battery_floor_ratio}× its floor`,
                  target: `≤ ${FLOOR_TARGETS.battery_floor_ratio}×`,
                  ok: r.floor.battery_floor_ratio <= FLOOR_TARGETS.battery_floor_ratio,
                },
              ]
            : []),
          {
            measure: "Time to Today: consent → every card's newest day stored",
            value: `${r.floor.time_to_today_s} s`,
            target: `≤ ${FLOOR_TARGETS.time_to_today_s} s`,
            ok: r.floor.time_to_today_s <= FLOOR_TARGETS.time_to_today_s,
          },
        ]
      : []),
    ...(r.mqtt
      ? [
          {
            measure: `Home Assistant over MQTT (${r.mqtt.people} people syncing at once): data version → state at the broker, p95`,
            value: `${r.mqtt.publish_p95_ms} ms`,
            target: `≤ ${MQTT_TARGET_MS} ms`,
            ok: r.mqtt.publish_p95_ms <= MQTT_TARGET_MS,
          },
        ]
      : []),
    ...(r.cycle
      ? [
          {
            measure: "Cycle (24 synthetic people): false watch, false likely a year; recall; ovulation ±2 d; period start ±3 d",
            value:
              `women ${r.cycle.false_watch_per_year.women} (off: ${r.cycle.before.false_watch_per_year.women}), men ${r.cycle.false_watch_per_year.men}; ` +
              `women ${r.cycle.false_likely_per_year.women}; ${r.cycle.recall.women} / ${r.cycle.recall.men}; ` +
              `${r.cycle.ovulation_within_2d}; ${r.cycle.period_start_within_3d}`,
            target:
              `women ≤ ${CYCLE_TARGETS.watch_ratio}× men; ≤ ${CYCLE_TARGETS.false_likely_women}; ≥ ${CYCLE_TARGETS.recall} both; ` +
              `≥ ${CYCLE_TARGETS.ovulation_within_2d}; ≥ ${CYCLE_TARGETS.period_start_within_3d}`,
            ok: cycleMet(r.cycle),
          },
        ]
      : []),
    ...(r.sleep_need
      ? [
          {
            measure: `Sleep need (${r.sleep_need.people} planted people): need error mean, worst; debt error mean`,
            value:
              `${r.sleep_need.need_error_min.mean} min, ${r.sleep_need.need_error_min.worst} min; ${r.sleep_need.debt_error_pct.mean} % ` +
              `(before: ${r.sleep_need.before.need_error_min.mean} min, ${r.sleep_need.before.need_error_min.worst} min; ${r.sleep_need.before.debt_error_pct.mean} %)`,
            target: `±${SLEEP_NEED_TARGETS.mean_need_error_min} min, ±${SLEEP_NEED_TARGETS.worst_need_error_min} min; ±${SLEEP_NEED_TARGETS.mean_debt_error_pct} %`,
            ok: sleepNeedMet(r.sleep_need),
          },
        ]
      : []),
    {
      measure: "App memory (RSS)",
      value: `${r.memory.rest_mb} MB at rest after the run (${r.memory.idle_mb} MB after start); peak ${r.memory.peak_mb} MB (backfill ${r.memory.peak_backfill_mb} MB)`,
      target: `after start ≤ ${TARGETS.memory_start_mb} MB; at rest ≤ ${TARGETS.memory_rest_mb} MB; peak ≤ ${TARGETS.memory_peak_mb} MB`,
      ok: r.memory.idle_mb <= TARGETS.memory_start_mb && r.memory.rest_mb <= TARGETS.memory_rest_mb && r.memory.peak_mb <= TARGETS.memory_peak_mb,
      ...small(s?.memory, (m) => `peak ${m.peak_mb} MB`),
    },
    ...(s ? [smallBoxCheck(s)] : []),
  ];
}

/** A plain-text table: measure | figure | small box (when there was a small pass) | target | met. */
export function formatTable(checks: Check[]): string {
  const withSmall = checks.some((c) => c.small !== undefined);
  const rows = [
    ["Measure", "Figure", ...(withSmall ? ["Small box"] : []), "Target", "Met"],
    ...checks.map((c) => [c.measure, c.value, ...(withSmall ? [c.small ?? ""] : []), c.target, c.ok ? "yes" : "NO"]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i]!)).join("  ");
  return [line(rows[0]!), widths.map((w) => "-".repeat(w)).join("  "), ...rows.slice(1).map(line)].join("\n");
}

const PAGE_SHAPE = { charts_ms: 0, js_gzip_kb: 0 };
const PAGES_SHAPE = { today: PAGE_SHAPE, trends: PAGE_SHAPE, correlations: PAGE_SHAPE };
const WEBHOOKS_SHAPE = { acks_per_s: 0, p99_ms: 0, concurrency: 0, duration_s: 0 };
const SEXES = { women: 0, men: 0 };
const CYCLE_ALARMS = { false_watch_per_year: SEXES, false_likely_per_year: SEXES, recall: SEXES };
const CYCLE_SHAPE: Record<keyof CycleFigures, unknown> = {
  people: 0,
  ovulation_within_2d: 0,
  period_start_within_3d: 0,
  ...CYCLE_ALARMS,
  before: CYCLE_ALARMS,
};
const ERRORS = { mean: 0, worst: 0 };
const SLEEP_NEED_SHAPE: Record<keyof SleepNeedFigures, unknown> = {
  people: 0,
  need_error_min: ERRORS,
  debt_error_pct: ERRORS,
  range_holds: 0,
  rising_need_error_min: ERRORS,
  before: { need_error_min: ERRORS, debt_error_pct: ERRORS, rising_need_error_min: ERRORS },
};
const REPORT_SHAPE: Record<keyof ReportFigures, 0> = { pdf_90d_s: 0, pdf_1y_s: 0, render_peak_above_rest_mb: 0 };
/** null: a finite number or null (a figure that could not be measured here) */
const FLOOR_SHAPE: Record<keyof FloorResult, unknown> = {
  time_to_today_s: 0,
  backfill_wall_s: 0,
  floor_s: 0,
  floor_ratio: 0,
  heart_rate_floor_ratio: 0,
  battery_floor_ratio: null,
  peer_s: null,
  peer_ratio: null,
  cpu: { cores: 0, backfill_app_s: 0, backfill_emulator_s: 0, floor_client_s: 0, floor_emulator_s: null, bound_ratio: 0 },
  wire: { wire_ms: 0, time_to_today_s: 0, backfill_wall_s: 0, floor_s: 0, floor_ratio: 0, heart_rate_floor_ratio: 0, battery_floor_ratio: null },
};
const GUARD_SHAPE: Record<keyof GuardFigures, 0> = {
  worst_cpu_s: 0,
  worst_cpu_s_per_mib: 0,
  health_p95_ms_during: 0,
  today_ms_during: 0,
  overlap_refused_ms: 0,
};

/**
 * True when `value` has exactly the published shape: finite numbers (or null where the shape says
 * null: the floor's peer), the date/node strings, the
 * small box's method (one of CEILING_METHODS), flags and reason, and the parts a run may lack
 * absent rather than empty (a small box that was not killed has every part, and no reason).
 */
export function isBenchResult(value: unknown): value is BenchResult {
  // "s": a string; 0: a finite number; null: a finite number or null; true: a boolean
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
    webhooks: WEBHOOKS_SHAPE,
    pages: PAGES_SHAPE,
    memory: { idle_mb: 0, rest_mb: 0, peak_mb: 0, peak_backfill_mb: 0 },
    import: { years: 0, samples: 0, documents: 0, zip_mb: 0, wall_s: 0, rest_mb: 0, peak_mb: 0, peak_above_rest_mb: 0 },
    guard: GUARD_SHAPE,
    report: REPORT_SHAPE,
    cycle: CYCLE_SHAPE,
    sleep_need: SLEEP_NEED_SHAPE,
    mqtt: { people: 0, publish_p95_ms: 0 },
    floor: FLOOR_SHAPE,
    small: {
      ceiling: "s",
      ceiling_mb: 0,
      cpus: 0,
      pinned: true,
      killed: true,
      killed_reason: "s",
      backfill: { years: 0, documents: 0, wall_s: 0, heart_rate_wall_s: 0 },
      pages: PAGES_SHAPE,
      webhooks: WEBHOOKS_SHAPE,
      report: REPORT_SHAPE,
      memory: { peak_mb: 0, group_peak_mb: 0 },
    },
  };
  /** parts a result may lack (a run that did not measure them), by path */
  const optional = new Set([
    "import",
    "guard",
    "report",
    "cycle",
    "sleep_need",
    "mqtt",
    "floor",
    "floor.cpu",
    "floor.wire",
    "small",
    "small.killed_reason",
    "small.backfill",
    "small.pages",
    "small.webhooks",
    "small.report",
  ]);
  const same = (v: unknown, s: unknown, at: string): boolean => {
    if (s === "s") return typeof v === "string";
    if (s === null) return v === null || (typeof v === "number" && Number.isFinite(v));
    if (typeof s === "number") return typeof v === "number" && Number.isFinite(v);
    if (typeof s === "boolean") return typeof v === "boolean";
    if (!v || typeof v !== "object" || Array.isArray(v)) return false;
    const a = Object.keys(v as object).sort();
    const b = Object.keys(s as object)
      .filter((k) => !optional.has(at + k) || k in (v as object))
      .sort();
    return a.length === b.length && a.every((k, i) => k === b[i] && same((v as Record<string, unknown>)[k], (s as Record<string, unknown>)[k], `${at}${k}.`));
  };
  if (!same(value, shape, "")) return false;
  const small = (value as BenchResult).small;
  if (!small) return true;
  const complete = small.backfill !== undefined && small.pages !== undefined && small.webhooks !== undefined;
  return (
    (CEILING_METHODS as readonly string[]).includes(small.ceiling) &&
    (small.killed ? small.killed_reason !== undefined : small.killed_reason === undefined && complete)
  );
}
