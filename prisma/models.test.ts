import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CATALOG_DATA_FILE, POSTGRES_SCHEMA_FILE, renderModels, renderPostgresSchema, rewriteSchema, SCHEMA_FILE } from "@/prisma/generate-models";
import { buildCollections, buildMetrics, renderCatalogData } from "@/lib/metrics/catalog-build";
import { COLLECTIONS, METRICS } from "@/lib/metrics/catalog";
import { modelName, RESOURCES } from "@/lib/resources";
import { applyPendingMigrations } from "@/lib/db/migrate.mjs";
import { describeSqlite, schemaDifferences, sqliteFromSchema } from "@/prisma/schema-shape";

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

  describe("the migrations make exactly this schema (no migration missing)", () => {
    // a database migrated from nothing as npm start migrates, against the schema built from nothing
    const migrated = path.join(fs.mkdtempSync(path.join(process.env.DATA_DIR!, "drift-")), "migrated.db");
    applyPendingMigrations(migrated, path.resolve("prisma/migrations"));

    it("same tables, columns, indexes and foreign keys", async () => {
      const shape = describeSqlite(migrated);
      expect(Object.values(shape).flatMap((t) => t.columns).length).toBeGreaterThan(100);
      expect(schemaDifferences(shape, describeSqlite(await sqliteFromSchema(schema, process.env.DATA_DIR)))).toEqual([]);
    });

    it("fails on a model changed without a migration (a scratch copy of the schema: a column added, a default changed, a unique key dropped)", async () => {
      const scratch = schema
        .replace(/^(model User \{\n)/m, "$1  driftProbe String?\n")
        .replace(/^( {2}units +String +@default\()"metric"\)/m, '$1"imperial")')
        .replace(/^( {2}tokenHash +String) +@unique/m, "$1");
      expect(scratch).not.toBe(schema);
      expect(schemaDifferences(describeSqlite(migrated), describeSqlite(await sqliteFromSchema(scratch, process.env.DATA_DIR)))).toEqual([
        "- Invite: Invite_tokenHash_key UNIQUE (tokenHash)",
        "+ User: driftProbe TEXT",
        "+ User: units TEXT NOT NULL DEFAULT 'imperial'",
        "- User: units TEXT NOT NULL DEFAULT 'metric'",
      ]);
    });
  });
});
