// Freshness of each collection for the Today page's chips: from the sync feature's status
// (last successful sync, state) when it answers, else from the newest stored day.
import { clock } from "@/lib/clock";
import { COLLECTIONS, type CollectionId } from "@/lib/metrics/catalog";
import { diffDays, formatDay } from "@/lib/metrics/days";
import type { CollectionRange, SyncCollectionStatus } from "@/lib/api/contract";

export type Freshness = { collection: CollectionId; label: string; tone: "fresh" | "stale" | "problem" | "idle"; text: string; title: string };

/** "just now", "5 min ago", "3 h ago", "2 days ago". */
export function formatAgo(iso: string, now: number = clock.now()): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return "unknown";
  const s = Math.max(0, Math.round((now - t) / 1000));
  if (s < 60) return "just now";
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h ago`;
  const d = Math.floor(s / 86_400);
  return d === 1 ? "1 day ago" : `${d} days ago`;
}

const PROBLEM = new Set(["error", "expired", "paused"]);

export function freshnessOf(
  ranges: readonly CollectionRange[],
  status: readonly SyncCollectionStatus[] | undefined,
  today: string,
  now: number = clock.now(),
): Freshness[] {
  return ranges.map((r) => {
    const label = COLLECTIONS[r.collection].label;
    const s = status?.find((x) => x.collection === r.collection);
    if (s?.status === "not_shared") {
      return { collection: r.collection, label, tone: "idle", text: "not shared", title: `${label}: the ring service was not allowed to share it` };
    }
    if (s && s.status && PROBLEM.has(s.status)) {
      return { collection: r.collection, label, tone: "problem", text: s.status.replace("_", " "), title: `${label}: ${s.lastError ?? s.status}` };
    }
    if (s?.status === "backfilling" || s?.status === "syncing") {
      return { collection: r.collection, label, tone: "fresh", text: "syncing…", title: `${label}: sync in progress` };
    }
    if (s?.lastSuccessAt) {
      const ageH = (now - Date.parse(s.lastSuccessAt)) / 3_600_000;
      const newest = s.newestDay ?? r.lastDay;
      return {
        collection: r.collection,
        label,
        tone: ageH <= 6 ? "fresh" : "stale",
        text: formatAgo(s.lastSuccessAt, now),
        title: `${label}: synced ${formatAgo(s.lastSuccessAt, now)}${newest ? `, newest day ${formatDay(newest, { withYear: true })}` : ""}`,
      };
    }
    if (!r.lastDay) return { collection: r.collection, label, tone: "idle", text: "no data", title: `${label}: nothing synced yet` };
    const lag = diffDays(r.lastDay, today);
    return {
      collection: r.collection,
      label,
      tone: lag <= 1 ? "fresh" : "stale",
      text: lag <= 0 ? "today" : lag === 1 ? "yesterday" : `${lag} days old`,
      title: `${label}: newest day ${formatDay(r.lastDay, { withYear: true })}`,
    };
  });
}
