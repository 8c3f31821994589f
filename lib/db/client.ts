import "server-only";
import type Database from "better-sqlite3";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { PrismaClient as PostgresPrismaClient } from "@/lib/generated/prisma-postgresql/client";
import { env } from "@/lib/env.mjs";
import { BUSY_TIMEOUT_MS, ensureDatabaseDir, openSqlite, pragmaScript, sqliteFile } from "@/lib/db/sqlite.mjs";

// The database of the process, opened one way (lib/db/sqlite.mjs: file, directory, busy
// timeout, PRAGMAs) for its two users:
// - `db`, the Prisma client: schema, migrations, and the ordinary queries of lib/db/queries;
// - `rawDb()`, prepared statements for the hot paths (a backfill page's upsert, chart reads,
//   the job table, the webhook inbox, the session lookup of every signed-in request), where
//   Prisma's per-query cost would dominate. Only lib/db/sql.ts and the SQLite stores of
//   lib/db/queries use it.
// On PostgreSQL (`DATABASE_URL=postgresql://…`) `db` is the client generated for it
// (lib/generated/prisma-postgresql, same models) and the hot paths run on lib/db/sql.ts's pool.
// They are two connections to the same file on purpose: Prisma's interactive transactions
// span awaits, and a synchronous statement run on the same connection meanwhile would join
// (and could be rolled back with) someone else's transaction. SQLite's locking (WAL, one
// writer, BUSY_TIMEOUT_MS) orders the two, as it orders several processes.

/** Prisma's driver adapter, with the same PRAGMAs as every other connection. */
class SqliteAdapter extends PrismaBetterSqlite3 {
  override async connect() {
    const adapter = await super.connect();
    await adapter.executeScript(pragmaScript());
    return adapter;
  }
}

function createClient(): PrismaClient {
  const log: Array<"warn" | "error"> = env.NODE_ENV === "development" ? ["warn", "error"] : ["error"];
  if (/^postgres(ql)?:\/\//.test(env.DATABASE_URL)) {
    // The same models generated for PostgreSQL (prisma/postgresql/schema.prisma, derived from
    // prisma/schema.prisma by `npm run db:models`): the two clients differ in no model, field or
    // method the app uses, so the app holds one type.
    // a connection the server ends (a restart, an outage) fails its query; it is never an uncaught error
    const adapter = new PrismaPg(
      { connectionString: env.DATABASE_URL, max: env.DATABASE_POOL_SIZE, options: "-c TimeZone=UTC" },
      { onPoolError: () => undefined, onConnectionError: () => undefined },
    );
    return new PostgresPrismaClient({ adapter, log }) as unknown as PrismaClient;
  }
  const file = sqliteFile(env.DATABASE_URL);
  ensureDatabaseDir(file);
  return new PrismaClient({
    adapter: new SqliteAdapter({ url: `file:${file}`, timeout: BUSY_TIMEOUT_MS }),
    log,
  });
}

const globalForDb = globalThis as unknown as { ringsideDb?: PrismaClient; ringsideRaw?: Database.Database };

/** The one Prisma client of the process. */
export const db: PrismaClient = globalForDb.ringsideDb ?? createClient();
globalForDb.ringsideDb = db;

/** The hot paths' connection (opened on first use, once per process). */
export function rawDb(): Database.Database {
  if (globalForDb.ringsideRaw?.open) return globalForDb.ringsideRaw;
  globalForDb.ringsideRaw = openSqlite(sqliteFile(env.DATABASE_URL));
  return globalForDb.ringsideRaw;
}

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

/** The database answers (and on SQLite has its PRAGMAs): what GET /api/health checks. */
export async function checkDatabase(): Promise<void> {
  if (/^postgres(ql)?:\/\//.test(env.DATABASE_URL)) await db.$queryRawUnsafe("SELECT 1");
  else await verifyPragmas();
}
