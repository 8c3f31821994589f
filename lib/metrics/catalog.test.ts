import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { COLLECTIONS, getMetric, METRICS, metricGroups } from "@/lib/metrics/catalog";
import { getResource, sampleSpecOf } from "@/lib/resources";

/** Columns (name → Prisma type) of each @@map-ed model in prisma/schema.prisma. */
function schemaColumns(): Map<string, Map<string, string>> {
  const text = fs.readFileSync(path.resolve("prisma/schema.prisma"), "utf8");
  const out = new Map<string, Map<string, string>>();
  for (const block of text.matchAll(/model \w+ \{([\s\S]*?)\n\}/g)) {
    const body = block[1] ?? "";
    const table = /@@map\("([^"]+)"\)/.exec(body)?.[1];
    if (!table) continue;
    const cols = new Map<string, string>();
    for (const line of body.split("\n")) {
      const m = /^\s+(\w+)\s+(\w+)/.exec(line);
      if (m && !line.trim().startsWith("//") && !line.trim().startsWith("@@")) cols.set(m[1]!, m[2]!);
    }
    out.set(table, cols);
  }
  return out;
}

describe("metric catalog", () => {
  it("has unique ids and every metric names a real column of its table with the right type", () => {
    const cols = schemaColumns();
    const ids = new Set<string>();
    for (const m of METRICS) {
      expect(ids.has(m.id), m.id).toBe(false);
      ids.add(m.id);
      if (m.source.type === "naps" || m.source.type === "signal") continue;
      if (m.source.type === "samples") {
        // a time series' metric reads a field of its samples
        const field = sampleSpecOf(m.source.collection).fields.find((f) => f.name === (m.source as { field: string }).field);
        expect(field?.type, m.id).toBe("int");
        continue;
      }
      const table = m.source.type === "daily" || m.source.type === "sum" ? COLLECTIONS[m.source.collection].table : "sleep_period";
      const type = cols.get(table)?.get(m.source.column);
      expect(type, `${m.id} → ${table}.${m.source.column}`).toBeDefined();
      if (m.kind === "category") expect(type).toBe("String");
      else expect(["Int", "Float", "Boolean"]).toContain(type);
    }
  });

  it("covers every numeric and category column of the daily tables", () => {
    const cols = schemaColumns();
    const skip = new Set(["id", "userId", "documentId", "day", "timestamp", "raw", "syncedAt", "class_5_min"]);
    // bedtime guidance is advice for an evening (shown on Day and Today), not a measurement to chart;
    // the cycle's phases are read by the cycle (opt-in, its own data kind), never charted as metrics
    const guidance = new Set(["sleep_time", "daily_cycle_phases"]);
    for (const c of Object.values(COLLECTIONS)) {
      if (getResource(c.id).kind !== "daily" || guidance.has(c.id)) continue;
      for (const [col, type] of cols.get(c.table) ?? []) {
        if (skip.has(col) || !["Int", "Float", "String"].includes(type)) continue;
        const found = METRICS.some((m) => m.source.type === "daily" && m.source.collection === c.id && m.source.column === col);
        expect(found, `${c.table}.${col}`).toBe(true);
      }
    }
  });

  it("describes direction, kind and unit", () => {
    expect(getMetric("sleep.score")).toMatchObject({ kind: "score", direction: "higher", unit: "score" });
    expect(getMetric("night.lowest_heart_rate")).toMatchObject({ direction: "lower", unit: "bpm" });
    expect(getMetric("readiness.temperature_deviation")).toMatchObject({ kind: "temperature_deviation", direction: "neutral" });
    expect(getMetric("resilience.level")?.categories?.map((c) => c.value)).toEqual(["limited", "adequate", "solid", "strong", "exceptional"]);
    expect(getMetric("stress.day_summary")?.kind).toBe("category");
    expect(metricGroups().map((g) => g.group)).toContain("Readiness contributors");
    expect(getMetric("vo2max.vo2_max")).toMatchObject({
      unit: "ml/kg/min",
      direction: "higher",
      collection: "vO2_max",
      source: { type: "daily", column: "vo2_max" },
    });
    expect(getMetric("workout.minutes")).toMatchObject({
      kind: "duration",
      source: { type: "sum", collection: "workout", column: "duration", zeroOn: "daily_activity" },
    });
    expect(getMetric("workout.calories").source).toMatchObject({ type: "sum", column: "calories" });
    expect(getMetric("session.minutes").source).toMatchObject({ type: "sum", collection: "session", column: "duration" });
    expect(getMetric("heartrate.daytime_mean").source).toEqual({
      type: "samples",
      collection: "heartrate",
      aggregate: "mean",
      field: "bpm",
      only: { field: "source", values: ["awake"] },
    });
    expect(getMetric("heartrate.daytime_min").source).toMatchObject({ aggregate: "min" });
  });
});
