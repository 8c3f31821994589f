"use client";
import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "@/components/hooks/api-fetch";
import type { MetricsOverview } from "@/components/hooks/api-types";

export const metricsOverviewKey = ["metrics-overview"] as const;

/** Which days each collection covers (for "all" ranges, calendar years, pickers). */
export function useMetricsOverview() {
  return useQuery({ queryKey: metricsOverviewKey, queryFn: () => apiFetch<MetricsOverview>("/api/metrics") });
}
