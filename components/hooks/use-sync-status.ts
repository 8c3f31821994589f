"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/components/hooks/api-fetch";
import { queryKeys, type SyncStatusResponse } from "@/lib/api/contract";

// (the Today page's freshness chips poll the same route themselves: components/dashboard/freshness-chips.tsx)
const KEY = queryKeys.syncStatus;

/** The whole sync status (sync page): polls every second while anything runs; shares its cache with useSyncNow. */
export function useSyncDetails(initialData?: SyncStatusResponse) {
  return useQuery({
    queryKey: KEY,
    queryFn: () => apiFetch<SyncStatusResponse>("/api/sync/status"),
    initialData,
    staleTime: 0,
    refetchInterval: (query) => ((query.state.data as SyncStatusResponse | undefined)?.running ? 1_000 : 15_000),
    refetchIntervalInBackground: false,
  });
}

/** "Sync now". */
export function useSyncNow() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch<SyncStatusResponse>("/api/sync", { method: "POST" }),
    onSuccess: (data) => qc.setQueryData(KEY, data),
  });
}

/** "Download my history again" (after "Delete all my data"): the sync runs again and the whole history is queued. */
export function useDownloadHistoryAgain() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch<SyncStatusResponse>("/api/sync/history", { method: "POST" }),
    onSuccess: (data) => qc.setQueryData(KEY, data),
  });
}
