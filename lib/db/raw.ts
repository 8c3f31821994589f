import "server-only";
import Database from "better-sqlite3";
import { env } from "@/lib/env.mjs";
import { ensureDataDir, sqlitePath } from "@/lib/db/sqlite-file";

/**
 * A raw better-sqlite3 handle on the same file as the Prisma client, for the few hot paths
 * where Prisma's per-row overhead matters (bulk upserts during backfill, trend reads).
 * Same pragmas: WAL and a busy timeout. Only lib/db/queries uses it.
 */
const globalForRaw = globalThis as unknown as { ringsideRaw?: Database.Database };

export function rawDb(): Database.Database {
  if (globalForRaw.ringsideRaw?.open) return globalForRaw.ringsideRaw;
  ensureDataDir(env.DATABASE_URL);
  const handle = new Database(sqlitePath(env.DATABASE_URL), { timeout: 5_000 });
  handle.pragma("journal_mode = WAL");
  handle.pragma("synchronous = NORMAL");
  handle.pragma("foreign_keys = ON");
  globalForRaw.ringsideRaw = handle;
  return handle;
}
