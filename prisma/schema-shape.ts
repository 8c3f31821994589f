// The check that the migrations make exactly the schema (no migration missing, none too many):
// a database migrated from nothing, the way `npm start` migrates, against one made by the SQL
// Prisma writes for the schema from nothing (what `prisma migrate diff --from-empty --script`
// prints, asked of the WebAssembly engine in-process: prisma/schema-engine-wasm.mjs), both
// described the way the database itself describes its tables, and compared. It needs no diff of a
// live database from the schema engine stand-in: only the script from nothing, which is how
// every migration is written. prisma/models.test.ts runs it on SQLite,
// lib/db/postgres-schema.test.ts on PostgreSQL, each also on a scratch copy of the schema with a
// model changed (the check must fail then).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { scriptFromEmpty } from "@/prisma/schema-engine-wasm.mjs";

/** Every table's columns, indexes and foreign keys (or constraints), in an order of their own. */
export type SchemaShape = Record<string, { columns: string[]; indexes: string[]; keys: string[] }>;

const HISTORY = "_prisma_migrations";

/** A SQLite file's tables as SQLite describes them (PRAGMA table_xinfo, index_list, foreign_key_list). */
export function describeSqlite(file: string): SchemaShape {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const q = (name: string) => `"${name.replaceAll('"', '""')}"`;
    const tables = db
      .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> ? ORDER BY name")
      .all(HISTORY) as Array<{
      name: string;
      sql: string;
    }>;
    const shape: SchemaShape = {};
    for (const t of tables) {
      const columns = (
        db.pragma(`table_xinfo(${q(t.name)})`) as Array<{ name: string; type: string; notnull: number; dflt_value: string | null; pk: number }>
      ).map(
        (c) =>
          `${c.name} ${c.type.toUpperCase()}${c.notnull ? " NOT NULL" : ""}${c.dflt_value === null ? "" : ` DEFAULT ${c.dflt_value}`}${c.pk ? ` PK${c.pk}` : ""}`,
      );
      if (/\bAUTOINCREMENT\b/i.test(t.sql)) columns.push("(AUTOINCREMENT)");
      const indexes = (db.pragma(`index_list(${q(t.name)})`) as Array<{ name: string; unique: number; origin: string; partial: number }>).map((i) => {
        const cols = (db.pragma(`index_info(${q(i.name)})`) as Array<{ seqno: number; name: string | null }>)
          .sort((a, b) => a.seqno - b.seqno)
          .map((c) => c.name ?? "(expression)");
        // SQLite names the indexes of PRIMARY KEY and UNIQUE constraints by their position
        const name = i.origin === "c" ? i.name : `(${i.origin === "pk" ? "primary key" : "unique constraint"})`;
        return `${name}${i.unique ? " UNIQUE" : ""} (${cols.join(", ")})${i.partial ? " WHERE …" : ""}`;
      });
      const fks = db.pragma(`foreign_key_list(${q(t.name)})`) as Array<{
        id: number;
        seq: number;
        table: string;
        from: string;
        to: string;
        on_update: string;
        on_delete: string;
      }>;
      const keys = [...new Set(fks.map((f) => f.id))].map((id) => {
        const parts = fks.filter((f) => f.id === id).sort((a, b) => a.seq - b.seq);
        const first = parts[0]!;
        return `(${parts.map((p) => p.from).join(", ")}) REFERENCES ${first.table} (${parts.map((p) => p.to).join(", ")}) ON DELETE ${first.on_delete} ON UPDATE ${first.on_update}`;
      });
      shape[t.name] = { columns: columns.sort(), indexes: indexes.sort(), keys: keys.sort() };
    }
    return shape;
  } finally {
    db.close();
  }
}

/** A PostgreSQL database's tables as PostgreSQL describes them (information_schema, pg_indexes, pg_constraint). */
export async function describePostgres(url: string): Promise<SchemaShape> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const rows = async <T extends pg.QueryResultRow>(sql: string) => (await client.query<T>(sql, [HISTORY])).rows;
    const columns = await rows<{ table_name: string; column_name: string; data_type: string; is_nullable: string; column_default: string | null }>(
      `SELECT table_name, column_name, data_type, is_nullable, column_default FROM information_schema.columns
        WHERE table_schema = 'public' AND table_name <> $1 ORDER BY table_name, column_name`,
    );
    const indexes = await rows<{ tablename: string; indexname: string; indexdef: string }>(
      `SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename <> $1 ORDER BY indexname`,
    );
    const constraints = await rows<{ table: string; conname: string; def: string }>(
      `SELECT t.relname AS table, c.conname, pg_get_constraintdef(c.oid) AS def FROM pg_constraint c
         JOIN pg_namespace n ON n.oid = c.connamespace JOIN pg_class t ON t.oid = c.conrelid
        WHERE n.nspname = 'public' AND t.relname <> $1 ORDER BY c.conname`,
    );
    const shape: SchemaShape = {};
    const of = (table: string) => (shape[table] ??= { columns: [], indexes: [], keys: [] });
    for (const c of columns)
      of(c.table_name).columns.push(
        `${c.column_name} ${c.data_type}${c.is_nullable === "NO" ? " NOT NULL" : ""}${c.column_default === null ? "" : ` DEFAULT ${c.column_default}`}`,
      );
    for (const i of indexes) of(i.tablename).indexes.push(i.indexdef);
    for (const k of constraints) of(k.table).keys.push(`${k.conname} ${k.def}`);
    return shape;
  } finally {
    await client.end();
  }
}

/**
 * What differs between the schema the migrations made and the one the schema file describes,
 * one line per table, column, index or key ("+" only in the schema file, "-" only in the
 * migrated database); empty when they are the same.
 */
export function schemaDifferences(migrated: SchemaShape, expected: SchemaShape): string[] {
  const out: string[] = [];
  const tables = [...new Set([...Object.keys(migrated), ...Object.keys(expected)])].sort();
  for (const t of tables) {
    const a = migrated[t];
    const b = expected[t];
    if (!a || !b) {
      out.push(`${b ? "+" : "-"} table ${t}`);
      continue;
    }
    for (const part of ["columns", "indexes", "keys"] as const) {
      const have = new Set(a[part]);
      const want = new Set(b[part]);
      for (const x of b[part]) if (!have.has(x)) out.push(`+ ${t}: ${x}`);
      for (const x of a[part]) if (!want.has(x)) out.push(`- ${t}: ${x}`);
    }
  }
  return out;
}

/** The SQLite database a schema file describes, made from nothing by Prisma's own script (a temporary file; its path). */
export async function sqliteFromSchema(schemaText: string, dir = os.tmpdir()): Promise<string> {
  const sql = await scriptFromEmpty(schemaText);
  const file = path.join(fs.mkdtempSync(path.join(dir, "ringside-schema-")), "schema.db");
  const db = new Database(file);
  try {
    db.exec(sql);
  } finally {
    db.close();
  }
  return file;
}
