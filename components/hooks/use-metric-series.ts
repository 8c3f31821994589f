"use client";
import { keepPreviousData, useQueries } from "@tanstack/react-query";
import { apiFetch, withQuery } from "@/components/hooks/api-fetch";
import { queryKeys, type SeriesColumns, type SeriesResponse } from "@/lib/api/contract";
import { decodeSeries } from "@/lib/metrics/columns";
import type { MetricId } from "@/lib/metrics/catalog";

/** The series as columns over the wire, whole again for the charts. */
async function fetchSeries(metric: MetricId, from: string, to: string): Promise<SeriesResponse> {
  return decodeSeries(await apiFetch<SeriesColumns>(withQuery(`/api/metrics/${encodeURIComponent(metric)}`, { from, to })));
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
