import "server-only";
import { Prisma } from "@/lib/generated/prisma/client";
import { dbTime } from "@/lib/db/ingest/driver";

// What the registry-driven reads (ring-data.ts, export.ts) share: names from the registry as SQL,
// and the cells of their rows in the shapes the API has always answered with.

/** A quoted table or column name from the registry (never from a request). */
export function sqlName(name: string): Prisma.Sql {
  return Prisma.raw(`"${name.replaceAll('"', '""')}"`);
}

/** Quoted column names from the registry, comma-separated. */
export function sqlNames(names: readonly string[]): Prisma.Sql {
  return Prisma.raw(names.map((n) => `"${n.replaceAll('"', '""')}"`).join(", "));
}

/**
 * A cell of a registry table as the API answers it, whatever the database: a bool column as 1 or 0
 * (SQLite's integers, which the answers and the exports have always carried), a time as the stored
 * text (Prisma's "…+00:00"), a count as a number.
 */
export function cell(value: unknown): unknown {
  if (typeof value === "boolean") return value ? 1 : 0;
  if (value instanceof Date) return dbTime(value);
  if (typeof value === "bigint") return Number(value);
  return value;
}

/** Every cell of a row as `cell` gives it. */
export function registryRow<T extends Record<string, unknown>>(row: T): T {
  for (const k of Object.keys(row)) Reflect.set(row, k, cell(row[k]));
  return row;
}

/**
 * A text parameter from a request as the ingest store stores text on PostgreSQL, whose text cannot
 * hold NUL (lib/db/ingest/driver.ts: a NUL becomes U+FFFD there): a lookup by an id with a NUL finds
 * nothing instead of failing. The same on SQLite (no stored id has one: the ring service's ids never do).
 */
export function lookupText(value: string): string {
  return value.includes("\u0000") ? value.replaceAll("\u0000", "\uFFFD") : value;
}
