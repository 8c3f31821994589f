"use client";
import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "@/components/hooks/api-fetch";
import type { TodayResponse } from "@/components/hooks/api-types";

/** The Today page's numbers (latest day of each collection against its recent past). */
export function useToday() {
  return useQuery({ queryKey: ["today"], queryFn: () => apiFetch<TodayResponse>("/api/days/latest") });
}
