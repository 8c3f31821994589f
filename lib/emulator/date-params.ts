// The emulator's reading of request dates: the lenient start_date/end_date parser (a date, a
// date-time, or Unix seconds, like Pydantic) and the wall-clock and offset texts the routes
// compare and write. Day arithmetic is lib/days.ts's.
import { isDay } from "@/lib/days";

/**
 * A parsed date bound as local wall-clock text "YYYY-MM-DDTHH:MM:SS". Documents are compared
 * on their own local wall clock (the offset they carry), so a date-only bound means local
 * midnight whatever the user's time zone. `instant` is the same bound as a point in time (epoch
 * ms): the offset it carries, UTC when it carries none (a date-only bound is UTC midnight) — for
 * the routes that compare instants (workouts, sessions, the time series).
 */
export type DateBound = { wall: string; dateOnly: boolean; instant: number };

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME_RE = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d{1,9})?)?(?:[Zz]|[+-]\d{2}(?::?\d{2})?)?$/;
const UNIX_RE = /^\d{1,14}(?:\.\d+)?$/;
const OFFSET_RE = /(?:[Zz]|[+-]\d{2}(?::?\d{2})?)$/;

/** "Z", "+01", "+0100", "+01:00" → "Z" / "+01:00"; none → "Z" (UTC). */
function normalizeOffset(offset: string): string {
  if (offset === "" || offset === "z" || offset === "Z") return "Z";
  const m = /^([+-])(\d{2}):?(\d{2})?$/.exec(offset)!;
  return `${m[1]}${m[2]}:${m[3] ?? "00"}`;
}

/** Parses a start_date/end_date value; null = malformed. */
export function parseDateBound(value: string): DateBound | null {
  const v = value.trim();
  const d = DATE_RE.exec(v);
  if (d) return isDay(v) ? { wall: `${v}T00:00:00`, dateOnly: true, instant: Date.parse(`${v}T00:00:00Z`) } : null;
  const dt = DATETIME_RE.exec(v);
  if (dt) {
    const day = `${dt[1]}-${dt[2]}-${dt[3]}`;
    const h = Number(dt[4]);
    const m = Number(dt[5]);
    const s = Number(dt[6] ?? "0");
    if (!isDay(day) || h > 23 || m > 59 || s > 59) return null;
    const wall = `${day}T${dt[4]}:${dt[5]}:${dt[6] ?? "00"}`;
    const fraction = /[.,](\d{1,3})/.exec(v.slice(16))?.[1] ?? "";
    const offset = OFFSET_RE.exec(v)?.[0] ?? "";
    return { wall, dateOnly: false, instant: Date.parse(`${wall}${fraction ? `.${fraction.padEnd(3, "0")}` : ""}${normalizeOffset(offset)}`) };
  }
  if (UNIX_RE.test(v)) {
    // Pydantic reads a number as Unix time: seconds, or milliseconds when above 2e10.
    let n = Number(v);
    if (n > 2e10) n = n / 1000;
    const ms = Math.floor(n * 1000);
    if (!Number.isFinite(ms) || ms > 253_402_300_799_000) return null;
    return { wall: new Date(ms).toISOString().slice(0, 19), dateOnly: false, instant: ms };
  }
  return null;
}

/** "2024-11-11T04:00:00+01:00" → "2024-11-11T04:00:00" (the document's local wall clock). */
export function wallClock(timestamp: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})(?::(\d{2}))?/.exec(timestamp);
  if (!m) return `${timestamp.slice(0, 10)}T00:00:00`;
  return `${m[1]}T${m[2]}:${m[3] ?? "00"}`;
}

/** Epoch ms → "2026-03-15T08:00:00+00:00" (UTC, offset form, no fraction), for event_time and expiration_time. */
export function isoWithOffset(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "+00:00");
}
