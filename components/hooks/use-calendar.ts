"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { rangeQuery } from "@/components/hooks/api-fetch";
import { queryKeys, type CalendarResponse } from "@/lib/api/contract";
import type { MetricId } from "@/lib/metrics/catalog";

/** Each day's value and state (value, not worn, missing, not synced) for the heatmap. */
export function useCalendar(metric: MetricId, from: string | null, to: string | null) {
  return useQuery({
    ...rangeQuery<CalendarResponse>(queryKeys.calendar(metric, from, to), "/api/days", { metric, from, to }),
    placeholderData: keepPreviousData,
  });
}
