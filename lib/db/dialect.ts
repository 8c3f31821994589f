import "server-only";

// The SQL that is SQLite's own, named, in one place: the hot-path queries of lib/db/queries
// build their statements with these. Their PostgreSQL forms (`$1` parameters, IS DISTINCT
// FROM, = ANY($1)) live beside each query module's PostgreSQL implementation (the job table's
// in jobs-postgres.ts); lib/db/sqlite.mjs and lib/db/postgres.ts open the connections.
//
// Still written in SQLite's words elsewhere, each a one-line change behind its function:
// INSERT OR IGNORE (webhook-events recordWebhookEvent), json_each (webhook-events,
// ring-documents via notInJsonArray), `.immediate()` write transactions (jobs, accounts,
// ring-documents), PRAGMA reads (client verifyPragmas), VACUUM INTO (backup.mjs).

/** A quoted identifier (table or column name; names come from the registry, never a request). */
export function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * INSERT … ON CONFLICT(conflict) DO UPDATE of every other column, with named parameters
 * (`@column`). `unlessSame`: leave the row alone when these columns are unchanged (a re-sync of
 * an unchanged document writes nothing).
 */
export function upsertSql(opts: { table: string; columns: readonly string[]; conflict: readonly string[]; unlessSame?: readonly string[] }): string {
  const t = ident(opts.table);
  const updatable = opts.columns.filter((c) => !opts.conflict.includes(c));
  const changed = opts.unlessSame?.length ? ` WHERE ${opts.unlessSame.map((c) => `${t}.${ident(c)} IS NOT excluded.${ident(c)}`).join(" OR ")}` : "";
  return (
    `INSERT INTO ${t} (${opts.columns.map(ident).join(", ")}) VALUES (${opts.columns.map((c) => `@${c}`).join(", ")}) ` +
    `ON CONFLICT(${opts.conflict.map(ident).join(", ")}) DO UPDATE SET ${updatable.map((c) => `${ident(c)} = excluded.${ident(c)}`).join(", ")}${changed}`
  );
}

/** `column NOT IN (…)` for a list bound as one JSON-array parameter (any length, one statement). */
export function notInJsonArray(column: string): string {
  return `${ident(column)} NOT IN (SELECT value FROM json_each(?))`;
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
