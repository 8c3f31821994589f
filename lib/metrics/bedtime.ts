// Bedtime guidance (sleep_time) → what the pages say: the status, the recommendation, and the
// recommended window on the clock. Pure.
import { formatClock } from "@/lib/metrics/day-detail";

export type BedtimeRow = {
  day: string;
  status: string | null;
  recommendation: string | null;
  start_offset: number | null;
  end_offset: number | null;
  day_tz: number | null;
};

export type Bedtime = {
  /** the evening the guidance is for */
  day: string;
  status: string | null;
  recommendation: string | null;
  /** the recommended window on the local clock ("22:15"–"23:15"), when the ring found one */
  window: { start: string; end: string } | null;
};

/**
 * The guidance for the evening of `day`. The window's offsets are seconds from the midnight that
 * ends that day (negative: before it; facts §3.10 as the emulator reads them), already local.
 */
export function bedtimeOf(row: BedtimeRow): Bedtime {
  const has = typeof row.start_offset === "number" && typeof row.end_offset === "number";
  return {
    day: row.day,
    status: row.status,
    recommendation: row.recommendation,
    window: has ? { start: formatClock(1440 + row.start_offset! / 60), end: formatClock(1440 + row.end_offset! / 60) } : null,
  };
}

/** The recommended window as instants (ms since the epoch) with the ring's UTC offset (s). */
export type BedtimeWindow = { start: number; end: number; offsetSeconds: number };

/**
 * The window of a row as instants: its offsets count from the local midnight that ends `day`, at
 * the UTC offset `day_tz`. Null without a window (the ring found none that night).
 */
export function bedtimeWindowOf(row: BedtimeRow): BedtimeWindow | null {
  const { start_offset: start, end_offset: end, day_tz: tz } = row;
  if (typeof start !== "number" || typeof end !== "number" || typeof tz !== "number" || !(end > start)) return null;
  const [y, m, d] = row.day.split("-").map(Number) as [number, number, number];
  const midnight = Date.UTC(y, m - 1, d + 1) - tz * 1000;
  return { start: midnight + start * 1000, end: midnight + end * 1000, offsetSeconds: tz };
}

/** An instant in ISO 8601 at a UTC offset given in seconds, e.g. "2026-11-25T22:15:00+01:00". */
export function isoAtOffset(instant: number, offsetSeconds: number): string {
  const local = new Date(instant + offsetSeconds * 1000).toISOString().slice(0, 19);
  const abs = Math.abs(Math.round(offsetSeconds / 60));
  return `${local}${offsetSeconds < 0 ? "-" : "+"}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}
