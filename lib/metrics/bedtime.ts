// Bedtime guidance (sleep_time) → what the pages say: the status, the recommendation, and the
// recommended window on the clock. Pure.
import { formatClock } from "@/lib/metrics/day-detail";

export type BedtimeRow = { day: string; status: string | null; recommendation: string | null; start_offset: number | null; end_offset: number | null; day_tz: number | null };

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
