"use client";
import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "@/components/hooks/api-fetch";
import type { SyncCollectionStatus } from "@/components/hooks/api-types";

/**
 * Per-collection sync freshness from GET /api/sync/status (owned by the sync feature). The
 * shape is read defensively: an array of collections, or an object with `collections` as an
 * array or a map; anything else (or a missing route) gives an empty list.
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

export function useSyncStatus() {
  return useQuery({
    queryKey: ["sync-status"],
    queryFn: async () => normaliseSyncStatus(await apiFetch<unknown>("/api/sync/status")),
    retry: false,
    refetchInterval: 60_000,
  });
}
