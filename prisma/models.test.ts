import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CATALOG_DATA_FILE, POSTGRES_SCHEMA_FILE, renderModels, renderPostgresSchema, rewriteSchema, SCHEMA_FILE } from "@/prisma/generate-models";
import { buildCollections, buildMetrics, renderCatalogData } from "@/lib/metrics/catalog-build";
import { COLLECTIONS, METRICS } from "@/lib/metrics/catalog";
import { modelName, RESOURCES } from "@/lib/resources";

// The ring-data models of prisma/schema.prisma are generated from the resource registry
// (lib/resources); these hold the checked-in files to it.
describe("generated Prisma models", () => {
  const schema = fs.readFileSync(SCHEMA_FILE, "utf8");

  it("the checked-in schema is exactly what the registry generates (run `npm run db:models`)", () => {
    expect(rewriteSchema(schema)).toBe(schema);
  });

  it("the PostgreSQL schema is exactly the rendering of the SQLite one (run `npm run db:models`)", () => {
    const pg = fs.readFileSync(POSTGRES_SCHEMA_FILE, "utf8");
    expect(pg).toBe(renderPostgresSchema(schema));
    expect(pg).toContain('provider = "postgresql"');
    expect(pg.replace(/^\/\/ .*\n/gm, "")).toBe(
      schema
        .replace(/^\/\/ .*\n/gm, "")
        .replace('provider = "sqlite"', 'provider = "postgresql"')
        .replace("../lib/generated/prisma", "../../lib/generated/prisma-postgresql"),
    );
  });

  it("the metric catalog's data is exactly what the registry generates (run `npm run db:models`)", () => {
    expect(fs.readFileSync(CATALOG_DATA_FILE, "utf8")).toBe(renderCatalogData());
    // and the catalog the pages read is the registry's, metric for metric
    expect(METRICS).toEqual(buildMetrics());
    expect(Object.values(COLLECTIONS)).toEqual(buildCollections());
  });

  it("has one model per resource, mapped to its table", () => {
    const block = renderModels();
    for (const r of RESOURCES) {
      expect(block).toContain(`model ${modelName(r)} {`);
      expect(block).toContain(`@@map("${r.table}")`);
    }
  });

  it("the migrations produce exactly this schema (no migration missing)", () => {
    const out = execFileSync(
      path.resolve("node_modules/.bin/prisma"),
      ["migrate", "diff", "--from-migrations", "prisma/migrations", "--to-schema", "prisma/schema.prisma", "--exit-code"],
      { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: "1" }, timeout: 60_000 },
    );
    expect(out).toContain("No difference detected");
  });
});
