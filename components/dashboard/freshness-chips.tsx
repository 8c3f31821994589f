"use client";
import { useSyncExternalStore } from "react";
import { CHARTED_COLLECTIONS } from "@/lib/metrics/catalog";
import { todayIn } from "@/lib/metrics/days";
import { cn } from "@/components/ui/cn";
import { freshnessOf } from "@/components/dashboard/freshness";
import { useSyncStatus } from "@/components/hooks/use-sync-status";
import type { CollectionRange } from "@/lib/api/contract";

const SHORT: Record<string, string> = {
  daily_spo2: "SpO₂",
  daily_cardiovascular_age: "CV age",
  sleep: "Sleep periods",
  vO2_max: "VO₂ max",
};

const DOT = { fresh: "bg-emerald-500", stale: "bg-amber-500", problem: "bg-rose-500", idle: "bg-slate-400" };

const noSubscription = () => () => undefined;

/** One chip per collection that has charts: how fresh its data is (the Sync page lists them all). */
export function FreshnessChips({ ranges }: { ranges: CollectionRange[] }) {
  const status = useSyncStatus();
  // the browser's today, read once hydrated: the server's zone may be another one, and its
  // "today" another day (the chips' text would not match the page the server sent)
  const today = useSyncExternalStore(noSubscription, () => todayIn(), () => null);
  const items = today ? freshnessOf(ranges.filter((r) => CHARTED_COLLECTIONS.includes(r.collection)), status.data, today) : [];
  return (
    <ul aria-label="Data freshness" data-testid="freshness-chips" className="flex flex-wrap gap-1.5">
      {items.map((f) => (
        <li
          key={f.collection}
          title={f.title}
          data-collection={f.collection}
          data-tone={f.tone}
          className="inline-flex items-center gap-1.5 rounded-full border border-slate-200 bg-white px-2 py-0.5 text-xs text-slate-700 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-300"
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
