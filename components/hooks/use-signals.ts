"use client";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch, rangeQuery } from "@/components/hooks/api-fetch";
import { queryKeys, type SignalSettings, type SignalsResponse } from "@/lib/api/contract";

/** The explained signals of each day from `from` to `to` (GET /api/signals). */
export function useSignals(from: string | null, to: string | null) {
  return useQuery({
    ...rangeQuery<SignalsResponse>(queryKeys.signals.range(from ?? "", to ?? ""), "/api/signals", { from, to }),
    placeholderData: keepPreviousData,
  });
}

/** The sleep need and free days the person set (Settings → Signals). */
export function useSignalSettings(initial: SignalSettings) {
  return useQuery({ queryKey: queryKeys.signalSettings, queryFn: () => apiFetch<SignalSettings>("/api/signals/settings"), initialData: initial });
}

export function useUpdateSignalSettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (patch: Partial<SignalSettings>) => apiFetch<SignalSettings>("/api/signals/settings", { method: "PATCH", json: patch }),
    onSuccess: (data) => {
      qc.setQueryData(queryKeys.signalSettings, data);
      // the need and the free days change the signals and the sleep-debt series
      void qc.invalidateQueries({ queryKey: queryKeys.signals.all });
      void qc.invalidateQueries({ queryKey: ["metric-series"] });
    },
  });
}
