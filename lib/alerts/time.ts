// Wall-clock time in the person's time zone, with Intl only (no time-zone library): their
// day ("today"), weekday and hour, and the instant of a local hour on a local day (the
// digest's slot). Pure: every function takes the instant it works on.
import { addDays } from "@/lib/days";
import type { QuietHours } from "@/lib/db/queries/alert-rows";

export type LocalTime = {
  /** YYYY-MM-DD */
  day: string;
  /** ISO weekday, 1 = Monday … 7 = Sunday */
  weekday: number;
  hour: number;
  minute: number;
};

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(timeZone, f);
  }
  return f;
}

function parts(instant: number, timeZone: string): { y: number; mo: number; d: number; h: number; mi: number; s: number } {
  const out: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(new Date(instant))) if (p.type !== "literal") out[p.type] = Number(p.value);
  return { y: out.year!, mo: out.month!, d: out.day!, h: out.hour! % 24, mi: out.minute!, s: out.second! };
}

/** The person's local day, weekday and time at `instant`. */
export function localTime(instant: number, timeZone: string): LocalTime {
  const p = parts(instant, timeZone);
  const day = `${String(p.y).padStart(4, "0")}-${String(p.mo).padStart(2, "0")}-${String(p.d).padStart(2, "0")}`;
  const weekday = ((new Date(Date.UTC(p.y, p.mo - 1, p.d)).getUTCDay() + 6) % 7) + 1;
  return { day, weekday, hour: p.h, minute: p.mi };
}

/** The zone's offset from UTC at `instant`, in ms (positive east of Greenwich). */
export function zoneOffsetMs(instant: number, timeZone: string): number {
  const p = parts(instant, timeZone);
  const asUtc = Date.UTC(p.y, p.mo - 1, p.d, p.h, p.mi, p.s);
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/**
 * The instant at which the clock in `timeZone` shows `hour`:00 on `day`. A local hour skipped by
 * a daylight-saving change maps to the instant just after the gap; a repeated one to its first
 * occurrence.
 */
export function zonedInstant(day: string, hour: number, timeZone: string, minute = 0): number {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  const wall = Date.UTC(y, m - 1, d, hour, minute);
  // Two passes settle the offset on either side of a change.
  const first = wall - zoneOffsetMs(wall, timeZone);
  const second = wall - zoneOffsetMs(first, timeZone);
  if (second === first) {
    // a repeated hour: take the earlier of the two instants showing it
    const earlier = first - 3_600_000;
    const lt = localTime(earlier, timeZone);
    return lt.day === day && lt.hour === hour && lt.minute === minute ? earlier : first;
  }
  const lt = localTime(second, timeZone);
  return lt.day === day && lt.hour === hour && lt.minute === minute ? second : Math.max(first, second);
}

/**
 * The latest weekly slot (ISO `weekday` at `hour`:00 in `timeZone`) at or before `now`.
 */
export function lastWeeklySlot(now: number, timeZone: string, weekday: number, hour: number): { instant: number; day: string } {
  const today = localTime(now, timeZone);
  for (let back = 0; back <= 7; back++) {
    const day = addDays(today.day, -back);
    const wd = ((((today.weekday - 1 - back) % 7) + 7) % 7) + 1;
    if (wd !== weekday) continue;
    const instant = zonedInstant(day, hour, timeZone);
    if (instant <= now) return { instant, day };
  }
  // unreachable: within 8 days there is always a past slot
  const day = addDays(today.day, -7);
  return { instant: zonedInstant(day, hour, timeZone), day };
}

/** The next weekly slot strictly after `now` (shown in Settings). */
export function nextWeeklySlot(now: number, timeZone: string, weekday: number, hour: number): { instant: number; day: string } {
  const today = localTime(now, timeZone);
  for (let ahead = 0; ahead <= 8; ahead++) {
    const day = addDays(today.day, ahead);
    const wd = ((today.weekday - 1 + ahead) % 7) + 1;
    if (wd !== weekday) continue;
    const instant = zonedInstant(day, hour, timeZone);
    if (instant > now) return { instant, day };
  }
  const day = addDays(today.day, 7);
  return { instant: zonedInstant(day, hour, timeZone), day };
}

/** Whether `now` lies in the person's quiet hours (in `timeZone`). */
export function isQuietAt(now: number, timeZone: string, quiet: QuietHours | null): boolean {
  if (!quiet || quiet.from === quiet.to) return false;
  const t = localTime(now, timeZone);
  const m = t.hour * 60 + t.minute;
  return quiet.from < quiet.to ? m >= quiet.from && m < quiet.to : m >= quiet.from || m < quiet.to;
}

/** When a message due at `now` may go: `now`, or the end of the quiet hours `now` lies in. */
export function quietHoursEnd(now: number, timeZone: string, quiet: QuietHours | null): number {
  if (!quiet || !isQuietAt(now, timeZone, quiet)) return now;
  const t = localTime(now, timeZone);
  const day = t.hour * 60 + t.minute < quiet.to ? t.day : addDays(t.day, 1);
  return Math.max(now, zonedInstant(day, Math.floor(quiet.to / 60), timeZone, quiet.to % 60));
}
