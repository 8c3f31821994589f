// Calendar-day arithmetic on the ring's "YYYY-MM-DD" day strings. Days are the person's local
// dates, so they are never converted through any time zone: a day is turned into an integer
// index (days since 1970-01-01 on the proleptic calendar) and back, with UTC maths only.

import { clock } from "@/lib/clock";
const MS_PER_DAY = 86_400_000;
const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True when `s` is a real calendar date written as YYYY-MM-DD. */
export function isDay(s: unknown): s is string {
  if (typeof s !== "string") return false;
  const m = DAY_RE.exec(s);
  if (!m) return false;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  if (mo < 1 || mo > 12 || d < 1 || d > 31) return false;
  const t = new Date(Date.UTC(y, mo - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d;
}

/**
 * The days Ringside accepts from a request (a sane window for ring data), and the longest range
 * one request may cover (about 30 years; a dense series of it is ~11k points). Declared once:
 * the API's schemas (lib/schemas/requests.ts) and the pages' range parsing use these.
 */
export const MIN_DAY = "2000-01-01";
export const MAX_DAY = "2099-12-31";
export const MAX_RANGE_DAYS = 11_000;

/** A real date inside [MIN_DAY, MAX_DAY]. */
export function isDayInWindow(s: unknown): s is string {
  return isDay(s) && s >= MIN_DAY && s <= MAX_DAY;
}

/** Days since 1970-01-01 (can be negative). Assumes a valid day string. */
export function dayToIndex(day: string): number {
  const y = Number(day.slice(0, 4));
  const m = Number(day.slice(5, 7));
  const d = Number(day.slice(8, 10));
  return Math.round(Date.UTC(y, m - 1, d) / MS_PER_DAY);
}

/** The day string of an index from dayToIndex. */
export function indexToDay(index: number): string {
  return new Date(index * MS_PER_DAY).toISOString().slice(0, 10);
}

/** The UTC calendar day of an instant (the server's view of "today"; a person's day may differ by one). */
export function utcDay(ms: number): string {
  return indexToDay(Math.floor(ms / MS_PER_DAY));
}

export function addDays(day: string, n: number): string {
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
  return (new Date(dayToIndex(day) * MS_PER_DAY).getUTCDay() + 6) % 7;
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
  if (opts.withWeekday !== false) parts.push(WEEKDAYS[weekdayMon0(day)] ?? "");
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
