"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { apiFetch, rangeQuery, withQuery } from "@/components/hooks/api-fetch";
import { queryKeys, type CorrelationColumns, type CorrelationResponse, type StrongestResponse } from "@/lib/api/contract";
import { decodePoints } from "@/lib/metrics/columns";
import type { MetricId } from "@/lib/metrics/catalog";

/** Scatter points, r, n and fitted line of two metrics (y on the same day or the next). */
export function useCorrelation(x: MetricId, y: MetricId, lag: 0 | 1, from: string | null, to: string | null) {
  return useQuery({
    queryKey: queryKeys.correlation(x, y, lag, from, to),
    queryFn: async (): Promise<CorrelationResponse> => {
      const c = await apiFetch<CorrelationColumns>(withQuery("/api/correlations", { x, y, lag, from, to }));
      return { ...c, points: decodePoints(c.points, c.from) };
    },
    enabled: !!from && !!to,
    placeholderData: keepPreviousData,
  });
}

/** The strongest relationships in the person's data. */
export function useStrongestCorrelations(from: string | null, to: string | null) {
  return useQuery({
    ...rangeQuery<StrongestResponse>(queryKeys.strongest(from, to), "/api/correlations/strongest", { from, to, limit: 12 }),
    staleTime: 5 * 60_000,
  });
}
