// Writes the ring-data models of prisma/schema.prisma from the resource registry
// (lib/resources): one model per resource, between the "generated" markers. Run it after
// changing the registry, then create the migration:
//
//   npm run db:models          # rewrites the block (and lib/metrics/catalog-data.ts, the metric
//                              # catalog's data, from the same registry: catalog-build.ts)
//   npm run db:models -- --check   # exits 1 when the checked-in schema differs (CI, prisma/models.test.ts)
//
// One source for every provider: prisma/postgresql/schema.prisma is a rendering of this schema
// for PostgreSQL, written by the same command together with the PostgreSQL migration that
// takes the previous rendering to the new one (`prisma migrate diff`, offline), so the two
// providers' schemas and migration histories cannot drift (checked by prisma/models.test.ts,
// and against a real server by lib/db/postgres-schema.test.ts).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { modelName, RESOURCES } from "@/lib/resources";
import { renderCatalogData } from "@/lib/metrics/catalog-build";
import type { ColumnDef, ColumnType, Resource } from "@/lib/resources/define";

export const BEGIN_MARKER = "// <generated from lib/resources by prisma/generate-models.ts: do not edit by hand>";
export const END_MARKER = "// </generated>";

const PRISMA_TYPE: Record<ColumnType, string> = { int: "Int", float: "Float", text: "String", bool: "Boolean" };

type Field = { doc?: string; name: string; type: string; attrs?: string };

function columnField(c: ColumnDef): Field {
  const doc = c.categories ? `one of ${c.categories.map((x) => `"${x.value}"`).join(" | ")}; a value Ringside does not know yet is stored as null` : undefined;
  return { doc, name: c.name, type: `${PRISMA_TYPE[c.type]}?` };
}

function fieldsOf(r: Resource): { fields: Field[]; blockAttrs: string[] } {
  const id: Field = { name: "id", type: "Int", attrs: "@id @default(autoincrement())" };
  const syncedAt: Field = { name: "syncedAt", type: "DateTime", attrs: "@default(now())" };
  const tail: Field[] = [{ name: "raw", type: "String" }, syncedAt];
  const columns = r.columns.map(columnField);
  if (r.kind === "snapshot") {
    return {
      fields: [id, { name: "userId", type: "String", attrs: "@unique" }, { name: "ringUserId", type: "String" }, ...columns, ...tail],
      blockAttrs: [],
    };
  }
  if (r.kind === "time_series") {
    // One row per person and UTC day, its samples packed (lib/db/sample-codec.ts): measured
    // against one row per sample in the README (Architecture, "Heart rate storage").
    return {
      fields: [
        id,
        { name: "userId", type: "String" },
        { doc: "the UTC day of the samples", name: "day", type: "String" },
        { doc: "how many samples the row holds", name: "count", type: "Int" },
        {
          doc: "the day's samples, packed: times as millisecond offsets from the day's start, fields as small ints (lib/db/sample-codec.ts)",
          name: "samples",
          type: "Bytes",
        },
        syncedAt,
      ],
      blockAttrs: ["@@unique([userId, day])"],
    };
  }
  const byDay = r.key === "day";
  return {
    fields: [
      id,
      { name: "userId", type: "String" },
      { name: "documentId", type: byDay ? "String?" : "String" },
      r.dayField === null ? { doc: "documents of no day (the ring's configuration) have none", name: "day", type: "String?" } : { name: "day", type: "String" },
      ...columns,
      ...tail,
    ],
    blockAttrs: byDay ? ["@@unique([userId, day])", "@@index([userId, documentId])"] : ["@@unique([userId, documentId])", "@@index([userId, day])"],
  };
}

/** One model, aligned the way `prisma format` aligns it. */
function renderModel(r: Resource): string {
  const { fields, blockAttrs } = fieldsOf(r);
  const nameWidth = Math.max(...fields.map((f) => f.name.length));
  const typeWidth = Math.max(...fields.map((f) => f.type.length));
  const lines: string[] = [];
  if (r.note) lines.push(`/// ${r.note}`);
  lines.push(`model ${modelName(r)} {`);
  for (const f of fields) {
    if (f.doc) lines.push(`  /// ${f.doc}`);
    const head = `  ${f.name.padEnd(nameWidth)} ${f.attrs ? f.type.padEnd(typeWidth) : f.type}`;
    lines.push(f.attrs ? `${head} ${f.attrs}` : head);
  }
  lines.push("");
  for (const a of [...blockAttrs, `@@map("${r.table}")`]) lines.push(`  ${a}`);
  lines.push("}");
  return lines.join("\n");
}

/** The generated block, markers included. */
export function renderModels(resources: readonly Resource[] = RESOURCES as readonly Resource[]): string {
  return [BEGIN_MARKER, ...resources.map(renderModel), END_MARKER].join("\n\n");
}

/** The schema text with its generated block replaced. */
export function rewriteSchema(schema: string, block = renderModels()): string {
  const start = schema.indexOf(BEGIN_MARKER);
  const end = schema.indexOf(END_MARKER);
  if (start < 0 || end < start) throw new Error(`prisma/schema.prisma: the markers ${BEGIN_MARKER} … ${END_MARKER} are missing`);
  return schema.slice(0, start) + block + schema.slice(end + END_MARKER.length);
}

const PRISMA_DIR = path.dirname(fileURLToPath(import.meta.url));
export const SCHEMA_FILE = path.join(PRISMA_DIR, "schema.prisma");
const SQLITE_MIGRATIONS_DIR = path.join(PRISMA_DIR, "migrations");
export const POSTGRES_SCHEMA_FILE = path.join(PRISMA_DIR, "postgresql", "schema.prisma");
/** The metric catalog's data, generated from the same registry (lib/metrics/catalog-build.ts). */
export const CATALOG_DATA_FILE = path.join(PRISMA_DIR, "..", "lib", "metrics", "catalog-data.ts");
export const POSTGRES_MIGRATIONS_DIR = path.join(PRISMA_DIR, "postgresql", "migrations");

const POSTGRES_HEADER =
  "// GENERATED from prisma/schema.prisma by prisma/generate-models.ts (`npm run db:models`): do not edit.\n" +
  "// The same models for PostgreSQL (DATABASE_URL=postgresql://…); migrations in ./migrations.\n";

/** The PostgreSQL rendering of the (SQLite) schema: the same models, another provider. */
export function renderPostgresSchema(sqliteSchema: string): string {
  const swaps: Array<[string, string]> = [
    ['provider = "sqlite"', 'provider = "postgresql"'],
    ['output   = "../lib/generated/prisma"', 'output   = "../../lib/generated/prisma-postgresql"'],
  ];
  let out = sqliteSchema;
  for (const [from, to] of swaps) {
    if (out.split(from).length !== 2) throw new Error(`prisma/schema.prisma: expected exactly one \`${from}\``);
    out = out.replace(from, to);
  }
  return POSTGRES_HEADER + out;
}

/** The SQL that takes one PostgreSQL rendering to the next (from nothing when `from` is null). */
export function postgresMigrationSql(from: string | null, to: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ringside-pg-diff-"));
  try {
    const toFile = path.join(dir, "to.prisma");
    fs.writeFileSync(toFile, to);
    const fromArgs = from === null ? ["--from-empty"] : ["--from-schema", path.join(dir, "from.prisma")];
    if (from !== null) fs.writeFileSync(path.join(dir, "from.prisma"), from);
    return execFileSync(path.resolve(PRISMA_DIR, "../node_modules/.bin/prisma"), ["migrate", "diff", ...fromArgs, "--to-schema", toFile, "--script"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
      timeout: 60_000,
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Migration folders, oldest first. */
function migrationNames(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
}

/** Writes the PostgreSQL schema and, when it changed, the migration to it; returns the folder written. */
function writePostgres(sqliteSchema: string): string | null {
  const next = renderPostgresSchema(sqliteSchema);
  const previous = fs.existsSync(POSTGRES_SCHEMA_FILE) ? fs.readFileSync(POSTGRES_SCHEMA_FILE, "utf8") : null;
  if (previous === next) return null;
  const sql = postgresMigrationSql(migrationNames(POSTGRES_MIGRATIONS_DIR).length ? previous : null, next);
  // Named after the newest SQLite migration (the change it mirrors), stamped now so it sorts last.
  const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
  const change = previous === null ? "init" : (migrationNames(SQLITE_MIGRATIONS_DIR).at(-1)?.replace(/^\d+_/, "") ?? "change");
  const folder = path.join(POSTGRES_MIGRATIONS_DIR, `${stamp}_${change}`);
  fs.mkdirSync(folder, { recursive: true });
  fs.writeFileSync(path.join(folder, "migration.sql"), sql);
  const lock = path.join(POSTGRES_MIGRATIONS_DIR, "migration_lock.toml");
  if (!fs.existsSync(lock))
    fs.writeFileSync(
      lock,
      '# Please do not edit this file manually\n# It should be added in your version-control system (e.g., Git)\nprovider = "postgresql"\n',
    );
  fs.writeFileSync(POSTGRES_SCHEMA_FILE, next);
  return folder;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const current = fs.readFileSync(SCHEMA_FILE, "utf8");
  const next = rewriteSchema(current);
  if (process.argv.includes("--check")) {
    if (next !== current) {
      console.error("prisma/schema.prisma differs from the resource registry: run `npm run db:models` and create a migration.");
      process.exit(1);
    }
    const pg = fs.existsSync(POSTGRES_SCHEMA_FILE) ? fs.readFileSync(POSTGRES_SCHEMA_FILE, "utf8") : "";
    if (pg !== renderPostgresSchema(current)) {
      console.error("prisma/postgresql/schema.prisma differs from prisma/schema.prisma: run `npm run db:models`.");
      process.exit(1);
    }
    if (fs.readFileSync(CATALOG_DATA_FILE, "utf8") !== renderCatalogData()) {
      console.error("lib/metrics/catalog-data.ts differs from the resource registry: run `npm run db:models`.");
      process.exit(1);
    }
    console.log("prisma/schema.prisma matches the resource registry, and prisma/postgresql/schema.prisma and lib/metrics/catalog-data.ts match it.");
  } else {
    if (next !== current) {
      fs.writeFileSync(SCHEMA_FILE, next);
      console.log(
        "prisma/schema.prisma: ring-data models rewritten from lib/resources. Next: npx prisma migrate dev --name <change>, then npm run db:models again for PostgreSQL.",
      );
    } else console.log("prisma/schema.prisma is up to date.");
    const folder = writePostgres(next);
    console.log(folder ? `prisma/postgresql: schema rewritten, migration ${path.relative(PRISMA_DIR, folder)} written.` : "prisma/postgresql is up to date.");
    const catalog = renderCatalogData();
    if (fs.readFileSync(CATALOG_DATA_FILE, "utf8") !== catalog) {
      fs.writeFileSync(CATALOG_DATA_FILE, catalog);
      console.log("lib/metrics/catalog-data.ts: the metric catalog's data rewritten from lib/resources.");
    } else console.log("lib/metrics/catalog-data.ts is up to date.");
  }
}
