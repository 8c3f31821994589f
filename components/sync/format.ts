// Small, pure formatting helpers for the sync page (client-safe).

import { clock } from "@/lib/clock";
/** "just now", "3 min ago", "2 h ago", "4 days ago" (or "never"). */
export function timeAgo(iso: string | null | undefined, now = clock.now()): string {
  if (!iso) return "never";
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return "never";
  const s = Math.max(0, Math.round((now - t) / 1000));
  if (s < 45) return "just now";
  const min = Math.round(s / 60);
  if (min < 60) return `${min} min ago`;
  const h = Math.round(min / 60);
  if (h < 36) return `${h} h ago`;
  const d = Math.round(h / 24);
  return `${d} day${d === 1 ? "" : "s"} ago`;
}

/** "about 40 s left", "about 3 min left". */
export function etaText(seconds: number | null | undefined): string | null {
  if (seconds === null || seconds === undefined) return null;
  if (seconds < 60) return `about ${Math.max(1, Math.round(seconds))} s left`;
  const min = Math.round(seconds / 60);
  if (min < 90) return `about ${min} min left`;
  return `about ${Math.round(min / 60)} h left`;
}

export function count(n: number): string {
  return new Intl.NumberFormat("en-US").format(n);
}

export const STATUS_LABELS: Record<string, string> = {
  idle: "Up to date",
  queued: "Waiting",
  backfilling: "Fetching history",
  syncing: "Syncing",
  not_shared: "Not shared",
  expired: "Membership expired",
  error: "Error",
  paused: "Paused",
};
