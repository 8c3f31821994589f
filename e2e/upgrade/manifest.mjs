// @ts-check
// The upgrade fixtures' manifests: what a fixture database holds, written by the old Ringside that
// made it (e2e/upgrade/makers/, which import this file by its path from their old checkout) and
// checked by today's (e2e/upgrade/upgrade.test.ts). The checksums are defined here once, so both
// sides compute them the same way; plain JS with no imports but Node's, as the old checkouts
// run it too.
import crypto from "node:crypto";

/** The manifest format this file writes and reads. */
export const MANIFEST_FORMAT = 1;

/**
 * JSON with every object's keys sorted, so a document's checksum does not depend on the order
 * its keys were written in.
 * @param {unknown} value
 * @returns {string}
 */
export function canonicalJson(value) {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object")
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(/** @type {Record<string, unknown>} */ (value)[k])}`)
      .join(",")}}`;
  return JSON.stringify(value) ?? "null";
}

/** @param {string} text */
const short = (text) => crypto.createHash("sha256").update(text).digest("hex").slice(0, 16);

/**
 * A document's checksum: of its JSON as the ring service sent it (the stored `raw`), keys sorted.
 * @param {unknown} raw the parsed document
 */
export function documentChecksum(raw) {
  return short(canonicalJson(raw));
}

/** @typedef {{ t: number, fields: Record<string, unknown> }} SeriesSample a time-series sample: its instant (epoch ms) and its fields */

/**
 * One UTC day's samples, as [count, checksum]: the checksum of the samples in time order, each
 * its instant and its fields by name (null fields left out, so a field added later with no value
 * for old samples changes nothing).
 * @param {readonly SeriesSample[]} samples
 * @returns {[number, string]}
 */
export function seriesDayChecksum(samples) {
  const lines = samples
    .map((s) => {
      const fields = Object.keys(s.fields)
        .filter((k) => s.fields[k] !== null && s.fields[k] !== undefined)
        .sort()
        .map((k) => `${k}=${JSON.stringify(s.fields[k])}`);
      return `${s.t}|${fields.join("|")}`;
    })
    .sort();
  return [samples.length, short(lines.join("\n"))];
}

/**
 * Samples grouped by UTC day (the unit a time series is stored in), each day's [count, checksum].
 * @param {Iterable<SeriesSample>} samples
 * @returns {Record<string, [number, string]>}
 */
export function seriesChecksums(samples) {
  /** @type {Map<string, SeriesSample[]>} */
  const days = new Map();
  for (const s of samples) {
    const day = new Date(s.t).toISOString().slice(0, 10);
    const list = days.get(day) ?? [];
    list.push(s);
    days.set(day, list);
  }
  return Object.fromEntries([...days.keys()].sort().map((d) => [d, seriesDayChecksum(/** @type {SeriesSample[]} */ (days.get(d)))]));
}

const NUMBER_TEXT = /^-?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/**
 * A typed column's value as text, the same whichever way it was read: SQLite's 0/1 and
 * PostgreSQL's booleans alike, numbers and numeric text alike (a PostgreSQL bigint, a CSV cell),
 * dates as ISO instants; null for no value (null, or an empty cell).
 * @param {unknown} v
 * @returns {string | null}
 */
export function cellText(v) {
  if (v === null || v === undefined || v === "") return null;
  if (v === true || v === "true") return "1";
  if (v === false || v === "false") return "0";
  if (typeof v === "number" || typeof v === "bigint") return String(Number(v));
  if (v instanceof Date) return v.toISOString();
  if (typeof v === "string") return NUMBER_TEXT.test(v) ? String(Number(v)) : v;
  return canonicalJson(v);
}

/** The columns a document's row carries beside its typed values. */
export const ROW_KEY_COLUMNS = ["id", "userId", "documentId", "day", "raw", "syncedAt"];

/**
 * A collection's typed columns (the values Ringside derived from each document: what Trends and
 * the exports read), each as [values, checksum] over every document's non-null value, keyed by
 * the document: a column dropped, renamed without its data, or emptied changes its entry.
 * @param {Iterable<{ key: string, row: Record<string, unknown> }>} docs
 * @returns {Record<string, [number, string]>}
 */
export function columnChecksums(docs) {
  /** @type {Map<string, string[]>} */
  const columns = new Map();
  for (const { key, row } of docs)
    for (const [name, value] of Object.entries(row)) {
      if (ROW_KEY_COLUMNS.includes(name)) continue;
      const text = cellText(value);
      const lines = columns.get(name) ?? [];
      if (text !== null) lines.push(`${key} ${text}`);
      columns.set(name, lines);
    }
  return Object.fromEntries(
    [...columns.keys()].sort().map((name) => {
      const lines = /** @type {string[]} */ (columns.get(name)).sort();
      return [name, [lines.length, short(lines.join("\n"))]];
    }),
  );
}

/** A secret's fingerprint for the manifest (tokens are compared by it, never written). @param {string} secret */
export function secretChecksum(secret) {
  return crypto.createHash("sha256").update(secret).digest("hex");
}
