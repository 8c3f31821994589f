// Raw reads and writes for tests, on whichever database the test file runs (lib/db/sql.ts): the
// same statement text on SQLite and PostgreSQL. The app's modules are imported on first use, so
// a test file that sets its environment before importing them may import this at the top.
import type { SqlValue } from "@/lib/db/sql";

const sql = () => import("@/lib/db/sql");

export async function sqlAll<T = Record<string, unknown>>(text: string, ...params: SqlValue[]): Promise<T[]> {
  const { query, all } = await sql();
  return query(all<T>(text, ...params));
}

export async function sqlRun(text: string, ...params: SqlValue[]): Promise<number> {
  const { query, run } = await sql();
  return query(run(text, ...params));
}

/** The first column of the first row (a count, a status), or undefined. */
export async function sqlValue<T = unknown>(text: string, ...params: SqlValue[]): Promise<T | undefined> {
  const { query, get } = await sql();
  const row = await query(get<Record<string, unknown>>(text, ...params));
  return row ? (Object.values(row)[0] as T) : undefined;
}
