// Freshness of each collection for the Today page's chips: from the sync feature's status
// (last successful sync, state) when it answers, else from the newest stored day. The chips
// run in the browser (they read the browser's today and poll the status), so what they know
// of each collection (its label, its newest day) comes with the page, not from the catalog.
import { clock } from "@/lib/clock";
import type { CollectionId } from "@/lib/metrics/catalog";
import { diffDays, formatDay, formatMonth } from "@/lib/days";
import type { SyncCollectionStatus } from "@/lib/api/contract";

/** A charted collection as the chips need it: its label and its newest stored day. */
export type FreshnessSource = { collection: CollectionId; label: string; lastDay: string | null };

export type Freshness = { collection: CollectionId; label: string; tone: "fresh" | "stale" | "problem" | "idle"; text: string; title: string };

/**
 * Per-collection sync freshness from GET /api/sync/status (or the same object on the server).
 * The shape is read defensively: an array of collections, or an object with `collections` as
 * an array or a map; anything else (or a missing route) gives an empty list.
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
      oldestDay: str(r.oldestDay),
      ...(typeof r.backfillDone === "boolean" ? { backfillDone: r.backfillDone } : {}),
      lastError: str(r.lastError),
    });
  }
  return out;
}

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
  ranges: readonly FreshnessSource[],
  status: readonly SyncCollectionStatus[] | undefined,
  today: string,
  now: number = clock.now(),
): Freshness[] {
  return ranges.map((r) => {
    const label = r.label;
    const s = status?.find((x) => x.collection === r.collection);
    if (s?.status === "not_shared") {
      return { collection: r.collection, label, tone: "idle", text: "not shared", title: `${label}: the ring service was not allowed to share it` };
    }
    if (s && s.status && PROBLEM.has(s.status)) {
      return { collection: r.collection, label, tone: "problem", text: s.status.replace("_", " "), title: `${label}: ${s.lastError ?? s.status}` };
    }
    // the history still downloading (newest first): how far back it reaches so far
    if (s?.backfillDone === false && s.oldestDay) {
      return {
        collection: r.collection,
        label,
        tone: "fresh",
        text: `back to ${formatMonth(s.oldestDay, true)}`,
        title: `${label}: history back to ${formatDay(s.oldestDay, { withYear: true })}, still downloading`,
      };
    }
    if (s?.status === "backfilling" || s?.status === "syncing") {
      return { collection: r.collection, label, tone: "fresh", text: "syncing…", title: `${label}: sync in progress` };
    }
    const from = s?.oldestDay ? `, history from ${formatDay(s.oldestDay, { withYear: true })}` : "";
    if (s?.lastSuccessAt) {
      const ageH = (now - Date.parse(s.lastSuccessAt)) / 3_600_000;
      const newest = s.newestDay ?? r.lastDay;
      return {
        collection: r.collection,
        label,
        tone: ageH <= 6 ? "fresh" : "stale",
        text: formatAgo(s.lastSuccessAt, now),
        title: `${label}: synced ${formatAgo(s.lastSuccessAt, now)}${newest ? `, newest day ${formatDay(newest, { withYear: true })}` : ""}${from}`,
      };
    }
    if (!r.lastDay) return { collection: r.collection, label, tone: "idle", text: "no data", title: `${label}: nothing synced yet` };
    const lag = diffDays(r.lastDay, today);
    return {
      collection: r.collection,
      label,
      tone: lag <= 1 ? "fresh" : "stale",
      text: lag <= 0 ? "today" : lag === 1 ? "yesterday" : `${lag} days old`,
      title: `${label}: newest day ${formatDay(r.lastDay, { withYear: true })}${from}`,
    };
  });
}
