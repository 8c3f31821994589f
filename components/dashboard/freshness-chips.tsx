"use client";
import { useEffect, useState } from "react";
import { useClientValue } from "@/components/hooks/use-hydrated";
import { todayIn } from "@/lib/days";
import { cn } from "@/components/ui/cn";
import { freshnessOf, normaliseSyncStatus, type FreshnessSource } from "@/components/dashboard/freshness";
import { apiFetch } from "@/components/hooks/api-fetch";
import type { SyncCollectionStatus } from "@/lib/api/contract";

/** How often the chips ask for the sync status again while the page is shown. */
const STATUS_POLL_MS = 60_000;

const SHORT: Record<string, string> = {
  daily_spo2: "SpO₂",
  daily_cardiovascular_age: "CV age",
  sleep: "Sleep periods",
  vO2_max: "VO₂ max",
};

const DOT = { fresh: "bg-emerald-500", stale: "bg-amber-500", problem: "bg-rose-500", idle: "bg-slate-400" };

/**
 * One chip per collection that has charts (`sources`, in order): how fresh its data is (the
 * Sync page lists them all). The sync status comes with the page and is asked for again every
 * minute while the page is shown (GET /api/sync/status); a failed poll keeps the last one.
 */
export function FreshnessChips({ sources, initialStatus }: { sources: FreshnessSource[]; initialStatus: SyncCollectionStatus[] }) {
  const [status, setStatus] = useState(initialStatus);
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.hidden) return;
      apiFetch<unknown>("/api/sync/status").then(
        (data) => setStatus(normaliseSyncStatus(data)),
        () => undefined,
      );
    }, STATUS_POLL_MS);
    return () => clearInterval(timer);
  }, []);
  // the browser's today, read once hydrated: the server's zone may be another one, and its
  // "today" another day (the chips' text would not match the page the server sent)
  const today = useClientValue<string | null>(() => todayIn(), null);
  const items = today ? freshnessOf(sources, status, today) : [];
  return (
    <ul aria-label="Data freshness" data-testid="freshness-chips" className="flex flex-wrap gap-1.5">
      {items.map((f) => (
        <li
          key={f.collection}
          title={f.title}
          data-collection={f.collection}
          data-tone={f.tone}
          className={cn(
            "inline-flex items-center gap-1.5 rounded-full border border-slate-200 bg-white px-2 py-0.5 text-xs text-slate-700",
            "dark:border-slate-700 dark:bg-slate-900 dark:text-slate-300",
          )}
        >
          <span aria-hidden className={cn("h-1.5 w-1.5 rounded-full", DOT[f.tone])} />
          <span className="font-medium" aria-hidden>
            {SHORT[f.collection] ?? f.label}
          </span>
          <span className="text-slate-500 dark:text-slate-400" aria-hidden>
            {f.text}
          </span>
          <span className="sr-only">{f.title}</span>
        </li>
      ))}
    </ul>
  );
}
