// Test support (never imported by the app): the ring maker's files written from documents — an
// account export's CSV files with the quirks seen in real ones, its ZIP, and the Trends CSV in
// either header spelling — so that the tests and the benchmark import files whose every value
// is known (taken from the emulator's documents for a planted person).
import fs from "node:fs";
import { stringify } from "csv-stringify/sync";
import yazl from "yazl";
import zlib from "node:zlib";

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

/** One entry of a hand-made ZIP: its name, its bytes and whether they are deflated. */
export type RawEntry = { name: string; data: Buffer; deflate?: boolean };

/**
 * A ZIP written byte by byte (what yazl never writes): each entry's local header and data in
 * order, then the central directory. `directory` lists the central records to write, each
 * naming the entry (by index) whose bytes it points at, under a name of its own: several
 * records pointing at one entry make an overlapping ZIP (a "quine" bomb); records in another
 * order than the data make one out of order.
 */
export function rawZip(entries: readonly RawEntry[], directory?: ReadonlyArray<{ entry: number; name: string }>): Buffer {
  const parts: Buffer[] = [];
  const placed: Array<{ offset: number; crc: number; method: number; packed: number; size: number }> = [];
  let offset = 0;
  for (const e of entries) {
    const method = e.deflate === false ? 0 : 8;
    const packed = method === 8 ? zlib.deflateRawSync(e.data, { level: 9 }) : e.data;
    const name = Buffer.from(e.name);
    const h = Buffer.alloc(30);
    h.writeUInt32LE(0x04034b50, 0);
    h.writeUInt16LE(20, 4);
    h.writeUInt16LE(0x0800, 6);
    h.writeUInt16LE(method, 8);
    const crc = zlib.crc32(e.data) >>> 0;
    h.writeUInt32LE(crc, 14);
    h.writeUInt32LE(packed.length, 18);
    h.writeUInt32LE(e.data.length, 22);
    h.writeUInt16LE(name.length, 26);
    placed.push({ offset, crc, method, packed: packed.length, size: e.data.length });
    parts.push(h, name, packed);
    offset += 30 + name.length + packed.length;
  }
  const cdStart = offset;
  const records = directory ?? entries.map((e, i) => ({ entry: i, name: e.name }));
  for (const r of records) {
    const p = placed[r.entry]!;
    const name = Buffer.from(r.name);
    const c = Buffer.alloc(46);
    c.writeUInt32LE(0x02014b50, 0);
    c.writeUInt16LE(20, 4);
    c.writeUInt16LE(20, 6);
    c.writeUInt16LE(0x0800, 8);
    c.writeUInt16LE(p.method, 10);
    c.writeUInt32LE(p.crc, 16);
    c.writeUInt32LE(p.packed, 20);
    c.writeUInt32LE(p.size, 24);
    c.writeUInt16LE(name.length, 28);
    c.writeUInt32LE(p.offset, 42);
    parts.push(c, name);
    offset += 46 + name.length;
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(records.length, 8);
  end.writeUInt16LE(records.length, 10);
  end.writeUInt32LE(offset - cdStart, 12);
  end.writeUInt32LE(cdStart, 16);
  parts.push(end);
  return Buffer.concat(parts);
}
