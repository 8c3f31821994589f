import "server-only";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { env } from "@/lib/env.mjs";
import { ensureDataDir } from "@/lib/db/sqlite-file";

/**
 * The SQLite connection with the pragmas Ringside relies on. `timeout` is SQLite's
 * busy_timeout; WAL is switched on at connect and verified (see verifyPragmas).
 */
class SqliteWithPragmas extends PrismaBetterSqlite3 {
  override async connect() {
    const adapter = await super.connect();
    await adapter.executeScript(
      "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;",
    );
    return adapter;
  }
}

function createClient() {
  ensureDataDir(env.DATABASE_URL);
  return new PrismaClient({
    adapter: new SqliteWithPragmas({ url: env.DATABASE_URL, timeout: 5_000 }),
    log: env.NODE_ENV === "development" ? ["warn", "error"] : ["error"],
  });
}

const globalForDb = globalThis as unknown as { ringsideDb?: PrismaClient };

/** The one Prisma client of the process. */
export const db: PrismaClient = globalForDb.ringsideDb ?? createClient();
globalForDb.ringsideDb = db;

/** Reads back journal_mode and busy_timeout; throws when WAL is not on. */
export async function verifyPragmas(): Promise<{ journalMode: string; busyTimeout: number }> {
  const mode = await db.$queryRawUnsafe<{ journal_mode: string }[]>("PRAGMA journal_mode");
  const timeout = await db.$queryRawUnsafe<{ timeout: bigint | number }[]>("PRAGMA busy_timeout");
  const journalMode = String(mode[0]?.journal_mode ?? "");
  const busyTimeout = Number(timeout[0]?.timeout ?? 0);
  if (journalMode.toLowerCase() !== "wal") throw new Error(`SQLite journal_mode is ${journalMode}, expected wal`);
  if (busyTimeout < 1000) throw new Error(`SQLite busy_timeout is ${busyTimeout}, expected >= 1000`);
  return { journalMode, busyTimeout };
}
