"use client";
import { keepPreviousData, useQueries, useQuery } from "@tanstack/react-query";
import { apiFetch, withQuery } from "@/components/hooks/api-fetch";
import type { SeriesResponse } from "@/components/hooks/api-types";

export const metricSeriesKey = (metric: string, from: string, to: string) => ["metric-series", { metric, from, to }] as const;

function fetchSeries(metric: string, from: string, to: string) {
  return apiFetch<SeriesResponse>(withQuery(`/api/metrics/${encodeURIComponent(metric)}`, { from, to }));
}

/** One metric's series with rolling means, baseline band and period comparison. */
export function useMetricSeries(metric: string, from: string | null, to: string | null) {
  return useQuery({
    queryKey: metricSeriesKey(metric, from ?? "", to ?? ""),
    queryFn: () => fetchSeries(metric, from!, to!),
    enabled: !!from && !!to,
    placeholderData: keepPreviousData,
  });
}

/** Several metrics' series over the same days. */
export function useMetricSeriesMany(metrics: readonly string[], from: string | null, to: string | null) {
  return useQueries({
    queries: metrics.map((metric) => ({
      queryKey: metricSeriesKey(metric, from ?? "", to ?? ""),
      queryFn: () => fetchSeries(metric, from!, to!),
      enabled: !!from && !!to,
      placeholderData: keepPreviousData,
    })),
  });
}
