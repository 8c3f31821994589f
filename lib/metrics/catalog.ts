// The metric catalog: every chartable field of the ring data, with what a chart or a summary
// needs to know about it. Derived from the resource registry (lib/resources: each resource
// declares its metrics next to its columns) by `npm run db:models` into catalog-data.ts
// (lib/metrics/catalog-build.ts; prisma/models.test.ts holds the two equal), so the browser,
// which uses this module, carries the definitions and not the registry's parsers and columns.
// Metric ids are "<prefix>.<column>" (e.g. "readiness.hrv_balance") and typed: MetricId is
// their union.
import type { RESOURCES, DailyCollection, EventCollection, SeriesCollection, SyncCollection } from "@/lib/resources";
import type { CategoryDef, MetricDisplay } from "@/lib/resources/define";
import type { SIGNAL_METRICS, SignalMetricId } from "@/lib/metrics/signal-metrics";
import { COLLECTION_DEFS, METRIC_DEFS } from "@/lib/metrics/catalog-data";

export type { CategoryDef };

/** The ring-service collections Ringside stores (documents and time series), by their upstream name. */
export type CollectionId = SyncCollection;

/** A collection as the pages show it: its table, label and colour (a CSS variable). */
export type CollectionDef = { id: CollectionId; table: string; label: string; color: string };

export const COLLECTIONS = Object.fromEntries(COLLECTION_DEFS.map((c) => [c.id, c])) as Record<CollectionId, CollectionDef>;

/** In the registry's order. */
export const COLLECTION_IDS: readonly CollectionId[] = COLLECTION_DEFS.map((c) => c.id);

/**
 * Where the value comes from: a typed column of a daily table; the day's main sleep period
 * (see pickMainSleep); an aggregate over the day's naps; the sum of a column over the day's
 * events (0 on a day with a `zeroOn` document and no event); an aggregate of a time series'
 * samples over the person's local day; or one of the explained signals (lib/signals), derived
 * from the stored documents when read.
 */
export type MetricSource =
  | { type: "daily"; collection: DailyCollection; column: string }
  | { type: "night"; column: string }
  | { type: "naps"; aggregate: "total_sleep" | "count" }
  | { type: "sum"; collection: EventCollection; column: string; zeroOn: DailyCollection | null }
  | { type: "samples"; collection: SeriesCollection; aggregate: "mean" | "min"; field: string; only: { field: string; values: readonly string[] } | null }
  | { type: "signal"; signal: (typeof SIGNAL_METRICS)[SignalMetricId]["signal"] };

type AnyResource = (typeof RESOURCES)[number];
/** Every metric id: the registry's, and the signals charted as metrics. */
export type MetricId = { [R in AnyResource as R["name"]]: keyof R["metrics"] & string }[AnyResource["name"]] | SignalMetricId;

export type MetricDef = Omit<MetricDisplay, "short" | "decimals"> & {
  id: MetricId;
  source: MetricSource;
  collection: CollectionId;
  short: string;
  decimals: number;
  /** category metrics: the values, worst first */
  categories?: readonly CategoryDef[];
  /** the natural bounds of the value (scores 0–100, amounts ≥ 0); baseline bands are clipped to them */
  min?: number;
  max?: number;
};

/** A value clipped to the metric's natural bounds (for band edges, never for data). */
export function clampToMetric(m: Pick<MetricDef, "min" | "max">, v: number): number {
  if (m.min !== undefined && v < m.min) return m.min;
  if (m.max !== undefined && v > m.max) return m.max;
  return v;
}

export const METRICS: readonly MetricDef[] = METRIC_DEFS;
const BY_ID = Object.fromEntries(METRICS.map((m) => [m.id, m])) as Record<MetricId, MetricDef>;

export function isMetricId(id: string): id is MetricId {
  return Object.prototype.hasOwnProperty.call(BY_ID, id);
}

/** The metric of a known id. */
export function getMetric(id: MetricId): MetricDef {
  return BY_ID[id];
}

/** The metric of an id read from outside (a URL, a request), if there is one. */
export function findMetric(id: string | null | undefined): MetricDef | undefined {
  return id && isMetricId(id) ? BY_ID[id] : undefined;
}

export function isNumericMetric(m: MetricDef): boolean {
  return m.kind !== "category";
}

/** A numeric metric's id read from outside (a URL), or `fallback`. */
export function numericMetricIdOr(id: string | null | undefined, fallback: MetricId): MetricId {
  const m = findMetric(id);
  return m && isNumericMetric(m) ? m.id : fallback;
}

export const NUMERIC_METRICS = METRICS.filter(isNumericMetric);
/** The collections that have charts (one freshness chip each on Today), in registry order. */
export const CHARTED_COLLECTIONS: readonly CollectionId[] = COLLECTION_IDS.filter((c) => METRICS.some((m) => m.collection === c));
export const CATEGORY_METRICS = METRICS.filter((m) => m.kind === "category");
export const HEADLINE_METRICS = METRICS.filter((m) => m.isHeadline);

/** Metrics grouped for pickers, in catalog order. */
export function metricGroups(filter: (m: MetricDef) => boolean = () => true): Array<{ group: string; metrics: MetricDef[] }> {
  const out: Array<{ group: string; metrics: MetricDef[] }> = [];
  for (const m of METRICS) {
    if (!filter(m)) continue;
    let g = out.find((x) => x.group === m.group);
    if (!g) {
      g = { group: m.group, metrics: [] };
      out.push(g);
    }
    g.metrics.push(m);
  }
  return out;
}

/** The contributor metrics of a score, in catalog order. */
export function contributorsOf(collection: DailyCollection): MetricDef[] {
  return METRICS.filter((m) => m.isContributor && m.collection === collection);
}
