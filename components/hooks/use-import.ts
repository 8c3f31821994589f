"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/components/hooks/api-fetch";
import { queryKeys, type ImportResponse, type ImportStatusResponse } from "@/lib/api/contract";

const KEY = queryKeys.importStatus;

/** The person's import (GET /api/import): polls every second while one is checking or storing, or while `uploading`. */
export function useImportStatus(uploading: boolean) {
  return useQuery({
    queryKey: KEY,
    queryFn: () => apiFetch<ImportStatusResponse>("/api/import"),
    staleTime: 0,
    refetchInterval: (query) => {
      const s = (query.state.data as ImportStatusResponse | undefined)?.status;
      return uploading || s === "checking" || s === "storing" ? 1_000 : false;
    },
  });
}

/** How an upload goes: one file as itself (its type told by its extension; the server reads its content), several as multipart. */
function uploadInit(files: readonly File[]): RequestInit {
  if (files.length === 1) {
    const f = files[0]!;
    const type = /\.zip$/i.test(f.name)
      ? "application/zip"
      : /\.json$/i.test(f.name)
        ? "application/json"
        : /\.csv$/i.test(f.name)
          ? "text/csv"
          : "application/octet-stream";
    return { body: f, headers: { "content-type": type, "x-file-name": encodeURIComponent(f.name) } };
  }
  const form = new FormData();
  for (const f of files) form.append("file", f, f.name);
  return { body: form };
}

export type ImportRequest = { files: readonly File[]; dryRun: boolean; replaceNotes: boolean };

/** POST /api/import: a dry run ("check first") or the import itself; afterwards every cached answer is stale. */
export function useImportUpload() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ files, dryRun, replaceNotes }: ImportRequest) => {
      const q = new URLSearchParams();
      if (dryRun) q.set("dry_run", "1");
      if (replaceNotes) q.set("replace_notes", "1");
      return apiFetch<ImportResponse>(`/api/import${q.size ? `?${q}` : ""}`, { method: "POST", ...uploadInit(files) });
    },
    onSettled: async (_data, _err, req) => {
      if (!req.dryRun) await qc.invalidateQueries();
      else await qc.invalidateQueries({ queryKey: KEY });
    },
  });
}

/** Resume (POST ?resume=1) or discard (DELETE) an import that stopped part-way. */
export function useImportRecovery() {
  const qc = useQueryClient();
  const resume = useMutation({
    mutationFn: () => apiFetch<ImportResponse>("/api/import?resume=1", { method: "POST" }),
    onSettled: () => qc.invalidateQueries(),
  });
  const discard = useMutation({
    mutationFn: () => apiFetch<void>("/api/import", { method: "DELETE" }),
    onSettled: () => qc.invalidateQueries({ queryKey: KEY }),
  });
  return { resume, discard };
}
