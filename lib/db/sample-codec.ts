// The stored form of a time series (heart rate, ring battery): one row per person and UTC day,
// its samples packed into one blob. Pure (no I/O), so it is unit-tested on its own and the same
// bytes go into SQLite's BLOB or PostgreSQL's bytea.
//
// Layout (version 1, little-endian), for a series whose samples have the fields of its
// registry entry (lib/resources, `sample.fields`) in that order:
//   u8   version (1)
//   u8   field count
//   u32  n, the number of samples
//   i32  × n  each sample's time: milliseconds from the UTC day's midnight (ascending)
//   then per field:
//     int   i16 × n   (-32768 = none)
//     bool  u8  × n   (0 false, 1 true, 2 none)
//     text  u8 m, then m × (u8 byte length, UTF-8 bytes): the day's distinct values;
//           u8 × n   the index of each sample's value (255 = none)
// A heart-rate sample is 7 bytes (time 4, bpm 2, source 1); about 2 KB a day, 4 MB for five years.

import type { SampleSpec } from "@/lib/resources/define";
import { serviceInstant } from "@/lib/clock";

export type SampleValue = number | boolean | string | null;
/** One sample: its instant (epoch ms) and its field values, in the spec's field order. */
export type Sample = { t: number; v: SampleValue[] };

export const DAY_MS = 86_400_000;
const VERSION = 1;
const INT_NONE = -32768;
const TEXT_NONE = 255;
/** The largest magnitude an int field holds. */
export const INT_FIELD_MAX = 32767;
/** The longest text value (UTF-8 bytes). */
export const TEXT_FIELD_MAX_BYTES = 255;
/** Distinct text values a day can hold per field (more are stored as none). */
const TEXT_DICTIONARY_MAX = 254;

const enc = new TextEncoder();
const dec = new TextDecoder();

/** The UTC day ("YYYY-MM-DD") of an instant. */
export function utcDayOf(ms: number): string {
  return new Date(Math.floor(ms / DAY_MS) * DAY_MS).toISOString().slice(0, 10);
}

/** Midnight UTC of a day, in epoch ms. */
export function dayStartMs(day: string): number {
  return Date.parse(`${day}T00:00:00Z`);
}

/** Orders samples by time, then by the key fields' values; the identity of a sample (`keyOf`). */
export function sampleKeyer(spec: SampleSpec): (s: Sample) => string {
  const idx = spec.key.map((k) => spec.fields.findIndex((f) => f.name === k));
  if (idx.length === 0) return (s) => String(s.t);
  // one key field (heart rate's source): the same text without an array per sample
  if (idx.length === 1) {
    const i = idx[0]!;
    return (s) => `${s.t}|${String(s.v[i] ?? "")}`;
  }
  return (s) => `${s.t}|${idx.map((i) => String(s.v[i] ?? "")).join("|")}`;
}

function compare(spec: SampleSpec): (a: Sample, b: Sample) => number {
  const idx = spec.key.map((k) => spec.fields.findIndex((f) => f.name === k));
  return (a, b) => {
    if (a.t !== b.t) return a.t - b.t;
    for (const i of idx) {
      const x = String(a.v[i] ?? "");
      const y = String(b.v[i] ?? "");
      if (x !== y) return x < y ? -1 : 1;
    }
    return 0;
  };
}

/** Whether each sample comes strictly after the one before it. */
function ascending(list: readonly Sample[], cmp: (a: Sample, b: Sample) => number): boolean {
  for (let i = 1; i < list.length; i++) if (cmp(list[i - 1]!, list[i]!) >= 0) return false;
  return true;
}

/**
 * The union of two sample lists, sorted, one sample per identity (time and key fields); where
 * both hold one, `newer`'s wins. Either list may be unsorted.
 */
export function mergeSamples(spec: SampleSpec, older: readonly Sample[], newer: readonly Sample[]): Sample[] {
  // The common case, a day's samples in order and a page's all after them: the union is the one
  // after the other. (With one key field at most, two samples are the same one exactly when
  // `compare` finds them equal, so strictly ascending lists hold nothing twice.)
  if (spec.key.length <= 1) {
    const cmp = compare(spec);
    if (ascending(older, cmp) && ascending(newer, cmp) && (older.length === 0 || newer.length === 0 || cmp(older[older.length - 1]!, newer[0]!) < 0))
      return [...older, ...newer];
  }
  const keyOf = sampleKeyer(spec);
  const byKey = new Map<string, Sample>();
  for (const s of older) byKey.set(keyOf(s), s);
  for (const s of newer) byKey.set(keyOf(s), s);
  return [...byKey.values()].sort(compare(spec));
}

/** Packs one UTC day's samples (each within the day). Throws on a sample outside the day. */
export function encodeDay(spec: SampleSpec, day: string, samples: readonly Sample[]): Buffer {
  const start = dayStartMs(day);
  const n = samples.length;
  const parts: Buffer[] = [];
  const head = Buffer.alloc(6 + 4 * n);
  head.writeUInt8(VERSION, 0);
  head.writeUInt8(spec.fields.length, 1);
  head.writeUInt32LE(n, 2);
  for (let i = 0; i < n; i++) {
    const off = samples[i]!.t - start;
    if (!(off >= 0 && off < DAY_MS)) throw new Error(`sample-codec: a sample at ${samples[i]!.t} is not on ${day}`);
    head.writeInt32LE(off, 6 + 4 * i);
  }
  parts.push(head);
  spec.fields.forEach((field, f) => {
    if (field.type === "int") {
      const b = Buffer.alloc(2 * n);
      for (let i = 0; i < n; i++) {
        const v = samples[i]!.v[f];
        b.writeInt16LE(typeof v === "number" && Number.isFinite(v) && Math.abs(v) <= INT_FIELD_MAX ? Math.round(v) : INT_NONE, 2 * i);
      }
      parts.push(b);
    } else if (field.type === "bool") {
      const b = Buffer.alloc(n);
      for (let i = 0; i < n; i++) {
        const v = samples[i]!.v[f];
        b[i] = v === true ? 1 : v === false ? 0 : 2;
      }
      parts.push(b);
    } else {
      const dict: string[] = [];
      const index = new Map<string, number>();
      const codes = Buffer.alloc(n);
      for (let i = 0; i < n; i++) {
        const v = samples[i]!.v[f];
        let code = TEXT_NONE;
        if (typeof v === "string") {
          // a value of the dictionary was measured when it went in: only a new one is encoded to measure it
          const known = index.get(v);
          if (known !== undefined) code = known;
          else if (dict.length < TEXT_DICTIONARY_MAX && enc.encode(v).length <= TEXT_FIELD_MAX_BYTES) {
            code = dict.length;
            index.set(v, code);
            dict.push(v);
          }
        }
        codes[i] = code;
      }
      const words = dict.map((w) => Buffer.from(enc.encode(w)));
      const d = Buffer.alloc(1 + words.reduce((a, w) => a + 1 + w.length, 0));
      d.writeUInt8(dict.length, 0);
      let o = 1;
      for (const w of words) {
        d.writeUInt8(w.length, o);
        w.copy(d, o + 1);
        o += 1 + w.length;
      }
      parts.push(d, codes);
    }
  });
  return Buffer.concat(parts);
}

/** The number of samples a packed day holds (its header only). */
export function countOf(blob: Uint8Array): number {
  return Buffer.from(blob.buffer, blob.byteOffset, blob.byteLength).readUInt32LE(2);
}

/**
 * A packed day's samples in columns: `t` (epoch ms, ascending) and each field's values by name.
 * What the pages read (a day's curve) without building one object per sample.
 */
export type SampleColumns = { t: Float64Array; fields: Record<string, SampleValue[]> };

export function decodeColumns(spec: SampleSpec, day: string, blob: Uint8Array): SampleColumns {
  const b = Buffer.from(blob.buffer, blob.byteOffset, blob.byteLength);
  const version = b.readUInt8(0);
  if (version !== VERSION) throw new Error(`sample-codec: unknown version ${version}`);
  if (b.readUInt8(1) !== spec.fields.length) throw new Error("sample-codec: the stored fields differ from the registry's");
  const n = b.readUInt32LE(2);
  const start = dayStartMs(day);
  const t = new Float64Array(n);
  for (let i = 0; i < n; i++) t[i] = start + b.readInt32LE(6 + 4 * i);
  let o = 6 + 4 * n;
  const fields: Record<string, SampleValue[]> = {};
  for (const field of spec.fields) {
    const out = new Array<SampleValue>(n);
    if (field.type === "int") {
      for (let i = 0; i < n; i++) {
        const v = b.readInt16LE(o + 2 * i);
        out[i] = v === INT_NONE ? null : v;
      }
      o += 2 * n;
    } else if (field.type === "bool") {
      for (let i = 0; i < n; i++) {
        const v = b[o + i]!;
        out[i] = v === 1 ? true : v === 0 ? false : null;
      }
      o += n;
    } else {
      const m = b.readUInt8(o);
      o += 1;
      const dict: string[] = [];
      for (let j = 0; j < m; j++) {
        const len = b.readUInt8(o);
        dict.push(dec.decode(b.subarray(o + 1, o + 1 + len)));
        o += 1 + len;
      }
      for (let i = 0; i < n; i++) {
        const c = b[o + i]!;
        out[i] = c === TEXT_NONE ? null : (dict[c] ?? null);
      }
      o += n;
    }
    fields[field.name] = out;
  }
  return { t, fields };
}

/** A packed day's samples, one object each (merging, export). */
export function decodeDay(spec: SampleSpec, day: string, blob: Uint8Array): Sample[] {
  const { t, fields } = decodeColumns(spec, day, blob);
  const cols = spec.fields.map((f) => fields[f.name]!);
  const out = new Array<Sample>(t.length);
  for (let i = 0; i < t.length; i++) out[i] = { t: t[i]!, v: cols.map((c) => c[i] ?? null) };
  return out;
}

/** Groups samples by their UTC day. */
export function groupByUtcDay(samples: readonly Sample[]): Map<string, Sample[]> {
  const out = new Map<string, Sample[]>();
  let lastIdx = Number.NaN;
  let lastList: Sample[] | undefined;
  for (const s of samples) {
    const idx = Math.floor(s.t / DAY_MS);
    if (idx !== lastIdx) {
      const day = utcDayOf(s.t);
      lastList = out.get(day);
      if (!lastList) out.set(day, (lastList = []));
      lastIdx = idx;
    }
    lastList!.push(s);
  }
  return out;
}

/**
 * A sample as the ring service sends it: `timestamp` (UTC, "+00:00", milliseconds only when
 * there are any), `timestamp_unix` (ms) and the fields, keys in alphabetical order as served.
 */
export function sampleRow(spec: SampleSpec, s: Sample): Record<string, SampleValue> {
  const row: Record<string, SampleValue> = {};
  for (const [name, i] of servedOrder(spec)) row[name] = i === TIMESTAMP ? serviceInstant(s.t) : i === TIMESTAMP_UNIX ? s.t : (s.v[i] ?? null);
  return row;
}

const TIMESTAMP = -1;
const TIMESTAMP_UNIX = -2;
const servedOrders = new WeakMap<SampleSpec, Array<[string, number]>>();

/** A spec's row keys in the served (alphabetical) order, each with its field's index, worked out once. */
function servedOrder(spec: SampleSpec): Array<[string, number]> {
  let order = servedOrders.get(spec);
  if (!order) {
    const keys: Array<[string, number]> = [
      ...spec.fields.map((f, i): [string, number] => [f.name, i]),
      ["timestamp", TIMESTAMP],
      ["timestamp_unix", TIMESTAMP_UNIX],
    ];
    servedOrders.set(spec, (order = keys.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))));
  }
  return order;
}
