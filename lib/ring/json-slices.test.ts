import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sliceDataArray } from "@/lib/ring/json-slices";

describe("sliceDataArray", () => {
  it("returns each element's exact text, compact or indented, whatever the key order", () => {
    fc.assert(
      fc.property(
        fc.array(fc.jsonValue(), { maxLength: 8 }),
        fc.option(fc.string(), { nil: null }),
        fc.boolean(),
        fc.boolean(),
        (data, next, indent, tokenFirst) => {
          const body = tokenFirst ? { next_token: next, data } : { data, next_token: next };
          const text = JSON.stringify(body, null, indent ? 2 : undefined);
          const slices = sliceDataArray(text);
          expect(slices).not.toBeNull();
          expect(slices!.map((s) => JSON.parse(s))).toEqual(JSON.parse(JSON.stringify(data)));
        },
      ),
    );
  });

  it("handles escapes, nested brackets inside strings and unicode", () => {
    const docs = [{ id: 'a"]}', s: "\\\\", t: 'x\\"y' }, { n: [1, [2, { "]": "[" }]] }, "ünï", null, 1.5e3];
    const text = JSON.stringify({ meta: { data: "not this" }, data: docs, next_token: null });
    expect(sliceDataArray(text)!.map((s) => JSON.parse(s))).toEqual(docs);
  });

  it("says null when there is no data array", () => {
    expect(sliceDataArray(JSON.stringify({ next_token: null }))).toBeNull();
    expect(sliceDataArray(JSON.stringify([1, 2]))).toBeNull();
    expect(sliceDataArray(JSON.stringify({ data: { a: 1 } }))).toBeNull();
    expect(sliceDataArray("")).toBeNull();
  });
});
