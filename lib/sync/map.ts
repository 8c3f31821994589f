import "server-only";
import type { z } from "zod";
import { RING_DOCUMENT_SCHEMAS, RING_ENUMS } from "@/lib/ring/schemas";
import { getResource, type RingCollection } from "@/lib/resources";
import type { ColumnDef } from "@/lib/resources/define";
import type { CellValue, DocumentRow, SnapshotRow } from "@/lib/db/queries/ring-documents";

// Pure: one document from the ring service → one database row (typed columns + raw JSON).
// The columns and where each is read from are the registry's (lib/resources). A value of one
// of the spec's closed lists that Ringside does not know (RING_ENUMS) keeps the document: its
// column is stored as null (unknown; charts show a gap) and the value is reported in `unknown`
// for the caller to log once (lib/sync/unknown-values.ts).

/** A closed-list value Ringside does not know yet: stored as unknown (null column). */
export type UnknownValue = { field: string; value: string };

export type MapResult =
  | { ok: true; row: DocumentRow; unknown?: UnknownValue[] }
  | { ok: false; error: string; documentId: string | null; day: string | null; raw: string };

/** A column's reader: the path resolved once into a getter, the type check chosen once. */
type Reader = { name: string; get: (doc: Record<string, unknown>) => unknown; read: (v: unknown) => CellValue };

const READ: Record<ColumnDef["type"], (v: unknown) => CellValue> = {
  int: (v) => (typeof v === "number" && Number.isFinite(v) ? v : null),
  float: (v) => (typeof v === "number" && Number.isFinite(v) ? v : null),
  text: (v) => (typeof v === "string" ? v : null),
  bool: (v) => (typeof v === "boolean" ? (v ? 1 : 0) : null),
};

type BuildRow = (data: Record<string, unknown>, userId: string, raw: string, syncedAt: string) => DocumentRow;

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
    const readers: Reader[] = getResource(collection).columns.map((c: ColumnDef) => ({ name: c.name, get: getter((c.from ?? c.name).split(".")), read: READ[c.type] }));
    const fields = readers.map((r, i) => `${JSON.stringify(r.name)}: R[${i}].read(R[${i}].get(d))`).join(", ");
    const make = new Function("R", `return (d, userId, raw, syncedAt) => ({ userId, documentId: d.id ?? null, day: d.day, ${fields}, raw, syncedAt });`) as (r: Reader[]) => BuildRow;
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

function peek(doc: unknown, key: "id" | "day"): string | null {
  if (doc && typeof doc === "object" && !Array.isArray(doc)) {
    const v = (doc as Record<string, unknown>)[key];
    if (typeof v === "string" && v.length > 0 && v.length <= 256) return v;
  }
  return null;
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
  const schema = RING_DOCUMENT_SCHEMAS[collection];
  const parsed = schema.safeParse(doc);
  if (!parsed.success) {
    return { ok: false, error: describeIssues(parsed.error), documentId: peek(doc, "id"), day: peek(doc, "day"), raw };
  }
  const data = parsed.data as Record<string, unknown> & { id?: string | null; day: string };
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
export function documentKey(collection: RingCollection, row: { documentId: string | null; day: string }): string;
export function documentKey(collection: RingCollection, row: { documentId: string | null; day: string | null }): string | null;
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
  for (const c of getResource("personal_info").columns as readonly ColumnDef[]) row[c.name] = READ[c.type](at(data, (c.from ?? c.name).split(".")));
  row.raw = JSON.stringify(doc);
  return row;
}
