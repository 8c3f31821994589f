import { COLLECTIONS, type MetricDef } from "@/lib/metrics/catalog";

/** A metric's colour: its resource's (lib/resources, through the catalog), except recovery's own green. */
export function metricColor(m: Pick<MetricDef, "id" | "collection">): string {
  if (m.id === "stress.recovery_high") return "var(--recovery)";
  return COLLECTIONS[m.collection].color;
}
