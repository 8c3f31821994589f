import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { RING_DOCUMENT_SCHEMAS } from "@/lib/ring/schemas";
import {
  RESOURCES,
  RING_COLLECTIONS,
  SERIES_COLLECTIONS,
  SYNC_COLLECTIONS,
  WEBHOOK_DATA_TYPES,
  collectionForWebhookDataType,
  isRingCollection,
  sampleSpecOf,
} from "@/lib/resources";
import type { ColumnDef, MetricSpec } from "@/lib/resources/define";
import { METRICS } from "@/lib/metrics/catalog";
import openapi from "@/lib/emulator/openapi-1.37.json";
import unpublished from "@/lib/emulator/openapi-unpublished.json";

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

  it("names an OpenAPI 1.37 model for each resource (or one of the emulator's for what the published document leaves out)", () => {
    const models = (openapi as { components: { schemas: Record<string, unknown> } }).components.schemas;
    const extra = (unpublished as { components: { schemas: Record<string, unknown> } }).components.schemas;
    for (const r of RESOURCES) expect(models[r.openapiModel] ?? extra[r.openapiModel], `${r.name}: ${r.openapiModel}`).toBeDefined();
    // only what the published document does not describe
    expect(Object.keys(extra).filter((m) => models[m] !== undefined)).toEqual([]);
    expect(RESOURCES.filter((r) => models[r.openapiModel] === undefined).map((r) => r.name)).toEqual(["daily_cycle_phases"]);
  });

  it("lists as documents exactly the daily, period and event resources; each fetched resource has a window rule", () => {
    expect(RING_COLLECTIONS).toEqual(RESOURCES.filter((r) => r.kind === "daily" || r.kind === "period" || r.kind === "event").map((r) => r.name));
    expect(SERIES_COLLECTIONS).toEqual(["heartrate", "ring_battery_level"]);
    expect(SYNC_COLLECTIONS).toEqual([...RESOURCES.filter((r) => r.kind !== "snapshot").map((r) => r.name)]);
    for (const r of RESOURCES) expect(r.window === null, r.name).toBe(r.kind === "snapshot");
    // time series are read by instants in the 30-day windows clients use (facts §2.4); only the ring has no date filter
    for (const r of RESOURCES) if (r.kind === "time_series") expect(r.window).toMatchObject({ param: "datetime", maxDays: 30 });
    expect(RESOURCES.filter((r) => r.window?.param === "none").map((r) => r.name)).toEqual(["ring_configuration"]);
  });

  it("maps every webhook data type of the emulator to its collection (vo2_max names vO2_max) and none to a time series", () => {
    expect(collectionForWebhookDataType("vo2_max")).toBe("vO2_max");
    expect(collectionForWebhookDataType("vO2_max")).toBeNull();
    for (const t of ["tag", "enhanced_tag", "workout", "session", "sleep_time", "rest_mode_period", "ring_configuration"])
      expect(collectionForWebhookDataType(t)).toBe(t);
    for (const r of RESOURCES) if (r.kind === "time_series") expect(r.webhookDataType).toBeNull();
  });

  it("gives each time series its sample fields, each int field small enough to pack", () => {
    expect(sampleSpecOf("heartrate")).toMatchObject({
      fields: [
        { name: "bpm", type: "int" },
        { name: "source", type: "text" },
      ],
      key: ["source"],
    });
    expect(sampleSpecOf("ring_battery_level").fields.map((f) => f.name)).toEqual(["level", "charging", "in_charger"]);
    for (const c of SERIES_COLLECTIONS) for (const k of sampleSpecOf(c).key) expect(sampleSpecOf(c).fields.some((f) => f.name === k)).toBe(true);
  });

  it("reads every stored column from a field its schema declares", () => {
    for (const r of RESOURCES) {
      const names = new Set<string>();
      for (const c of r.columns as readonly ColumnDef[]) {
        expect(names.has(c.name), `${r.name}.${c.name} twice`).toBe(false);
        names.add(c.name);
        const from = c.from ?? c.name;
        for (const source of typeof from === "string" ? [from] : from.secondsBetween) {
          const path = source.split(".");
          expect(schemaAt(RING_DOCUMENT_SCHEMAS[r.name], path), `${r.name}: ${c.name} ← ${path.join(".")}`).toBeDefined();
        }
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
