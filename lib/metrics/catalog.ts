// The metric catalog: every chartable field of the ring data, with what a chart or a summary
// needs to know about it. Derived from the resource registry (lib/resources: each resource
// declares its metrics next to its columns) by `npm run db:models` into catalog-data.ts
// (lib/metrics/catalog-build.ts; prisma/models.test.ts holds the two equal), so the browser,
// which uses this module, carries the definitions and not the registry's parsers and columns.
// Metric ids are "<prefix>.<column>" (e.g. "readiness.hrv_balance") and typed: MetricId is
// their union (the types in catalog-types.ts, re-exported here).
import type { DailyCollection } from "@/lib/resources";
import type { CollectionDef, CollectionId, MetricDef, MetricId } from "@/lib/metrics/catalog-types";
import { COLLECTION_DEFS, METRIC_DEFS } from "@/lib/metrics/catalog-data";

export type { CollectionDef, CollectionId, MetricDef, MetricId, MetricSource } from "@/lib/metrics/catalog-types";

export const COLLECTIONS = Object.fromEntries(COLLECTION_DEFS.map((c) => [c.id, c])) as Record<CollectionId, CollectionDef>;

/** In the registry's order. */
export const COLLECTION_IDS: readonly CollectionId[] = COLLECTION_DEFS.map((c) => c.id);

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
