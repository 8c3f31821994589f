"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { apiFetch, withQuery } from "@/components/hooks/api-fetch";
import type { CalendarResponse } from "@/components/hooks/api-types";

/** Each day's value and state (value, not worn, missing, not synced) for the heatmap. */
export function useCalendar(metric: string, from: string | null, to: string | null) {
  return useQuery({
    queryKey: ["calendar", { metric, from, to }],
    queryFn: () => apiFetch<CalendarResponse>(withQuery("/api/days", { metric, from, to })),
    enabled: !!from && !!to,
    placeholderData: keepPreviousData,
  });
}
