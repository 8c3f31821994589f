import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { loggableValue, noteUnknownValues, resetUnknownValues } from "@/lib/sync/unknown-values";

let lines: string[] = [];
beforeEach(() => {
  resetUnknownValues();
  lines = [];
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
});
afterEach(() => vi.restoreAllMocks());

const logged = () => lines.filter((l) => l.includes("does not know yet")).map((l) => JSON.parse(l) as Record<string, unknown>);

describe("noteUnknownValues", () => {
  it("logs each new (collection, field, value) once per process, with the value and nothing else of the document", () => {
    expect(noteUnknownValues("daily_resilience", [{ field: "level", value: "legendary" }])).toBe(1);
    expect(noteUnknownValues("daily_resilience", [{ field: "level", value: "legendary" }])).toBe(0);
    expect(noteUnknownValues("daily_stress", [{ field: "day_summary", value: "legendary" }])).toBe(1);
    expect(noteUnknownValues("daily_resilience", [{ field: "level", value: "mythic" }])).toBe(1);
    expect(noteUnknownValues("daily_resilience", undefined)).toBe(0);
    const entries = logged();
    expect(entries.map((e) => [e.collection, e.field, e.value])).toEqual([
      ["daily_resilience", "level", "legendary"],
      ["daily_stress", "day_summary", "legendary"],
      ["daily_resilience", "level", "mythic"],
    ]);
    expect(entries.every((e) => Object.keys(e).sort().join(",") === "collection,field,level,msg,time,value")).toBe(true);
  });

  it("never logs a value that is not a short word (it could be anything from a document)", () => {
    expect(loggableValue("long_sleep_v2")).toBe("long_sleep_v2");
    expect(loggableValue("72 bpm, weight 90.2 kg")).toBe("(not a short word)");
    expect(loggableValue("x".repeat(65))).toBe("(not a short word)");
    noteUnknownValues("sleep", [{ field: "type", value: "resting heart rate 52" }]);
    // everything the line says but its own timestamp (whose digits may well include "52")
    const said = logged().map(({ time: _time, ...rest }) => JSON.stringify(rest));
    expect(said).toHaveLength(1);
    expect(said.join("")).not.toContain("52");
    expect(logged()[0]?.value).toBe("(not a short word)");
  });
});
