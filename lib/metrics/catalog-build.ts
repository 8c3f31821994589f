// Derives the metric catalog's data (lib/metrics/catalog-data.ts) from the resource registry
// and the signals' metrics: the collections, the metrics, and the closed lists the pages label
// things with. `npm run db:models` (prisma/generate-models.ts) writes its rendering, and
// prisma/models.test.ts holds the checked-in file to it. Only the generator and the tests
// import this module: the pages read the generated data (the registry's parsers, columns and
// windows stay out of the browser).
import { getResource, RESOURCES, sampleSpecOf, SYNC_COLLECTIONS } from "@/lib/resources";
import type { CategoryDef, ColumnDef, MetricDisplay, MetricSpec } from "@/lib/resources/define";
import { SIGNAL_METRICS } from "@/lib/metrics/signal-metrics";
import type { CollectionDef, MetricDef, MetricId, MetricSource } from "@/lib/metrics/catalog";

/** Every stored collection (documents and time series), in the registry's order. */
export function buildCollections(): CollectionDef[] {
  return SYNC_COLLECTIONS.map((id) => {
    const r = getResource(id);
    return { id, table: r.table, label: r.label, color: r.color };
  });
}

function bounds(s: MetricDisplay): { min?: number; max?: number } {
  if (s.kind === "score" || s.unit === "%") return { min: 0, max: 100 };
  if (s.kind === "category" || s.kind === "temperature_deviation" || s.isSigned) return {};
  return { min: 0 };
}

/** Every metric of the registry, then the signals charted as metrics, in that order. */
export function buildMetrics(): MetricDef[] {
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
    out.push({
      ...display,
      ...bounds(display),
      id: id as MetricId,
      source: { type: "signal", signal: m.signal },
      collection: m.collection,
      short: display.short ?? display.label,
      decimals: display.decimals ?? 0,
    });
  }
  return out;
}

const listOf = (columns: readonly ColumnDef[], name: string): readonly CategoryDef[] => columns.find((c) => c.name === name)?.categories ?? [];

/** The closed lists the pages show values of (lib/metrics/sources.ts), by their use. */
export function buildClosedLists() {
  return {
    /** sleep, rest, awake, session, workout, live: the heart-rate samples' sources */
    heartRateSources: sampleSpecOf("heartrate").fields.find((f) => f.name === "source")?.categories ?? [],
    /** easy, moderate, hard */
    workoutIntensities: listOf(getResource("workout").columns, "intensity"),
    /** breathing, meditation, nap, relaxation, rest, body status */
    sessionTypes: listOf(getResource("session").columns, "type"),
    bedtimeStatuses: listOf(getResource("sleep_time").columns, "status"),
    bedtimeRecommendations: listOf(getResource("sleep_time").columns, "recommendation"),
  } satisfies Record<string, readonly CategoryDef[]>;
}

const line = (v: unknown) => `  ${JSON.stringify(v)},`;

/** lib/metrics/catalog-data.ts as the registry generates it (one entry a line). */
export function renderCatalogData(): string {
  const lists = buildClosedLists();
  return [
    "// GENERATED from the resource registry (lib/resources) and the signals' metrics by `npm run db:models`",
    "// (lib/metrics/catalog-build.ts): do not edit by hand. The metric catalog (lib/metrics/catalog.ts)",
    "// and the closed lists (lib/metrics/sources.ts) read it, so the pages carry these definitions",
    "// and not the registry.",
    'import type { CategoryDef } from "@/lib/resources/define";',
    'import type { CollectionDef, MetricDef } from "@/lib/metrics/catalog-types";',
    "",
    "export const COLLECTION_DEFS: readonly CollectionDef[] = [",
    ...buildCollections().map(line),
    "];",
    "",
    "export const METRIC_DEFS: readonly MetricDef[] = [",
    ...buildMetrics().map(line),
    "];",
    "",
    "export const CLOSED_LISTS = {",
    ...Object.entries(lists).map(([k, v]) => `  ${k}: ${JSON.stringify(v)},`),
    "} satisfies Record<string, readonly CategoryDef[]>;",
    "",
  ].join("\n");
}
