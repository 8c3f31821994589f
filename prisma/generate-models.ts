// Writes the ring-data models of prisma/schema.prisma from the resource registry
// (lib/resources): one model per resource, between the "generated" markers. Run it after
// changing the registry, then create the migration:
//
//   npm run db:models          # rewrites the block
//   npm run db:models -- --check   # exits 1 when the checked-in schema differs (CI, prisma/models.test.ts)
//
// One source for every provider: a later PostgreSQL schema is another rendering of the same
// registry (the column types below are the only provider-specific part).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { modelName, RESOURCES } from "@/lib/resources";
import type { ColumnDef, ColumnType, Resource } from "@/lib/resources/define";

export const BEGIN_MARKER = "// <generated from lib/resources by prisma/generate-models.ts: do not edit by hand>";
export const END_MARKER = "// </generated>";

const PRISMA_TYPE: Record<ColumnType, string> = { int: "Int", float: "Float", text: "String", bool: "Boolean" };

type Field = { doc?: string; name: string; type: string; attrs?: string };

function columnField(c: ColumnDef): Field {
  const doc = c.categories
    ? `one of ${c.categories.map((x) => `"${x.value}"`).join(" | ")}; a value Ringside does not know yet is stored as null`
    : undefined;
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
        { doc: "the day's samples, packed: times as millisecond offsets from the day's start, fields as small ints (lib/db/sample-codec.ts)", name: "samples", type: "Bytes" },
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

export const SCHEMA_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "schema.prisma");

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const current = fs.readFileSync(SCHEMA_FILE, "utf8");
  const next = rewriteSchema(current);
  if (process.argv.includes("--check")) {
    if (next !== current) {
      console.error("prisma/schema.prisma differs from the resource registry: run `npm run db:models` and create a migration.");
      process.exit(1);
    }
    console.log("prisma/schema.prisma matches the resource registry.");
  } else if (next !== current) {
    fs.writeFileSync(SCHEMA_FILE, next);
    console.log("prisma/schema.prisma: ring-data models rewritten from lib/resources. Next: npx prisma migrate dev --name <change>");
  } else {
    console.log("prisma/schema.prisma is up to date.");
  }
}
