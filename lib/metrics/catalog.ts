// The metric catalog: every chartable field of the ring data, with what a chart or a summary
// needs to know about it. Derived from the resource registry (lib/resources: each resource
// declares its metrics next to its columns). Pure data, safe in the browser. Metric ids are
// "<prefix>.<column>" (e.g. "readiness.hrv_balance") and typed: MetricId is their union.
import {
  RESOURCES,
  SYNC_COLLECTIONS,
  getResource,
  type DailyCollection,
  type EventCollection,
  type SeriesCollection,
  type SyncCollection,
} from "@/lib/resources";
import type { CategoryDef, ColumnDef, MetricDisplay, MetricSpec } from "@/lib/resources/define";
import { SIGNAL_METRICS, type SignalMetricId } from "@/lib/signals/catalog";

export type { CategoryDef };

/** The ring-service collections Ringside stores (documents and time series), by their upstream name. */
export type CollectionId = SyncCollection;

export type CollectionDef = { id: CollectionId; table: string; label: string };

export const COLLECTIONS = Object.fromEntries(
  SYNC_COLLECTIONS.map((id) => [id, { id, table: getResource(id).table, label: getResource(id).label }]),
) as Record<CollectionId, CollectionDef>;

export const COLLECTION_IDS: readonly CollectionId[] = SYNC_COLLECTIONS;

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

function bounds(s: MetricDisplay): { min?: number; max?: number } {
  if (s.kind === "score" || s.unit === "%") return { min: 0, max: 100 };
  if (s.kind === "category" || s.kind === "temperature_deviation" || s.isSigned) return {};
  return { min: 0 };
}

function build(): MetricDef[] {
  const out: MetricDef[] = [];
  for (const r of RESOURCES) {
    for (const [id, spec] of Object.entries(r.metrics as Record<string, MetricSpec>)) {
      const { from, ...display } = spec;
      let source: MetricSource;
      let column: ColumnDef | undefined;
      if ("column" in from) {
        if (r.kind !== "daily") throw new Error(`${id}: only daily resources have column metrics`);
        source = { type: "daily", collection: r.name, column: from.column };
        column = r.columns.find((c: ColumnDef) => c.name === from.column);
      } else if ("night" in from) {
        if (r.kind !== "period") throw new Error(`${id}: only sleep periods have night metrics`);
        source = { type: "night", column: from.night };
        column = r.columns.find((c: ColumnDef) => c.name === from.night);
      } else if ("naps" in from) {
        if (r.kind !== "period") throw new Error(`${id}: only sleep periods have nap metrics`);
        source = { type: "naps", aggregate: from.naps };
      } else if ("sum" in from) {
        if (r.kind !== "event") throw new Error(`${id}: only event resources have sum metrics`);
        source = { type: "sum", collection: r.name, column: from.sum, zeroOn: from.zeroOn ?? null };
        column = r.columns.find((c: ColumnDef) => c.name === from.sum);
      } else {
        if (r.kind !== "time_series") throw new Error(`${id}: only time series have sample metrics`);
        source = { type: "samples", collection: r.name, aggregate: from.samples, field: from.field, only: from.only ?? null };
      }
      out.push({
        ...display,
        ...bounds(display),
        ...(display.kind === "category" ? { categories: column?.categories ?? [] } : {}),
        id: id as MetricId,
        source,
        collection: r.name,
        short: display.short ?? display.label.replace(/ \(contributor\)$/, ""),
        decimals: display.decimals ?? 0,
      });
    }
  }
  for (const [id, m] of Object.entries(SIGNAL_METRICS)) {
    const display: MetricDisplay = m.spec;
    out.push({ ...display, ...bounds(display), id: id as MetricId, source: { type: "signal", signal: m.signal }, collection: m.collection, short: display.short ?? display.label, decimals: display.decimals ?? 0 });
  }
  return out;
}

/** A value clipped to the metric's natural bounds (for band edges, never for data). */
export function clampToMetric(m: Pick<MetricDef, "min" | "max">, v: number): number {
  if (m.min !== undefined && v < m.min) return m.min;
  if (m.max !== undefined && v > m.max) return m.max;
  return v;
}

export const METRICS: readonly MetricDef[] = build();
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
