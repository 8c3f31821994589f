"use client";
import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "@/components/hooks/api-fetch";
import { queryKeys, type DayResponse } from "@/lib/api/contract";

/** Every document of one day, with its sleep periods, curves, activity timeline and note. */
export function useDay(day: string) {
  return useQuery({ queryKey: queryKeys.day.one(day), queryFn: () => apiFetch<DayResponse>(`/api/days/${day}`) });
}
