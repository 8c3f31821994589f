import "server-only";
import type { z } from "zod";
import { RING_DOCUMENT_SCHEMAS, RING_ENUMS } from "@/lib/ring/schemas";
import { quickCheckOf } from "@/lib/ring/quick-check";
import { getResource, sampleSpecOf, type RingCollection, type SeriesCollection } from "@/lib/resources";
import type { ColumnDef, ColumnSource } from "@/lib/resources/define";
import { TRENDS_ID_PREFIX, type CellValue, type DocumentRow, type SnapshotRow } from "@/lib/db/ingest/documents";
import { INT_FIELD_MAX, TEXT_FIELD_MAX_BYTES, type Sample, type SampleValue } from "@/lib/db/sample-codec";

// Pure: one document from the ring service → one database row (typed columns + raw JSON).
// The columns and where each is read from are the registry's (lib/resources). A value of one
// of the spec's closed lists that Ringside does not know (RING_ENUMS) keeps the document: its
// column is stored as null (unknown; charts show a gap) and the value is reported in `unknown`
// for the caller to log once (lib/sync/unknown-values.ts).

/** A closed-list value Ringside does not know yet: stored as unknown (null column). */
export type UnknownValue = { field: string; value: string };

export type MapResult =
  { ok: true; row: DocumentRow; unknown?: UnknownValue[] } | { ok: false; error: string; documentId: string | null; day: string | null; raw: string };

/** A column's reader: the path resolved once into a getter, the type check chosen once. */
type Reader = { name: string; get: (doc: Record<string, unknown>) => unknown; read: (v: unknown) => CellValue };

const READ: Record<ColumnDef["type"], (v: unknown) => CellValue> = {
  int: (v) => (typeof v === "number" && Number.isFinite(v) ? v : null),
  float: (v) => (typeof v === "number" && Number.isFinite(v) ? v : null),
  text: (v) => (typeof v === "string" ? v : null),
  bool: (v) => (typeof v === "boolean" ? (v ? 1 : 0) : null),
};

type BuildRow = (data: Record<string, unknown>, userId: string, raw: string, syncedAt: string) => DocumentRow;

/** The two digits at `i` as a number, or -1 when they are not two digits. */
function twoDigits(s: string, i: number): number {
  const a = s.charCodeAt(i) - 48;
  const b = s.charCodeAt(i + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}

/**
 * "YYYY-MM-DDTHH:MM:SS±HH:MM" (how the service and the account export write every sample) →
 * epoch ms, read by character: the same value as the pattern below gives, without its match
 * array and eight texts per sample. Null for any other shape (the pattern then reads it).
 */
function instantOfPlain(iso: string): number | null {
  if (iso.length !== 25 || iso[4] !== "-" || iso[7] !== "-" || iso[10] !== "T" || iso[13] !== ":" || iso[16] !== ":" || iso[22] !== ":") return null;
  const sign = iso[19] === "+" ? 1 : iso[19] === "-" ? -1 : 0;
  const century = twoDigits(iso, 0);
  const year = twoDigits(iso, 2);
  const month = twoDigits(iso, 5);
  const day = twoDigits(iso, 8);
  const hour = twoDigits(iso, 11);
  const minute = twoDigits(iso, 14);
  const second = twoDigits(iso, 17);
  const offsetHours = twoDigits(iso, 20);
  const offsetMinutes = twoDigits(iso, 23);
  if (sign === 0 || century < 0 || year < 0 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0 || offsetHours < 0 || offsetMinutes < 0)
    return null;
  const t = Date.UTC(century * 100 + year, month - 1, day, hour, minute, second, 0) - sign * (offsetHours * 60 + offsetMinutes) * 60_000;
  return month >= 1 && month <= 12 && day >= 1 && day <= 31 ? t : Number.NaN;
}

/** An ISO date-time → epoch ms (the common "YYYY-MM-DDTHH:MM:SS[.fff](Z|±HH:MM)" without Date.parse); NaN if it is none. */
export function instantOf(iso: string): number {
  const plain = instantOfPlain(iso);
  if (plain !== null) return plain;
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:?\d{2})$/.exec(iso);
  if (!m) return Date.parse(iso);
  const ms = m[7] ? Math.round(Number(`0.${m[7]}`) * 1000) : 0;
  let t = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]), ms);
  const z = m[8]!;
  if (z !== "Z") {
    const sign = z[0] === "-" ? -1 : 1;
    const digits = z.slice(1).replace(":", "");
    t -= sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4))) * 60_000;
  }
  const month = Number(m[2]);
  const day = Number(m[3]);
  return month >= 1 && month <= 12 && day >= 1 && day <= 31 ? t : Number.NaN;
}

/** A getter for a column's source: a dotted path, or the seconds between two timestamps. */
function sourceGetter(from: ColumnSource): (doc: Record<string, unknown>) => unknown {
  if (typeof from === "string") return getter(from.split("."));
  const [a, b] = from.secondsBetween;
  return (d) => {
    const x = d[a];
    const y = d[b];
    if (typeof x !== "string" || typeof y !== "string") return undefined;
    const s = (instantOf(y) - instantOf(x)) / 1000;
    return Number.isFinite(s) ? Math.round(s) : undefined;
  };
}

const builders = new Map<RingCollection, BuildRow>();

/**
 * The collection's row builder: one object literal with every column in table order, so all
 * rows share one shape (V8 builds it at once instead of adding 30 properties one by one, the
 * backfill's hot path). Generated once from the registry's column names (constants, never
 * input); the values come from the readers.
 */
function builderOf(collection: RingCollection): BuildRow {
  let build = builders.get(collection);
  if (!build) {
    const r = getResource(collection);
    const readers: Reader[] = r.columns.map((c: ColumnDef) => ({ name: c.name, get: sourceGetter(c.from ?? c.name), read: READ[c.type] }));
    const fields = readers.map((_, i) => `${JSON.stringify(readers[i]!.name)}: R[${i}].read(R[${i}].get(d))`).join(", ");
    // the day is the document's `day` (or the field the registry names; none for an undated document)
    const day = r.dayField === null ? "null" : `d[${JSON.stringify(r.dayField)}]`;
    const make = new Function("R", `return (d, userId, raw, syncedAt) => ({ userId, documentId: d.id ?? null, day: ${day}, ${fields}, raw, syncedAt });`) as (
      r: Reader[],
    ) => BuildRow;
    build = make(readers);
    builders.set(collection, build);
  }
  return build;
}

function at(doc: Record<string, unknown>, path: string[]): unknown {
  let v: unknown = doc;
  for (const key of path) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}

/** A getter for a dotted path; the common depths (a field, a field of a field) without a loop. */
function getter(path: string[]): (doc: Record<string, unknown>) => unknown {
  const [a, b] = path;
  if (path.length === 1 && a !== undefined) return (d) => d[a];
  if (path.length === 2 && a !== undefined && b !== undefined)
    return (d) => {
      const o = d[a];
      return o !== null && typeof o === "object" ? (o as Record<string, unknown>)[b] : undefined;
    };
  return (d) => at(d, path);
}

/** A short, value-free description of why a document failed validation (paths and messages). */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 8)
    .map((i) => `${i.path.join(".") || "(document)"}: ${i.message}`)
    .join("; ")
    .slice(0, 500);
}

function peek(doc: unknown, key: string): string | null {
  if (doc && typeof doc === "object" && !Array.isArray(doc)) {
    const v = (doc as Record<string, unknown>)[key];
    if (typeof v === "string" && v.length > 0 && v.length <= 256) return v;
  }
  return null;
}

function isTrendsDocument(doc: unknown): boolean {
  const id = peek(doc, "id");
  return id !== null && id.startsWith(TRENDS_ID_PREFIX);
}

const trendsSchemas = new Map<RingCollection, z.ZodType>();

/**
 * The schema of a document made from a Trends CSV row (lib/import/trends.ts): the collection's
 * own, every field optional but the id and the day (a Trends row has scores and durations only).
 */
function trendsSchemaOf(collection: RingCollection): z.ZodType {
  let schema = trendsSchemas.get(collection);
  if (!schema) {
    const full = RING_DOCUMENT_SCHEMAS[collection] as unknown as z.ZodObject;
    schema = full.partial().required({ id: true, day: true } as never);
    trendsSchemas.set(collection, schema);
  }
  return schema;
}

/**
 * Validates one document of `collection` and maps it to a row, or says why it cannot be
 * stored. `rawText` is the document's JSON as received (else it is serialised). Never throws.
 */
export function mapDocument(collection: RingCollection, doc: unknown, userId: string, syncedAt: string, rawText?: string): MapResult {
  let raw: string;
  if (rawText !== undefined) raw = rawText;
  else {
    try {
      raw = JSON.stringify(doc) ?? "null";
    } catch {
      raw = "null";
    }
  }
  const schema = isTrendsDocument(doc) ? trendsSchemaOf(collection) : RING_DOCUMENT_SCHEMAS[collection];
  const parsed = schema.safeParse(doc);
  if (!parsed.success) {
    const dayField = getResource(collection).dayField;
    return { ok: false, error: describeIssues(parsed.error), documentId: peek(doc, "id"), day: dayField ? peek(doc, dayField) : null, raw };
  }
  const data = parsed.data as Record<string, unknown> & { id?: string | null };
  const row = builderOf(collection)(data, userId, raw, syncedAt);
  const unknown = blankUnknownValues(collection, row);
  return unknown ? { ok: true, row, unknown } : { ok: true, row };
}

/**
 * Nulls the columns of RING_ENUMS fields whose value is not a known one; returns what was
 * unknown (undefined when everything was known: the common case allocates nothing).
 */
function blankUnknownValues(collection: RingCollection, row: DocumentRow): UnknownValue[] | undefined {
  const lists = RING_ENUMS[collection];
  if (!lists) return undefined;
  let unknown: UnknownValue[] | undefined;
  for (const field in lists) {
    const value = row[field];
    if (typeof value !== "string" || lists[field]!.includes(value)) continue;
    row[field] = null;
    (unknown ??= []).push({ field, value });
  }
  return unknown;
}

/** The key a document is unique by (the registry's `key`): its id, or its day. */
export function documentKey(collection: RingCollection, row: { documentId: string | null; day: string | null }): string | null {
  return getResource(collection).key === "day" ? row.day : (row.documentId ?? row.day);
}

/**
 * Validates a personal_info snapshot and maps it to its row. `ringUserId` is the document's
 * `id`, else `knownRingUserId` (the account Ringside already knows); null when neither is there.
 */
export function mapPersonalInfo(doc: unknown, userId: string, knownRingUserId: string | null): SnapshotRow | null {
  const parsed = RING_DOCUMENT_SCHEMAS.personal_info.safeParse(doc);
  if (!parsed.success) return null;
  const ringUserId = parsed.data.id ?? knownRingUserId;
  if (!ringUserId) return null;
  const row = { userId, ringUserId } as SnapshotRow;
  const data = parsed.data as Record<string, unknown>;
  for (const c of getResource("personal_info").columns as readonly ColumnDef[]) row[c.name] = READ[c.type](sourceGetter(c.from ?? c.name)(data));
  row.raw = JSON.stringify(doc);
  return row;
}

// ---------------------------------------------------------------------------------------
// Time series: rows of a page → samples
// ---------------------------------------------------------------------------------------

export type MappedSamples = {
  samples: Sample[];
  /** rows that failed validation (at most MAX_REJECTED_ROWS kept per page; `count` has them all) */
  rejected: Array<{ day: string | null; raw: string; error: string }>;
  rejectedCount: number;
  unknown: UnknownValue[];
};

const MAX_REJECTED_ROWS = 20;

/**
 * Validates a page of time-series rows with the registry's row schema and turns each into a
 * sample: its instant and its fields (int: whole, within ±32,767; bool; text: at most 255 bytes).
 * A row that breaks any of that is rejected (a few kept for the Sync page); a closed-list value
 * Ringside does not know is kept as sent and reported in `unknown` (to be logged once).
 */
export function mapSamples(collection: SeriesCollection, rows: readonly unknown[]): MappedSamples {
  const map = sampleMapper(collection);
  const out = emptyMappedSamples();
  for (const row of rows) map(row, out);
  return out;
}

export const emptyMappedSamples = (): MappedSamples => ({ samples: [], rejected: [], rejectedCount: 0, unknown: [] });

/**
 * mapSamples one row at a time: the collection's schema, fields and closed lists looked up once,
 * each row validated and added to `out` as it comes (an import keeps only the small samples, not
 * the rows, until it writes them).
 */
export function sampleMapper(collection: SeriesCollection): (row: unknown, out: MappedSamples) => void {
  const schema = RING_DOCUMENT_SCHEMAS[collection];
  const spec = sampleSpecOf(collection);
  const fields = spec.fields;
  const known = fields.map((f) => (f.categories ? new Set(f.categories.map((c) => c.value)) : null));
  const reject = (out: MappedSamples, row: unknown, error: string) => {
    out.rejectedCount++;
    if (out.rejected.length >= MAX_REJECTED_ROWS) return;
    let raw = "null";
    try {
      raw = JSON.stringify(row) ?? "null";
    } catch {
      /* keep "null" */
    }
    const ts = peek(row, "timestamp");
    out.rejected.push({ day: ts && /^\d{4}-\d{2}-\d{2}/.test(ts) ? ts.slice(0, 10) : null, raw, error });
  };
  // most rows pass the quick acceptor read off the same schema and are used as they came (zod
  // would copy each); any other row is zod's to accept or explain (lib/ring/quick-check.ts)
  const quick = quickCheckOf(schema);
  return (row, out) => {
    let data: Record<string, unknown> & { timestamp: string };
    if (quick?.(row)) data = row as typeof data;
    else {
      const parsed = schema.safeParse(row);
      if (!parsed.success) return reject(out, row, describeIssues(parsed.error));
      data = parsed.data as typeof data;
    }
    const t = instantOf(data.timestamp);
    if (!Number.isFinite(t)) return reject(out, row, "timestamp: not a date-time");
    const v: SampleValue[] = [];
    let error: string | null = null;
    for (let i = 0; i < fields.length; i++) {
      const f = fields[i]!;
      const x = data[f.name];
      if (x === null || x === undefined) v.push(null);
      else if (f.type === "int") {
        if (typeof x === "number" && Number.isFinite(x) && Math.abs(x) <= INT_FIELD_MAX) v.push(Math.round(x));
        else error ??= `${f.name}: not a whole number within ±${INT_FIELD_MAX}`;
      } else if (f.type === "bool") {
        if (typeof x === "boolean") v.push(x);
        else error ??= `${f.name}: not a boolean`;
      } else if (typeof x === "string" && (x.length * 3 <= TEXT_FIELD_MAX_BYTES || Buffer.byteLength(x, "utf8") <= TEXT_FIELD_MAX_BYTES)) {
        v.push(x);
        const k = known[i];
        if (k && !k.has(x) && !out.unknown.some((u) => u.field === f.name && u.value === x)) out.unknown.push({ field: f.name, value: x });
      } else error ??= `${f.name}: not a text of at most ${TEXT_FIELD_MAX_BYTES} bytes`;
    }
    if (error) reject(out, row, error);
    else out.samples.push({ t, v });
  };
}
