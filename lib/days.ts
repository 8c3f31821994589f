// Calendar days as the ring writes them: "YYYY-MM-DD" strings. Days are the person's local
// dates, so they never pass through a time zone: a day is an integer index (days since
// 1970-01-01 on the proleptic Gregorian calendar, negative before it) and back, by integer
// arithmetic alone (no Date, no daylight saving, the same result in any time zone). The one day
// module of the app and the emulator (its data generator too): every layer may import it.

import { clock } from "@/lib/clock";

/**
 * The days Ringside accepts from a request (a sane window for ring data), and the longest range
 * one request may cover (about 30 years; a dense series of it is ~11k points). Declared once:
 * the API's schemas (lib/schemas/requests.ts) and the pages' range parsing use these.
 */
export const MIN_DAY = "2000-01-01";
export const MAX_DAY = "2099-12-31";
export const MAX_RANGE_DAYS = 11_000;

const MS_PER_DAY = 86_400_000;
/** dayToIndex("0000-01-01") and dayToIndex("9999-12-31"): the days a YYYY-MM-DD string can write. */
const FIRST_INDEX = -719_528;
const LAST_INDEX = 2_932_896;

function isLeapYear(y: number): boolean {
  return y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
}

function daysInMonth(y: number, m: number): number {
  return m === 2 ? (isLeapYear(y) ? 29 : 28) : m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
}

/** The digits of `s` from `at` to `at + n` as a number, or -1 when any is not a digit. */
function digits(s: string, at: number, n: number): number {
  let v = 0;
  for (let i = at; i < at + n; i++) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    v = v * 10 + c;
  }
  return v;
}

/** Days since 1970-01-01 of a real YYYY-MM-DD date, or NaN when `s` is not one. */
function parseDay(s: string): number {
  if (s.length !== 10 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45) return NaN;
  const y = digits(s, 0, 4);
  const m = digits(s, 5, 2);
  const d = digits(s, 8, 2);
  if (y < 0 || m < 1 || m > 12 || d < 1 || d > daysInMonth(y, m)) return NaN;
  // days_from_civil (H. Hinnant): years start in March, so the leap day ends the year
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * ((m + 9) % 12) + 2) / 5) + d - 1;
  return era * 146_097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719_468;
}

/** True when `s` is a real calendar date written as YYYY-MM-DD (years 0000–9999). */
export function isDay(s: unknown): s is string {
  return typeof s === "string" && !Number.isNaN(parseDay(s));
}

/** A real date inside [MIN_DAY, MAX_DAY]. */
export function isDayInWindow(s: unknown): s is string {
  return isDay(s) && s >= MIN_DAY && s <= MAX_DAY;
}

/** Days since 1970-01-01 (negative before it); a RangeError when `day` is not a real YYYY-MM-DD date. */
export function dayToIndex(day: string): number {
  const index = parseDay(day);
  if (Number.isNaN(index)) throw new RangeError(`invalid day: ${day}`);
  return index;
}

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));

/** The day of an index from dayToIndex (a fraction counts as its day); a RangeError outside 0000-01-01..9999-12-31. */
export function indexToDay(index: number): string {
  const z = Math.floor(index);
  if (!(z >= FIRST_INDEX && z <= LAST_INDEX)) throw new RangeError(`not a day index: ${index}`);
  // civil_from_days (H. Hinnant)
  const shifted = z + 719_468;
  const era = Math.floor(shifted / 146_097);
  const doe = shifted - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  return `${String(y).padStart(4, "0")}-${pad2(m)}-${pad2(d)}`;
}

/** The UTC calendar day of an instant (the server's view of "today"; a person's day may differ by one). */
export function utcDay(ms: number): string {
  return indexToDay(Math.floor(ms / MS_PER_DAY));
}

/** The day `n` days after `day` (before it when negative); a RangeError when `n` is not a whole number. */
export function addDays(day: string, n: number): string {
  if (!Number.isInteger(n)) throw new RangeError(`not a whole number of days: ${n}`);
  return indexToDay(dayToIndex(day) + n);
}

/** b − a in days. */
export function diffDays(a: string, b: string): number {
  return dayToIndex(b) - dayToIndex(a);
}

/** Every day from `from` to `to`, both included (empty when from > to). */
export function dayRange(from: string, to: string): string[] {
  const start = dayToIndex(from);
  const end = dayToIndex(to);
  const out: string[] = [];
  for (let i = start; i <= end; i++) out.push(indexToDay(i));
  return out;
}

/** 0 = Monday … 6 = Sunday. */
export function weekdayMon0(day: string): number {
  // 1970-01-01 was a Thursday (3)
  return (((dayToIndex(day) + 3) % 7) + 7) % 7;
}

export function minDay(a: string, b: string): string {
  return a <= b ? a : b;
}

export function maxDay(a: string, b: string): string {
  return a >= b ? a : b;
}

/** Today's date in the given IANA time zone (the browser's own when omitted). */
export function todayIn(timeZone?: string, now: Date = clock.date()): string {
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(now);
  return parts; // en-CA formats as YYYY-MM-DD
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

/** "Mon 3 Mar" (with the year when `withYear`). Locale-free so server and client agree. */
export function formatDay(day: string, opts: { withYear?: boolean; withWeekday?: boolean } = {}): string {
  const d = Number(day.slice(8, 10));
  const m = MONTHS[Number(day.slice(5, 7)) - 1] ?? "";
  const parts = [] as string[];
  // (a string that is not a day gets no weekday: a label never throws)
  if (opts.withWeekday !== false) parts.push(isDay(day) ? WEEKDAYS[weekdayMon0(day)]! : "");
  parts.push(`${d} ${m}`);
  if (opts.withYear) parts.push(day.slice(0, 4));
  return parts.join(" ");
}

/** "Mar 2024" / "Mar" style month label of a day. */
export function formatMonth(day: string, withYear = false): string {
  const m = MONTHS[Number(day.slice(5, 7)) - 1] ?? "";
  return withYear ? `${m} ${day.slice(0, 4)}` : m;
}

export const MONTH_NAMES = MONTHS;
