// Where a person is still in the database: every table, every text column, searched for the
// person's ids (their user id, ring account id, Account id, e-mail). Written against the
// database's own catalogue, not a list of tables, so a table added later is searched too.
import { sqlAll } from "@/lib/test/sql";

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** The text columns of every table of Ringside's schema (Prisma's own bookkeeping left out). */
async function textColumns(): Promise<Map<string, string[]>> {
  const byTable = new Map<string, string[]>();
  if (process.env.DATABASE_URL?.startsWith("postgres")) {
    const rows = await sqlAll<{ t: string; c: string }>(
      `SELECT table_name AS t, column_name AS c FROM information_schema.columns
        WHERE table_schema = current_schema() AND data_type IN ('text', 'character varying') AND table_name <> '_prisma_migrations'
        ORDER BY table_name, ordinal_position`,
    );
    for (const r of rows) byTable.set(r.t, [...(byTable.get(r.t) ?? []), r.c]);
    return byTable;
  }
  const tables = await sqlAll<{ name: string }>(
    `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> '_prisma_migrations' ORDER BY name`,
  );
  for (const { name } of tables) {
    const cols = await sqlAll<{ name: string; type: string }>(`SELECT name, type FROM pragma_table_info(?)`, name);
    byTable.set(
      name,
      cols.filter((c) => /^(TEXT|VARCHAR|CHAR|CLOB|)$/i.test(c.type.replace(/\(.*\)$/, ""))).map((c) => c.name),
    );
  }
  return byTable;
}

/**
 * The tables that still hold a row naming one of `needles` anywhere in a text column (an id in
 * a column of its own, in a setting's key, in a job's payload), with how many rows each.
 */
export async function rowsNaming(needles: readonly string[]): Promise<Record<string, number>> {
  const found: Record<string, number> = {};
  const wanted = needles.filter((n) => n.length > 0);
  for (const [table, columns] of await textColumns()) {
    if (columns.length === 0 || wanted.length === 0) continue;
    const conditions = columns.flatMap((c) => wanted.map(() => `${quote(c)} LIKE ?`)).join(" OR ");
    const params = columns.flatMap(() => wanted.map((n) => `%${n}%`));
    const [row] = await sqlAll<{ n: number | string }>(`SELECT COUNT(*) AS n FROM ${quote(table)} WHERE ${conditions}`, ...params);
    const n = Number(row?.n ?? 0);
    if (n > 0) found[table] = n;
  }
  return found;
}
