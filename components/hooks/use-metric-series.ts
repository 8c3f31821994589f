"use client";
import { keepPreviousData, useQueries } from "@tanstack/react-query";
import { apiFetch, withQuery } from "@/components/hooks/api-fetch";
import { queryKeys, type SeriesResponse } from "@/lib/api/contract";
import type { MetricId } from "@/lib/metrics/catalog";


function fetchSeries(metric: MetricId, from: string, to: string) {
  return apiFetch<SeriesResponse>(withQuery(`/api/metrics/${encodeURIComponent(metric)}`, { from, to }));
}

/** Several metrics' series over the same days. */
export function useMetricSeriesMany(metrics: readonly MetricId[], from: string | null, to: string | null) {
  return useQueries({
    queries: metrics.map((metric) => ({
      queryKey: queryKeys.metricSeries(metric, from ?? "", to ?? ""),
      queryFn: () => fetchSeries(metric, from ?? "", to ?? ""),
      enabled: !!from && !!to,
      placeholderData: keepPreviousData,
    })),
  });
}
