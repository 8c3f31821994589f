"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/components/hooks/api-fetch";
import { queryKeys, type SyncCollectionStatus, type SyncStatusResponse } from "@/lib/api/contract";

const KEY = queryKeys.syncStatus;

/**
 * Per-collection sync freshness from GET /api/sync/status. The shape is read defensively: an
 * array of collections, or an object with `collections` as an array or a map; anything else
 * (or a missing route) gives an empty list.
 */
export function normaliseSyncStatus(data: unknown): SyncCollectionStatus[] {
  const obj = data as Record<string, unknown> | null;
  const list = Array.isArray(data) ? data : obj && typeof obj === "object" ? (obj.collections ?? obj.states ?? null) : null;
  const entries: Array<[string | null, unknown]> = Array.isArray(list)
    ? list.map((v) => [null, v])
    : list && typeof list === "object"
      ? Object.entries(list as Record<string, unknown>)
      : [];
  const out: SyncCollectionStatus[] = [];
  for (const [key, v] of entries) {
    if (!v || typeof v !== "object") continue;
    const r = v as Record<string, unknown>;
    const collection = typeof r.collection === "string" ? r.collection : key;
    if (!collection) continue;
    const str = (x: unknown) => (typeof x === "string" ? x : null);
    out.push({
      collection,
      status: str(r.status) ?? undefined,
      lastSuccessAt: str(r.lastSuccessAt),
      newestDay: str(r.newestDay),
      lastError: str(r.lastError),
    });
  }
  return out;
}

/** Per-collection freshness (dashboard); shares its cache with useSyncDetails. */
export function useSyncStatus() {
  return useQuery({
    queryKey: KEY,
    queryFn: () => apiFetch<unknown>("/api/sync/status"),
    select: normaliseSyncStatus,
    retry: false,
    refetchInterval: 60_000,
  });
}

/** The whole sync status (sync page): polls every second while anything runs. */
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
