import type { CollectionId, MetricDef } from "@/lib/metrics/catalog";

/** The colour of each domain (CSS variables in app/globals.css). */
export const COLLECTION_COLOR: Record<CollectionId, string> = {
  daily_sleep: "var(--sleep)",
  sleep: "var(--sleep)",
  daily_readiness: "var(--readiness)",
  daily_activity: "var(--activity)",
  daily_spo2: "var(--spo2)",
  daily_stress: "var(--stress)",
  daily_resilience: "var(--resilience)",
  daily_cardiovascular_age: "var(--heart)",
};

export function metricColor(m: Pick<MetricDef, "id" | "collection">): string {
  if (m.id === "stress.recovery_high") return "var(--recovery)";
  return COLLECTION_COLOR[m.collection];
}
