import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { RING_DOCUMENT_SCHEMAS } from "@/lib/ring/schemas";
import { RESOURCES, RING_COLLECTIONS, WEBHOOK_DATA_TYPES, collectionForWebhookDataType, isRingCollection } from "@/lib/resources";
import type { ColumnDef, MetricSpec } from "@/lib/resources/define";
import { METRICS } from "@/lib/metrics/catalog";
import openapi from "@/lib/emulator/openapi-1.37.json";

/** The zod schema at a dotted path of an object schema (through nullish wrappers), if any. */
function schemaAt(schema: z.ZodType, path: string[]): z.ZodType | undefined {
  let s: z.ZodType | undefined = schema;
  for (const key of path) {
    while (s && "unwrap" in s && typeof (s as { unwrap?: unknown }).unwrap === "function") s = (s as unknown as { unwrap(): z.ZodType }).unwrap();
    const shape: Record<string, z.ZodType> | undefined = (s as unknown as { shape?: Record<string, z.ZodType> } | undefined)?.shape;
    s = shape?.[key];
  }
  return s;
}

describe("resource registry", () => {
  it("names each resource, table and webhook data type once", () => {
    const names = RESOURCES.map((r) => r.name);
    const tables = RESOURCES.map((r) => r.table);
    expect(new Set(names).size).toBe(names.length);
    expect(new Set(tables).size).toBe(tables.length);
    expect(new Set(WEBHOOK_DATA_TYPES).size).toBe(WEBHOOK_DATA_TYPES.length);
    for (const t of WEBHOOK_DATA_TYPES) expect(isRingCollection(collectionForWebhookDataType(t) ?? "")).toBe(true);
  });

  it("names an OpenAPI 1.37 model for each resource", () => {
    const models = (openapi as { components: { schemas: Record<string, unknown> } }).components.schemas;
    for (const r of RESOURCES) expect(models[r.openapiModel], `${r.name}: ${r.openapiModel}`).toBeDefined();
  });

  it("lists by date window exactly the daily and period resources, each with a window rule", () => {
    expect(RING_COLLECTIONS).toEqual(RESOURCES.filter((r) => r.kind === "daily" || r.kind === "period").map((r) => r.name));
    for (const r of RESOURCES) expect(r.window === null, r.name).toBe(r.kind === "snapshot");
  });

  it("reads every stored column from a field its schema declares", () => {
    for (const r of RESOURCES) {
      const names = new Set<string>();
      for (const c of r.columns as readonly ColumnDef[]) {
        expect(names.has(c.name), `${r.name}.${c.name} twice`).toBe(false);
        names.add(c.name);
        const path = (c.from ?? c.name).split(".");
        expect(schemaAt(RING_DOCUMENT_SCHEMAS[r.name], path), `${r.name}: ${c.name} ← ${path.join(".")}`).toBeDefined();
      }
    }
  });

  it("charts only columns its resource stores, categories only from closed lists", () => {
    for (const r of RESOURCES) {
      const columns = new Map((r.columns as readonly ColumnDef[]).map((c) => [c.name, c]));
      for (const [id, spec] of Object.entries(r.metrics as Record<string, MetricSpec>)) {
        const column = "column" in spec.from ? spec.from.column : "night" in spec.from ? spec.from.night : null;
        if (column !== null) expect(columns.has(column), `${id} → ${r.name}.${column}`).toBe(true);
        if (spec.kind === "category") expect(column !== null && (columns.get(column)?.categories?.length ?? 0) > 0, id).toBe(true);
      }
    }
    const ids = METRICS.map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
