import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { quickCheckOf } from "@/lib/ring/quick-check";
import { RING_DOCUMENT_SCHEMAS } from "@/lib/ring/schemas";
import { SERIES_COLLECTIONS } from "@/lib/resources";

// Values that sit on the edges of what the schemas' kinds accept.
const edgy = fc.oneof(
  fc.constantFrom(null, undefined, true, false, 0, -0, 1.5, 65, -32_768, Number.NaN, Infinity, -Infinity, "", "awake", "2026-03-01T08:00:00+00:00"),
  fc.string({ maxLength: 8 }),
  fc.string({ minLength: 195, maxLength: 205 }),
  fc.double(),
  fc.integer(),
  fc.array(fc.integer(), { maxLength: 2 }),
  fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 2 }),
);

/** A row with some of the schema's own keys (edgy values, or left out) and maybe a key of its own. */
function rowsFor(schema: z.ZodType) {
  const keys = Object.keys((schema as unknown as { _zod: { def: { shape: Record<string, unknown> } } })._zod.def.shape);
  return fc.oneof(
    fc.record(Object.fromEntries(keys.map((k) => [k, edgy])), { requiredKeys: [] }).chain((row) => fc.constantFrom(row, { ...row, extra: "kept" })),
    edgy,
  );
}

describe("quickCheckOf", () => {
  it("compiles for every time series' row schema", () => {
    for (const c of SERIES_COLLECTIONS) expect(quickCheckOf(RING_DOCUMENT_SCHEMAS[c]), c).toBeTypeOf("function");
  });

  it("says yes only to a row its schema accepts, and the schema gives back the same fields", () => {
    for (const c of SERIES_COLLECTIONS) {
      const schema = RING_DOCUMENT_SCHEMAS[c];
      const quick = quickCheckOf(schema)!;
      fc.assert(
        fc.property(rowsFor(schema), (row) => {
          if (!quick(row)) return;
          const parsed = schema.safeParse(row);
          expect(parsed.success).toBe(true);
          for (const [k, v] of Object.entries(row as object)) expect((parsed.data as Record<string, unknown>)[k]).toEqual(v);
        }),
        { numRuns: 2_000 },
      );
    }
  });

  it("says yes to the rows the service sends, and no to a row that breaks a field", () => {
    const quick = quickCheckOf(RING_DOCUMENT_SCHEMAS.heartrate)!;
    const row = { timestamp: "2026-03-01T08:00:00+00:00", bpm: 61, source: "awake" };
    expect(quick(row)).toBe(true);
    expect(quick({ ...row, timestamp_unix: 1772352000000, source: null, restorative: 1 })).toBe(true);
    expect(quick({ ...row, source: "live".padEnd(201, "!") })).toBe(false);
    expect(quick({ ...row, bpm: "61" })).toBe(false);
    expect(quick({ ...row, bpm: Number.NaN })).toBe(false);
    expect(quick({ bpm: 61, source: "awake" })).toBe(false);
    expect(quick([row])).toBe(false);
    expect(quick(null)).toBe(false);
    const battery = quickCheckOf(RING_DOCUMENT_SCHEMAS.ring_battery_level)!;
    expect(battery({ timestamp: "2026-03-01T08:00:00+00:00", level: 80, charging: true, in_charger: null })).toBe(true);
    expect(battery({ timestamp: "2026-03-01T08:00:00+00:00", level: 80, charging: "yes" })).toBe(false);
  });

  it("compiles to nothing for a schema with a kind or a check it does not know", () => {
    expect(quickCheckOf(z.looseObject({ day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/) }))).toBeNull();
    expect(quickCheckOf(z.looseObject({ n: z.number().int() }))).toBeNull();
    expect(quickCheckOf(z.looseObject({ s: z.string().min(1) }))).toBeNull();
    expect(quickCheckOf(z.looseObject({ a: z.array(z.number()) }))).toBeNull();
    expect(quickCheckOf(z.looseObject({ n: z.coerce.number() }))).toBeNull();
    expect(quickCheckOf(z.looseObject({ n: z.number() }).refine(() => false))).toBeNull();
    // unknown keys dropped (z.object) or refused (z.strictObject): the row would not come back as it was
    expect(quickCheckOf(z.object({ n: z.number() }))).toBeNull();
    expect(quickCheckOf(z.strictObject({ n: z.number() }))).toBeNull();
    expect(quickCheckOf(z.string())).toBeNull();
  });
});
