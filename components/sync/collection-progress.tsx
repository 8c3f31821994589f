import type { CollectionSyncStatus } from "@/lib/api/contract";
import { count, etaText, STATUS_LABELS, timeAgo } from "@/components/sync/format";
import { settingsHref } from "@/lib/settings-sections";

const BADGE: Record<string, string> = {
  idle: "bg-emerald-100 text-emerald-900 dark:bg-emerald-900/40 dark:text-emerald-200",
  queued: "bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-200",
  backfilling: "bg-sky-100 text-sky-900 dark:bg-sky-900/40 dark:text-sky-200",
  syncing: "bg-sky-100 text-sky-900 dark:bg-sky-900/40 dark:text-sky-200",
  not_shared: "bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300",
  expired: "bg-amber-100 text-amber-900 dark:bg-amber-900/40 dark:text-amber-200",
  error: "bg-red-100 text-red-900 dark:bg-red-900/40 dark:text-red-200",
  paused: "bg-amber-100 text-amber-900 dark:bg-amber-900/40 dark:text-amber-200",
};

/**
 * One collection: status, a progress bar with counts and ETA while fetching history, freshness,
 * and how far back its history reaches (still reaching back until the back-fill is done).
 */
export function CollectionProgress({ c, now }: { c: CollectionSyncStatus; now: number }) {
  const percent = Math.round(c.progress * 100);
  const eta = etaText(c.etaSeconds);
  const fetching = !c.backfillDone && (c.status === "backfilling" || c.status === "queued");
  return (
    <li
      data-testid={`sync-collection-${c.collection}`}
      data-status={c.status}
      data-documents={c.documents}
      className="space-y-2 rounded-lg border border-slate-200 p-3 dark:border-slate-800"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="font-medium">{c.label}</h3>
        <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${BADGE[c.status] ?? BADGE.queued}`}>{STATUS_LABELS[c.status] ?? c.status}</span>
      </div>
      {c.status !== "not_shared" && (
        <div
          role="progressbar"
          aria-label={`${c.label} history`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          aria-valuetext={c.backfillDone ? "History complete" : `${percent}%${eta ? `, ${eta}` : ""}`}
          className="h-2 w-full overflow-hidden rounded-full bg-slate-100 dark:bg-slate-800"
        >
          <div
            className={`h-full rounded-full transition-[width] duration-300 ${c.backfillDone ? "bg-emerald-500" : "bg-sky-500"}`}
            style={{ width: `${percent}%` }}
          />
        </div>
      )}
      <p className="text-sm text-slate-600 dark:text-slate-400">
        <span data-testid="documents">{count(c.documents)}</span> {c.unit}
        {c.newestDay && (
          <>
            {" "}
            · newest day <span data-testid="newest-day">{c.newestDay}</span>
          </>
        )}
        {c.oldestDay && (
          <>
            {" "}
            · <span data-testid="history-reach">{c.backfillDone ? "history from" : "reaching back: from"}</span>{" "}
            <span data-testid="oldest-day">{c.oldestDay}</span>
          </>
        )}
        {fetching ? (
          <>
            {" "}
            · {percent}% of history{c.pages > 0 && <> · {count(c.pages)} pages</>}
            {eta && <> · {eta}</>}
          </>
        ) : (
          <> · synced {timeAgo(c.lastSuccessAt, now)}</>
        )}
        {c.rejected > 0 && (
          <>
            {" "}
            · <span className="text-amber-700 dark:text-amber-300">{count(c.rejected)} rejected</span>
          </>
        )}
      </p>
      {c.status === "not_shared" && (
        <p className="text-sm text-slate-600 dark:text-slate-400">
          Not shared with Ringside. Reconnect in{" "}
          <a className="underline" href={settingsHref("account")}>
            Settings → You and your ring
          </a>{" "}
          and allow this data to sync it.
        </p>
      )}
      {c.lastError && c.status !== "not_shared" && (
        <p role="status" className="text-sm text-red-700 dark:text-red-300">
          {c.lastError}
        </p>
      )}
    </li>
  );
}
