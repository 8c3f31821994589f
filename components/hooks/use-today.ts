"use client";
import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "@/components/hooks/api-fetch";
import { queryKeys, type TodayResponse } from "@/lib/api/contract";

/** The Today page's numbers (latest day of each collection against its recent past). */
export function useToday() {
  return useQuery({ queryKey: queryKeys.today, queryFn: () => apiFetch<TodayResponse>("/api/days/latest") });
}
