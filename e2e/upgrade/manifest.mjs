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

/** A secret's fingerprint for the manifest (tokens are compared by it, never written). @param {string} secret */
export function secretChecksum(secret) {
  return crypto.createHash("sha256").update(secret).digest("hex");
}
