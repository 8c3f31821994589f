"use client";
import { useRouter } from "next/navigation";
import { useDownloadHistoryAgain } from "@/components/hooks/use-sync-status";
import { Button } from "@/components/ui/field";

/**
 * Where "Delete all my data" left the person: nothing syncs until they ask for their history again.
 * The note and its button "Download my history again" (Settings → Your data, and the sync page).
 */
export function DownloadHistoryAgain() {
  const download = useDownloadHistoryAgain();
  const router = useRouter();
  return (
    <div data-testid="history-deleted" className="space-y-2 rounded-lg bg-amber-50 p-3 text-sm text-amber-950 dark:bg-amber-950/50 dark:text-amber-100">
      <p role="status">You deleted your data. Nothing is downloaded from the ring service until you ask for it: your whole history then comes again.</p>
      <Button
        disabled={download.isPending}
        onClick={() => download.mutate(undefined, { onSuccess: () => router.refresh() })}
        data-testid="download-history-again"
      >
        {download.isPending ? "Starting…" : "Download my history again"}
      </Button>
      {download.isError ? (
        <p role="alert" className="text-rose-700 dark:text-rose-300">
          {download.error.message}
        </p>
      ) : null}
    </div>
  );
}
