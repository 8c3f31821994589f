// The streaming export reader: for any split of the bytes it hands over exactly the pieces a
// whole-file JSON.parse would give, and refuses what breaks a limit or is not JSON.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ExportScanError, ExportScanner, type ExportScanEvent, type ExportScanLimits } from "@/lib/sync/export-scanner";

const LIMITS: ExportScanLimits = {
  maxItemBytes: 4096,
  maxFieldBytes: 1024,
  maxStringBytes: 512,
  maxKeyBytes: 32,
  maxDepth: 12,
  maxCollections: 4,
  maxItemsPerCollection: 20,
  maxDocuments: 50,
  maxNotes: 10,
  maxTags: 10,
};

function scan(text: string, cuts: number[] = [], limits = LIMITS): ExportScanEvent[] {
  const bytes = Buffer.from(text);
  const s = new ExportScanner(limits);
  const out: ExportScanEvent[] = [];
  let at = 0;
  for (const cut of [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b)) {
    out.push(...s.write(bytes.subarray(at, cut)));
    at = cut;
  }
  out.push(...s.write(bytes.subarray(at)));
  out.push(...s.end());
  return out;
}

function expected(file: Record<string, unknown>): ExportScanEvent[] {
  const out: ExportScanEvent[] = [];
  for (const [key, value] of Object.entries(file)) {
    if (key === "notes") for (const v of value as unknown[]) out.push({ kind: "note", value: v });
    else if (key === "tags") for (const v of value as unknown[]) out.push({ kind: "tag", value: v });
    else if (key === "collections") {
      for (const [collection, docs] of Object.entries(value as Record<string, unknown[]>))
        for (const d of docs) out.push({ kind: "document", collection, value: d });
    } else out.push({ kind: "field", key, value });
  }
  return out;
}

const reason = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    if (e instanceof ExportScanError) return e.reason;
    throw e;
  }
  return null;
};

describe("ExportScanner", () => {
  // Within the limits above however the file is indented: measured in bytes, indented as deep
  // as a collection's item sits (a compact length bound let an indented personal_info pass
  // 1024 bytes for one CI run's seed).
  const value = fc.jsonValue({ maxDepth: 4 }).filter((v) => Buffer.byteLength(JSON.stringify({ k: { k: [v] } }, null, 2)) < 1000);
  const file = fc.record({
    format: fc.constant("ringside-export-v1"),
    personal_info: fc.option(value, { nil: undefined }),
    notes: fc.array(value, { maxLength: 5 }),
    tags: fc.array(value, { maxLength: 5 }),
    collections: fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.array(value, { maxLength: 6 }), { maxKeys: 4 }),
  });

  it("gives the pieces JSON.parse would, however the bytes are split (property)", () => {
    fc.assert(
      fc.property(file, fc.array(fc.nat(), { maxLength: 12 }), fc.constantFrom(0, 2), (f, cuts, indent) => {
        const clean = JSON.parse(JSON.stringify(f)) as Record<string, unknown>;
        expect(scan(JSON.stringify(clean, null, indent), cuts)).toEqual(expected(clean));
      }),
      { numRuns: 300 },
    );
  });

  it("splits inside escapes and multi-byte characters", () => {
    const f = { format: "ringside-export-v1", notes: [{ text: 'é "q" \\ \u2028 🙂' }], collections: { 'k"ey': [{ a: '\\"' }] } };
    const text = JSON.stringify(f);
    for (let cut = 0; cut <= Buffer.byteLength(text); cut++) expect(scan(text, [cut])).toEqual(expected(f));
  });

  it("refuses over every limit with too_large", () => {
    const base = (extra: string) => `{"format":"x","collections":${extra}}`;
    expect(reason(() => scan(base(`{"c":[${Array(21).fill("{}").join(",")}]}`)))).toBe("too_large");
    expect(reason(() => scan(base(`{"a":[],"b":[],"c":[],"d":[],"e":[]}`)))).toBe("too_large");
    expect(reason(() => scan(base(`{"c":[${JSON.stringify({ s: "x".repeat(513) })}]}`)))).toBe("too_large");
    expect(reason(() => scan(base(`{"c":[${JSON.stringify(Array(300).fill(1234567890123))}]}`)))).toBe("too_large");
    expect(reason(() => scan(base(`{"${"k".repeat(33)}":[]}`)))).toBe("too_large");
    expect(reason(() => scan(base(`{"c":[${"[".repeat(20)}${"]".repeat(20)}]}`)))).toBe("too_large");
    expect(reason(() => scan(`{"format":"x","notes":[${Array(11).fill("1").join(",")}],"collections":{}}`))).toBe("too_large");
    expect(reason(() => scan(`{"format":"x","personal_info":"${"x".repeat(400)}","y":${JSON.stringify(Array(600).fill(1))},"collections":{}}`))).toBe(
      "too_large",
    );
  });

  it("refuses what is not an export with shape, and what is not JSON with syntax", () => {
    expect(reason(() => scan("[1,2]"))).toBe("shape");
    expect(reason(() => scan('"x"'))).toBe("shape");
    expect(reason(() => scan('{"collections":[]}'))).toBe("shape");
    expect(reason(() => scan('{"collections":{"c":{}}}'))).toBe("shape");
    expect(reason(() => scan('{"notes":{}}'))).toBe("shape");
    for (const bad of [
      "",
      "{",
      '{"a" 1}',
      '{"a":1,}',
      '{"a":1}}',
      '{"a":1} x',
      '{"a":[1,]}',
      '{"a":tru}',
      '{"a":"\u0001"}',
      '{"collections":{"c":[{"x":1,}]}}',
      '{"a":1 "b":2}',
    ]) {
      expect({ bad, reason: reason(() => scan(bad)) }).toEqual({ bad, reason: "syntax" });
    }
  });
});

describe("collections with their own bounds (the time series)", () => {
  const withSeries: ExportScanLimits = { ...LIMITS, collectionLimits: { heartrate: { maxItems: 60, maxItemBytes: 96 } } };
  const sample = { bpm: 60, source: "awake", timestamp: "2026-03-14T00:00:14+00:00" };

  it("counts a time series apart: more items than a collection may hold, none against the documents' total", () => {
    const file = {
      format: "ringside-export-v1",
      collections: { heartrate: Array.from({ length: 60 }, () => sample), daily_sleep: Array.from({ length: 20 }, (_, i) => ({ id: String(i) })) },
    };
    expect(scan(JSON.stringify(file), [], withSeries).filter((e) => e.kind === "document")).toHaveLength(80);
  });

  it("refuses the item after its own maximum, and a sample larger than its own item bound", () => {
    const many = { format: "ringside-export-v1", collections: { heartrate: Array.from({ length: 61 }, () => sample) } };
    expect(() => scan(JSON.stringify(many), [], withSeries)).toThrow(/`heartrate` has more than 60 samples/);
    const big = { format: "ringside-export-v1", collections: { heartrate: [{ ...sample, note: "x".repeat(80) }] } };
    expect(() => scan(JSON.stringify(big), [], withSeries)).toThrow(/larger than 96 bytes/);
    // a key that is not a series keeps the documents' bounds ("constructor" is no own bound either)
    const plain = { format: "ringside-export-v1", collections: { constructor: Array.from({ length: 21 }, () => ({})) } };
    expect(() => scan(JSON.stringify(plain), [], withSeries)).toThrow(/more than 20 documents/);
  });
});
