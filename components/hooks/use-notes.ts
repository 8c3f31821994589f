"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch, rangeQuery } from "@/components/hooks/api-fetch";
import { queryKeys, type DayNote, type NotesResponse } from "@/lib/api/contract";

/** Notes and tags of the days in a range (chart markers, the notes list). */
export function useNotes(from: string | null, to: string | null) {
  return useQuery(rangeQuery<NotesResponse>(queryKeys.notes.range(from ?? "", to ?? ""), "/api/notes", { from, to }));
}

/** Sets a day's note and tags; refreshes notes, tags, the day and tag comparisons. */
export function useSaveDayNote() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { day: string; text: string; tags: string[] }) =>
      apiFetch<DayNote>(`/api/notes/${v.day}`, { method: "PUT", json: { text: v.text, tags: v.tags } }),
    onSuccess: async (_data, v) => {
      await Promise.all([
        qc.invalidateQueries({ queryKey: queryKeys.notes.all }),
        qc.invalidateQueries({ queryKey: queryKeys.tags }),
        qc.invalidateQueries({ queryKey: queryKeys.tagComparison.all }),
        qc.invalidateQueries({ queryKey: queryKeys.day.one(v.day) }),
      ]);
    },
  });
}
