import "server-only";
import type Database from "better-sqlite3";
import type pg from "pg";
import { env } from "@/lib/env.mjs";
import { openSqlite, sqliteFile } from "@/lib/db/sqlite.mjs";
import { processSingleton, processSlot } from "@/lib/process-singleton";

// The process's connections to its database, opened one way: on SQLite the ingest store's raw
// connection (lib/db/sqlite.mjs: file, directory, busy timeout, PRAGMAs; Prisma Client has its
// own, lib/db/prisma-sqlite.ts), on PostgreSQL one pool (lib/db/postgres.ts) that Prisma Client
// and the ingest store (lib/db/ingest) share.

const sqlite = processSlot<Database.Database>("sqlite");

/** The process's SQLite connection (opened on first use, again after a close). */
export function rawDb(): Database.Database {
  const open = sqlite.get();
  if (open?.open) return open;
  const opened = openSqlite(sqliteFile(env.DATABASE_URL));
  sqlite.set(opened);
  return opened;
}

/** The process's PostgreSQL pool (opened on first use; the driver is loaded then, never on SQLite). */
export function postgresPool(): Promise<pg.Pool> {
  return processSingleton("postgresPool", async () => {
    const { createPostgresPool } = await import("@/lib/db/postgres");
    return createPostgresPool(env.DATABASE_URL, { max: env.DATABASE_POOL_SIZE });
  });
}

/** Reads back journal_mode and busy_timeout; throws when WAL is not on. */
export async function verifyPragmas(): Promise<{ journalMode: string; busyTimeout: number }> {
  const db = rawDb();
  const journalMode = String(db.pragma("journal_mode", { simple: true }) ?? "");
  const busyTimeout = Number(db.pragma("busy_timeout", { simple: true }) ?? 0);
  if (journalMode.toLowerCase() !== "wal") throw new Error(`SQLite journal_mode is ${journalMode}, expected wal`);
  if (busyTimeout < 1000) throw new Error(`SQLite busy_timeout is ${busyTimeout}, expected >= 1000`);
  return { journalMode, busyTimeout };
}
