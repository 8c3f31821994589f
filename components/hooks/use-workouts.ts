"use client";
import { useQuery } from "@tanstack/react-query";
import { apiFetch, withQuery } from "@/components/hooks/api-fetch";
import { queryKeys, type WorkoutResponse, type WorkoutsResponse } from "@/lib/api/contract";

/** The workouts of a range (null ends: the person's whole history), filtered, with weekly totals. */
export function useWorkouts(from: string | null, to: string | null, activity: string | null, intensity: string | null) {
  return useQuery({
    queryKey: queryKeys.workouts.list(from, to, activity, intensity),
    queryFn: () => apiFetch<WorkoutsResponse>(withQuery("/api/workouts", { from, to, activity, intensity })),
  });
}

/** One workout with its heart-rate curve. */
export function useWorkout(id: string | null) {
  return useQuery({
    queryKey: queryKeys.workouts.one(id ?? ""),
    queryFn: () => apiFetch<WorkoutResponse>(`/api/workouts/${encodeURIComponent(id ?? "")}`),
    enabled: !!id,
  });
}
