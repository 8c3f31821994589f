import "server-only";

// The SQL the query modules write (lib/db/sql.ts runs it on either database): SQLite's words
// with `?` parameters, and their PostgreSQL form, made by `toPostgresSql` once per statement
// text. The translation covers what the modules use — `?` parameters, mixed-case identifiers
// (PostgreSQL folds unquoted names to lower case), IS NOT against an upsert's new row,
// INSERT OR IGNORE, json_each over a JSON-array parameter. What it does not cover is chosen by
// dialect beside the query (export's group_concat), or lives in a store of its own per
// database (the job table, tokens, webhook inbox and leases: row locks and advisory locks).

/** A quoted identifier (table or column name; names come from the registry, never a request). */
export function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * INSERT … ON CONFLICT(conflict) DO UPDATE of every other column, with one `?` per column in
 * the order given. `unlessSame`: leave the row alone when these columns are unchanged (a
 * re-sync of an unchanged document writes nothing).
 */
export function upsertSql(opts: {
  table: string;
  columns: readonly string[];
  conflict: readonly string[];
  unlessSame?: readonly string[];
  fromArrays?: readonly string[];
}): string {
  const t = ident(opts.table);
  const updatable = opts.columns.filter((c) => !opts.conflict.includes(c));
  const changed = opts.unlessSame?.length ? ` WHERE ${opts.unlessSame.map((c) => `${t}.${ident(c)} IS NOT excluded.${ident(c)}`).join(" OR ")}` : "";
  // PostgreSQL only: many rows at once, one array parameter per column (of these element types)
  const source = opts.fromArrays
    ? `SELECT * FROM unnest(${opts.fromArrays.map((type) => `CAST(? AS ${type}[])`).join(", ")})`
    : `VALUES (${opts.columns.map(() => "?").join(", ")})`;
  return (
    `INSERT INTO ${t} (${opts.columns.map(ident).join(", ")}) ${source} ` +
    `ON CONFLICT(${opts.conflict.map(ident).join(", ")}) DO UPDATE SET ${updatable.map((c) => `${ident(c)} = excluded.${ident(c)}`).join(", ")}${changed}`
  );
}

/** `column NOT IN (…)` for a list bound as one JSON-array parameter (any length, one statement). */
export function notInJsonArray(column: string): string {
  return `${ident(column)} NOT IN (SELECT value FROM json_each(?))`;
}

/** `column IN` the values of a JSON-array text parameter (one parameter for any number of values). */
export function inJsonArray(column: string): string {
  return `${ident(column)} IN (SELECT value FROM json_each(?))`;
}

/** A DateTime value in Prisma's SQLite text format ("…T…+00:00"; text order is time order). */
export function toDbTime(value: Date | number): string {
  const d = typeof value === "number" ? new Date(value) : value;
  return d.toISOString().replace("Z", "+00:00");
}

/** Parses a stored DateTime (Prisma's format, CURRENT_TIMESTAMP's, or epoch ms). */
export function fromDbTime(value: string | number | null | undefined): Date | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "number") return new Date(value);
  const d = new Date(/^\d{4}-\d{2}-\d{2} \d/.test(value) ? `${value.replace(" ", "T")}Z` : value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** One statement in SQLite's words (above) in PostgreSQL's; quoted names and strings are kept as they are. */
export function toPostgresSql(sql: string): string {
  let n = 0;
  const ignore = /^\s*INSERT OR IGNORE INTO\b/i.test(sql);
  const out = sql
    .split(/('(?:[^']|'')*'|"(?:[^"]|"")*")/)
    .map((part, i) => {
      if (i % 2 === 1) return part; // a string or a quoted identifier
      return part
        .replace(/\bINSERT OR IGNORE INTO\b/gi, "INSERT INTO")
        .replace(/\bjson_each\(\?\)/g, "jsonb_array_elements_text(CAST(? AS jsonb))")
        .replace(/\bIS NOT (?=excluded\.)/g, "IS DISTINCT FROM ")
        .replace(/\?/g, () => `$${++n}`)
        .replace(/(?<![\w$"])([a-z_][a-z0-9_]*[A-Z]\w*)/g, '"$1"');
    })
    .join("");
  if (!ignore) return out;
  // the conflict clause goes before a RETURNING clause
  const returning = out.search(/\sRETURNING\s/i);
  return returning < 0 ? `${out.trimEnd()} ON CONFLICT DO NOTHING` : `${out.slice(0, returning).trimEnd()} ON CONFLICT DO NOTHING${out.slice(returning)}`;
}
