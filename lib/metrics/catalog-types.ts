// The metric catalog's types: what a collection and a metric are, where a metric's value comes
// from, and the MetricId union. Apart from lib/metrics/catalog.ts so that the generated data
// (catalog-data.ts, which the catalog reads) can be typed without importing the catalog back.
// Types only: the catalog re-exports them, and everything else imports them from there.
import type { RESOURCES, DailyCollection, EventCollection, SeriesCollection, SyncCollection } from "@/lib/resources";
import type { CategoryDef, MetricDisplay } from "@/lib/resources/define";
import type { SIGNAL_METRICS, SignalMetricId } from "@/lib/metrics/signal-metrics";

/** The ring-service collections Ringside stores (documents and time series), by their upstream name. */
export type CollectionId = SyncCollection;

/** A collection as the pages show it: its table, label and colour (a CSS variable). */
export type CollectionDef = { id: CollectionId; table: string; label: string; color: string };

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
