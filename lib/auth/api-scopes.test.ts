import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CYCLE_DATA_KIND, DATA_KIND_LABELS, DATA_KINDS, isDataKind, kindOfCollection, kindOfMetric, NOTES_KIND, parseStoredKinds } from "@/lib/auth/api-scopes";
import { METRICS } from "@/lib/metrics/catalog";
import { RESOURCES } from "@/lib/resources";

describe("data kinds of personal access tokens", () => {
  it("are the registry's resources plus notes and the cycle, each with a label; the ring's cycle phases belong to the cycle", () => {
    expect(DATA_KINDS).toEqual([...RESOURCES.map((r) => r.name).filter((n) => n !== "daily_cycle_phases"), NOTES_KIND, CYCLE_DATA_KIND]);
    for (const k of DATA_KINDS) expect(DATA_KIND_LABELS[k].length).toBeGreaterThan(3);
    expect(kindOfCollection("daily_cycle_phases")).toBe(CYCLE_DATA_KIND);
    expect(kindOfCollection("daily_sleep")).toBe("daily_sleep");
  });

  it("every metric belongs to a kind", () => {
    for (const m of METRICS) expect(isDataKind(kindOfMetric(m))).toBe(true);
  });

  it("a stored list keeps known kinds only, in order, once each", () => {
    expect(parseStoredKinds('["notes","daily_sleep","nope","daily_sleep"]')).toEqual(["daily_sleep", "notes"]);
    expect(parseStoredKinds("not json")).toEqual([]);
    // a token stored before the cycle kind existed keeps exactly its kinds: it never gains "cycle"
    expect(parseStoredKinds('["daily_sleep","notes"]')).not.toContain(CYCLE_DATA_KIND);
    expect(parseStoredKinds('["cycle"]')).toEqual([CYCLE_DATA_KIND]);
    expect(parseStoredKinds('{"daily_sleep":true}')).toEqual([]);
    // a token given the ring's cycle phases as a kind of their own keeps nothing of the cycle: that needs "cycle"
    expect(parseStoredKinds('["daily_sleep","daily_cycle_phases"]')).toEqual(["daily_sleep"]);
  });
});

describe("the stdio MCP process opens no database", () => {
  it("lib/mcp imports nothing server-side (no database, services, server-only)", () => {
    const dir = path.resolve("lib/mcp");
    for (const f of fs.readdirSync(dir).filter((n) => n.endsWith(".ts") && !n.endsWith(".test.ts"))) {
      const src = fs.readFileSync(path.join(dir, f), "utf8");
      const imports = [...src.matchAll(/from\s+"([^"]+)"|import\s+"([^"]+)"/g)].map((m) => m[1] ?? m[2]);
      const serverSide = imports.filter(
        (i) => i === "server-only" || /^@\/lib\/(db|services|sync|auth\/(?!api-scopes)|ring|api\/(?!schemas|contract))/.test(i!),
      );
      expect({ file: f, serverSide }).toEqual({ file: f, serverSide: [] });
    }
  });
});
