// The explained signals charted like any metric (Trends, Calendar, the read API's series): each
// one's id, display and the signal it comes from (a kind of lib/signals/catalog.ts, whose test
// holds them to it). The metric catalog appends them after the registry's metrics
// (lib/metrics/catalog-build.ts). Declared here, below the signals, so the catalog never imports
// lib/signals: the signals' maths are built on the metrics, not the other way round.
import type { MetricSpec } from "@/lib/resources/define";

export const SIGNAL_METRICS = {
  "signals.sleep_debt": {
    signal: "sleep_debt",
    collection: "sleep",
    spec: {
      label: "Sleep debt",
      group: "Signals",
      unit: "s",
      direction: "lower",
      kind: "duration",
      durationIn: "h",
      description: "Hours owed over the last 14 nights against your sleep need, recent nights weighing more.",
    },
  },
} as const satisfies Record<string, { signal: string; collection: "sleep"; spec: Omit<MetricSpec, "from"> }>;
export type SignalMetricId = keyof typeof SIGNAL_METRICS;
