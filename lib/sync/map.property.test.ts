// Property-based tests of the mapper's tolerance (fast-check) over mutated copies of the
// emulator's generated documents (lib/emulator/generator and, derived from them, the other
// resources of lib/emulator/resources): a value never seen in one of the
// spec's closed lists keeps the document with that field stored as unknown; nulls, missing
// optional keys and extra keys are accepted; and nothing at all makes mapDocument throw.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { UserDocuments } from "@/lib/emulator/user-data";
import { RING_DOCUMENT_SCHEMAS, RING_ENUMS } from "@/lib/ring/schemas";
import { RING_COLLECTIONS, type RingCollection } from "@/lib/resources";
import { mapDocument } from "@/lib/sync/map";

type Doc = Record<string, unknown> & { day: string };

// A year of six people: enough rest-mode periods and rings (a person has one or two) for every pool.
const POOL: Record<RingCollection, Doc[]> = (() => {
  const out = {} as Record<RingCollection, Doc[]>;
  for (const c of RING_COLLECTIONS) out[c] = [];
  for (const userKey of ["prop-a", "prop-b", "prop-c", "prop-d", "prop-e", "prop-f"]) {
    const docs = new UserDocuments({ seed: "property-seed", userKey }, "2025-03-01", () => "2026-02-28");
    for (const c of RING_COLLECTIONS) out[c].push(...(docs.list(c) as Doc[]));
  }
  return out;
})();

const ENUM_FIELDS = Object.entries(RING_ENUMS).flatMap(([collection, fields]) =>
  Object.entries(fields as Record<string, readonly string[]>).map(([field, known]) => ({ collection: collection as RingCollection, field, known })),
);

/** Top-level keys the collection's schema lets be absent (and null). */
function optionalKeys(collection: RingCollection): string[] {
  const shape = (RING_DOCUMENT_SCHEMAS[collection] as unknown as { shape: Record<string, { safeParse(v: unknown): { success: boolean } }> }).shape;
  return Object.keys(shape).filter((k) => shape[k]!.safeParse(undefined).success && shape[k]!.safeParse(null).success);
}

function mapped(collection: RingCollection, doc: unknown) {
  const r = mapDocument(collection, doc, "u", "2026-01-01 00:00:00");
  if (!r.ok) throw new Error(`${collection} rejected: ${r.error}`);
  return r;
}

/** The typed columns of a row (what a chart reads), without raw and bookkeeping. */
function columns(row: Record<string, unknown>): Record<string, unknown> {
  const { raw: _raw, syncedAt: _s, userId: _u, ...rest } = row;
  return rest;
}

const collectionDoc = (collection: RingCollection) => fc.constantFrom(...POOL[collection]);
const unknownWord = (known: readonly string[]) => fc.string({ minLength: 0, maxLength: 40 }).filter((v) => !known.includes(v));

describe("mapDocument over mutated emulator documents (fast-check)", () => {
  it("the pool covers every collection with generated documents", () => {
    for (const c of RING_COLLECTIONS) expect(POOL[c].length, c).toBeGreaterThan(5);
    for (const c of RING_COLLECTIONS) for (const d of POOL[c]) expect(mapDocument(c, d, "u", "t").ok, c).toBe(true);
  });

  it("a value never seen in a closed list keeps the document: that column is unknown (null), the raw JSON keeps the value, every other column is unchanged", () => {
    for (const { collection, field, known } of ENUM_FIELDS) {
      fc.assert(
        fc.property(collectionDoc(collection), unknownWord(known), (doc, value) => {
          const base = mapped(collection, doc);
          const r = mapped(collection, { ...doc, [field]: value });
          expect(r.row[field]).toBeNull();
          expect(r.unknown).toEqual([{ field, value }]);
          expect(JSON.parse(r.row.raw)[field]).toBe(value);
          expect(columns(r.row)).toEqual({ ...columns(base.row), [field]: null });
        }),
        { numRuns: 60 },
      );
    }
  });

  it("a known value, null or a missing key is stored as it is and reported as nothing new", () => {
    for (const { collection, field, known } of ENUM_FIELDS) {
      fc.assert(
        fc.property(collectionDoc(collection), fc.oneof(fc.constantFrom(...known), fc.constant(null), fc.constant(undefined)), (doc, value) => {
          const copy: Record<string, unknown> = { ...doc, [field]: value };
          if (value === undefined) delete copy[field];
          const r = mapped(collection, copy);
          expect(r.row[field]).toBe(value ?? null);
          expect(r.unknown).toBeUndefined();
        }),
        { numRuns: 40 },
      );
    }
  });

  it("nulls and missing optional keys, and extra keys of any JSON, are accepted; the untouched columns keep their values", () => {
    for (const collection of RING_COLLECTIONS) {
      const optional = optionalKeys(collection);
      fc.assert(
        fc.property(
          collectionDoc(collection),
          fc.subarray(optional),
          fc.boolean(),
          fc.dictionary(
            fc.string({ minLength: 1, maxLength: 12 }).map((k) => `x_${k}`),
            fc.jsonValue({ maxDepth: 2 }),
            { maxKeys: 4 },
          ),
          (doc, touched, asNull, extra) => {
            const copy: Record<string, unknown> = { ...doc, ...extra };
            for (const k of touched) {
              if (asNull) copy[k] = null;
              else delete copy[k];
            }
            const base = mapped(collection, doc);
            const r = mapped(collection, copy);
            // Removing or nulling can only make columns unknown, never invent or change a value;
            // extra keys change nothing.
            for (const [col, v] of Object.entries(columns(base.row))) {
              if (touched.includes(col)) expect(r.row[col], `${collection}.${col}`).toBeNull();
              else if (touched.length === 0) expect(r.row[col], `${collection}.${col}`).toEqual(v);
              else expect([v, null], `${collection}.${col}`).toContainEqual(r.row[col]);
            }
            if (touched.includes("id")) expect(r.row.documentId).toBeNull();
          },
        ),
        { numRuns: 40 },
      );
    }
  });

  it("whatever replaces a field (or the whole document), mapDocument answers and never throws; a rejection names paths, not values", () => {
    for (const collection of RING_COLLECTIONS) {
      const keys = Object.keys(POOL[collection][0]!);
      fc.assert(
        fc.property(collectionDoc(collection), fc.constantFrom(...keys), fc.jsonValue({ maxDepth: 2 }), (doc, key, value) => {
          const r = mapDocument(collection, { ...doc, [key]: value }, "u", "t");
          if (!r.ok) {
            expect(r.error.length).toBeLessThanOrEqual(500);
            expect(r.error).toContain(key);
          }
        }),
        { numRuns: 60 },
      );
      fc.assert(
        fc.property(fc.anything(), (anything) => {
          const r = mapDocument(collection, anything, "u", "t");
          expect(typeof r.ok).toBe("boolean");
        }),
        { numRuns: 40 },
      );
    }
  });
});
