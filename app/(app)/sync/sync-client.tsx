"use client";
import { clock } from "@/lib/clock";
import Link from "next/link";
import { useEffect, useState } from "react";
import { useSyncDetails } from "@/components/hooks/use-sync-status";
import type { SyncStatusResponse } from "@/lib/api/contract";
import { CollectionProgress } from "@/components/sync/collection-progress";
import { RejectedDocuments } from "@/components/sync/rejected-documents";
import { SyncNowButton } from "@/components/sync/sync-now-button";
import { DownloadHistoryAgain } from "@/components/sync/download-history-button";
import { count, timeAgo } from "@/components/sync/format";
import { settingsHref } from "@/lib/settings-sections";

function useNow(intervalMs: number): number {
  const [now, setNow] = useState(() => clock.now());
  useEffect(() => {
    const t = setInterval(() => setNow(clock.now()), intervalMs);
    return () => clearInterval(t);
  }, [intervalMs]);
  return now;
}

function deliveryText(s: SyncStatusResponse): string {
  if (s.webhooks.mode === "active") return `Changes arrive by webhook; the last ${s.trailingDays} days are re-checked every ${s.pollMinutes} min.`;
  if (s.webhooks.mode === "off") return `Checks the last ${s.trailingDays} days every ${s.pollMinutes} min (no webhooks: PUBLIC_URL is not set).`;
  return `Checks the last ${s.trailingDays} days every ${s.pollMinutes} min; webhooks are being set up (${s.webhooks.active}/${s.webhooks.expected}).`;
}

export function SyncClient({ initial }: { initial: SyncStatusResponse }) {
  const { data, isError, error } = useSyncDetails(initial);
  const now = useNow(5_000);
  const s = data ?? initial;
  const labels = Object.fromEntries(s.collections.map((c) => [c.collection, c.label]));
  const paused = s.account?.status !== "active";
  return (
    <div className="space-y-6" data-testid="sync-page" data-running={s.running ? "true" : "false"}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="space-y-1">
          <h1 className="text-2xl font-semibold">Sync</h1>
          <p className="text-sm text-slate-600 dark:text-slate-400" data-testid="freshness">
            {s.lastSuccessAt ? <>Last synced {timeAgo(s.lastSuccessAt, now)}</> : s.running ? <>Fetching your history…</> : <>Not synced yet</>} ·{" "}
            {count(s.totals.documents)} documents{s.totals.samples ? <> · {count(s.totals.samples)} samples</> : null}
            {s.dataFamily === "sandbox" && <> · sandbox sample data</>}
          </p>
          <p className="text-xs text-slate-500 dark:text-slate-400">{deliveryText(s)}</p>
        </div>
        <SyncNowButton disabled={paused || s.historyDeleted} />
      </div>

      {isError && (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-900 dark:bg-red-950/50 dark:text-red-200">
          Could not refresh the status: {error.message}
        </p>
      )}
      {s.historyDeleted && <DownloadHistoryAgain />}
      {paused && (
        <p role="alert" className="rounded-md bg-amber-50 p-3 text-sm text-amber-950 dark:bg-amber-950/50 dark:text-amber-100">
          Syncing is paused until your ring is reconnected.{" "}
          <Link className="underline" href={settingsHref("account")}>
            Go to Settings
          </Link>
        </p>
      )}
      {s.rateLimitedUntil && (
        <p role="status" className="rounded-md bg-amber-50 p-3 text-sm text-amber-950 dark:bg-amber-950/50 dark:text-amber-100">
          The ring service asked Ringside to slow down. Syncing continues at {new Date(s.rateLimitedUntil).toLocaleTimeString()}.
        </p>
      )}
      {s.sleepLag.lagging && (
        <p role="status" data-testid="sleep-lag" className="rounded-md bg-sky-50 p-3 text-sm text-sky-950 dark:bg-sky-950/50 dark:text-sky-100">
          Sleep is not yet synced from the phone: the newest sleep is from {s.sleepLag.newestSleepDay}, activity from {s.sleepLag.newestActivityDay}. Open the
          ring&apos;s phone app to sync last night.
        </p>
      )}

      <section aria-labelledby="collections-heading" className="space-y-2">
        <h2 id="collections-heading" className="sr-only">
          Collections
        </h2>
        <ul className="grid gap-3 sm:grid-cols-2">
          {s.collections.map((c) => (
            <CollectionProgress key={c.collection} c={c} now={now} />
          ))}
        </ul>
      </section>

      <RejectedDocuments rows={s.rejected} labels={labels} now={now} />
    </div>
  );
}
