"use client";
import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "@/components/hooks/api-fetch";
import { queryKeys, type MetricsOverview } from "@/lib/api/contract";

/** Which days each collection covers (for "all" ranges, calendar years, pickers). */
export function useMetricsOverview() {
  return useQuery({ queryKey: queryKeys.metricsOverview, queryFn: () => apiFetch<MetricsOverview>("/api/metrics") });
}
