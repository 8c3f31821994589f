"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch, withQuery } from "@/components/hooks/api-fetch";
import { queryKeys, type Tag, type TagComparisonResponse, type TagsResponse } from "@/lib/api/contract";
import type { MetricId } from "@/lib/metrics/catalog";

/** Every tag with the number of days it is on. */
export function useTags() {
  return useQuery({ queryKey: queryKeys.tags, queryFn: () => apiFetch<TagsResponse>("/api/tags") });
}

function useInvalidateTags() {
  const qc = useQueryClient();
  return () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: queryKeys.tags }),
      qc.invalidateQueries({ queryKey: queryKeys.notes.all }),
      qc.invalidateQueries({ queryKey: queryKeys.tagComparison.all }),
      qc.invalidateQueries({ queryKey: queryKeys.day.all }),
    ]);
}

export function useUpdateTag() {
  const invalidate = useInvalidateTags();
  return useMutation({
    mutationFn: (v: { id: number; name?: string; color?: string | null }) =>
      apiFetch<Tag>(`/api/tags/${v.id}`, { method: "PATCH", json: { name: v.name, color: v.color } }),
    onSuccess: invalidate,
  });
}

export function useDeleteTag() {
  const invalidate = useInvalidateTags();
  return useMutation({
    mutationFn: (id: number) => apiFetch<void>(`/api/tags/${id}`, { method: "DELETE" }),
    onSuccess: invalidate,
  });
}

/** A metric on days with the tag against days without it. */
export function useTagComparison(tagId: number | string | null, metric: MetricId, lag: 0 | 1) {
  return useQuery({
    queryKey: queryKeys.tagComparison.one(tagId, metric, lag),
    queryFn: () => apiFetch<TagComparisonResponse>(withQuery(`/api/tags/${encodeURIComponent(String(tagId))}/comparison`, { metric, lag })),
    enabled: tagId !== null,
  });
}
