// Test support (never imported by the app): the ring maker's files written from documents — an
// account export's CSV files with the quirks seen in real ones, its ZIP, and the Trends CSV in
// either header spelling — so that the tests and the benchmark import files whose every value
// is known (taken from the emulator's documents for a planted person).
import fs from "node:fs";
import { stringify } from "csv-stringify/sync";
import yazl from "yazl";

type Doc = Record<string, unknown>;

export type CsvQuirks = {
  delimiter?: ";" | "," | "\t";
  /** a UTF-8 BOM first */
  bom?: boolean;
  /** a first line `sep=<delimiter>` */
  sepLine?: boolean;
  /** the columns in reverse order */
  reverse?: boolean;
  /** extra columns Ringside does not know, with their value on every row */
  extra?: Record<string, string>;
  /** header names in upper case */
  upperHeader?: boolean;
};

/** A cell as the export writes it: nothing for null (an empty text is written quoted), JSON text for objects and arrays. */
function cell(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === "object") return JSON.stringify(v);
  return String(v);
}

/** Documents as one CSV file of the account export (columns: every field seen, in first-seen order). */
export function exportCsv(docs: readonly Doc[], quirks: CsvQuirks = {}): string {
  const delimiter = quirks.delimiter ?? ";";
  const columns: string[] = [];
  const seen = new Set<string>();
  for (const d of docs)
    for (const k of Object.keys(d))
      if (!seen.has(k)) {
        seen.add(k);
        columns.push(k);
      }
  if (quirks.reverse) columns.reverse();
  const extra = Object.entries(quirks.extra ?? {});
  const header = [...columns, ...extra.map(([k]) => k)].map((h) => (quirks.upperHeader ? h.toUpperCase() : h));
  const rows = docs.map((d) => [...columns.map((c) => cell(d[c])), ...extra.map(([, v]) => v)]);
  // an empty text is quoted (`""`), an empty cell is null: how a CSV tells the two apart
  const body = stringify([header, ...rows], { delimiter, record_delimiter: "\r\n", quoted_match: /^$/ });
  return `${quirks.bom ? "\ufeff" : ""}${quirks.sepLine ? `sep=${delimiter}\r\n` : ""}${body}`;
}

export type ZipFileSpec = { name: string; data: string | Buffer | (() => AsyncIterable<Buffer | string>); compress?: boolean };

/** Writes a ZIP (yazl, entries streamed) to `file`. */
export async function writeZip(file: string, entries: readonly ZipFileSpec[]): Promise<void> {
  const zip = new yazl.ZipFile();
  const out = fs.createWriteStream(file);
  const done = new Promise<void>((resolve, reject) => {
    out.on("close", () => resolve());
    out.on("error", reject);
  });
  zip.outputStream.pipe(out);
  for (const e of entries) {
    const opts = { compress: e.compress ?? true, mtime: new Date(Date.UTC(2026, 0, 1)) };
    if (typeof e.data === "function") {
      const { Readable } = await import("node:stream");
      zip.addReadStream(Readable.from(e.data()), e.name, opts);
    } else zip.addBuffer(Buffer.isBuffer(e.data) ? e.data : Buffer.from(e.data), e.name, opts);
  }
  zip.end();
  await done;
}

/** The Trends CSV's headers: the older spelling (`… Time`) and the newer (`… Duration`, trend deviation). */
const TRENDS_VARIANTS = {
  old: {
    "Sleep Score": ["daily_sleep", "score"],
    "Deep Sleep Score": ["daily_sleep", "contributors.deep_sleep"],
    "Total Bedtime": ["sleep", "time_in_bed"],
    "Total Sleep Time": ["sleep", "total_sleep_duration"],
    "REM Sleep Time": ["sleep", "rem_sleep_duration"],
    "Average HRV": ["sleep", "average_hrv"],
    "Lowest Resting Heart Rate": ["sleep", "lowest_heart_rate"],
    "Temperature Deviation (°C)": ["daily_readiness", "temperature_deviation"],
    "Readiness Score": ["daily_readiness", "score"],
    "HRV Balance Score": ["daily_readiness", "contributors.hrv_balance"],
    "Activity Score": ["daily_activity", "score"],
    Steps: ["daily_activity", "steps"],
    "Sleep Timing": ["", ""],
  },
  new: {
    "Sleep Score": ["daily_sleep", "score"],
    "Deep Sleep Score": ["daily_sleep", "contributors.deep_sleep"],
    "Total Bedtime": ["sleep", "time_in_bed"],
    "Total Sleep Duration": ["sleep", "total_sleep_duration"],
    "REM Sleep Duration": ["sleep", "rem_sleep_duration"],
    "Average HRV": ["sleep", "average_hrv"],
    "Lowest Resting Heart Rate": ["sleep", "lowest_heart_rate"],
    "Temperature Deviation (°C)": ["daily_readiness", "temperature_deviation"],
    "Temperature Trend Deviation": ["daily_readiness", "temperature_trend_deviation"],
    "Readiness Score": ["daily_readiness", "score"],
    "HRV Balance Score": ["daily_readiness", "contributors.hrv_balance"],
    "Activity Score": ["daily_activity", "score"],
    Steps: ["daily_activity", "steps"],
  },
} as const;

const at = (d: Doc | undefined, path: string): unknown =>
  path.split(".").reduce<unknown>((o, k) => (o && typeof o === "object" ? (o as Doc)[k] : undefined), d);

/**
 * A Trends CSV (comma-separated, one row per day) from documents by collection: the day's
 * daily documents and its main sleep (the longest `long_sleep`).
 */
export function trendsCsv(docs: Record<string, readonly Doc[]>, variant: keyof typeof TRENDS_VARIANTS, days: readonly string[]): string {
  const columns = Object.entries(TRENDS_VARIANTS[variant]);
  const byDay = (c: string) => new Map((docs[c] ?? []).map((d) => [d.day as string, d]));
  const tables: Record<string, Map<string, Doc>> = {
    daily_sleep: byDay("daily_sleep"),
    daily_readiness: byDay("daily_readiness"),
    daily_activity: byDay("daily_activity"),
  };
  const nights = new Map<string, Doc>();
  for (const s of docs.sleep ?? []) {
    if (s.type !== "long_sleep") continue;
    const had = nights.get(s.day as string);
    if (!had || Number(s.total_sleep_duration ?? 0) > Number(had.total_sleep_duration ?? 0)) nights.set(s.day as string, s);
  }
  tables.sleep = nights;
  const rows = days.map((day) => [day, ...columns.map(([, [c, f]]) => (c ? cell(at(tables[c]!.get(day), f)) : null))]);
  return stringify([["date", ...columns.map(([h]) => h)], ...rows]);
}
