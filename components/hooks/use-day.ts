"use client";
import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "@/components/hooks/api-fetch";
import type { DayResponse } from "@/components/hooks/api-types";

export const dayKey = (day: string) => ["day", day] as const;

/** Every document of one day, with its sleep periods, curves, activity timeline and note. */
export function useDay(day: string) {
  return useQuery({ queryKey: dayKey(day), queryFn: () => apiFetch<DayResponse>(`/api/days/${day}`) });
}
