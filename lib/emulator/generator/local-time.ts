// Local times of the data generator. A day is an index (lib/days.ts: days since 1970-01-01); a
// local time is seconds after the local midnight of a day, written with the user's fixed UTC
// offset (no daylight saving).
import { indexToDay, weekdayMon0 } from "@/lib/days";

export const DAY_S = 86_400;
export const HOUR = 3600;
export const MIN = 60;
/** daily_activity covers 04:00 D .. 04:00 D+1 local. */
export const ACTIVITY_START_S = 4 * HOUR;

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** The weekday of a day index counted from Sunday (0 = Sunday .. 6 = Saturday), the order of the profile's weekly habits. */
export function sundayFirstWeekday(index: number): number {
  return (weekdayMon0(indexToDay(index)) + 1) % 7;
}

/** "+01:00" style offset. */
export function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? "-" : "+";
  const a = Math.abs(minutes);
  return `${sign}${pad2(Math.floor(a / 60))}:${pad2(a % 60)}`;
}

/** Local date-time of `seconds` after local midnight of day `index` (may be negative or > 1 day). */
export function localDateTime(index: number, seconds: number, offset: string, millis = false): string {
  const s = Math.round(seconds);
  const shift = Math.floor(s / DAY_S);
  const t = s - shift * DAY_S;
  const hh = Math.floor(t / HOUR);
  const mm = Math.floor((t % HOUR) / MIN);
  const ss = t % MIN;
  return `${indexToDay(index + shift)}T${pad2(hh)}:${pad2(mm)}:${pad2(ss)}${millis ? ".000" : ""}${offset}`;
}
