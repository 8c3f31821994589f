"use client";
import { useSyncNow } from "@/components/hooks/use-sync-status";
import { cn } from "@/components/ui/cn";

/** "Sync now": continues backfills and re-checks the recent days of every collection. */
export function SyncNowButton({ disabled }: { disabled?: boolean }) {
  const sync = useSyncNow();
  return (
    <div className="flex flex-col items-end gap-1">
      <button
        type="button"
        onClick={() => sync.mutate()}
        disabled={disabled || sync.isPending}
        className={cn(
          "rounded-md bg-brand-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-700",
          "focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:opacity-60",
        )}
      >
        {sync.isPending ? "Starting…" : "Sync now"}
      </button>
      {sync.isError && (
        <p role="alert" className="text-xs text-red-700 dark:text-red-300">
          {sync.error.message}
        </p>
      )}
    </div>
  );
}
