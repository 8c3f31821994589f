import "server-only";
import type pg from "pg";
import type { SqlDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import { PrismaClient, type Prisma } from "@/lib/generated/prisma/client";
import { PrismaClient as PostgresPrismaClient } from "@/lib/generated/prisma-postgresql/client";
import { env } from "@/lib/env.mjs";
import { BUSY_TIMEOUT_MS, sqliteFile } from "@/lib/db/sqlite.mjs";
import { gatedSqliteAdapter, SqliteGate } from "@/lib/db/prisma-sqlite";
import { postgresPool, verifyPragmas } from "@/lib/db/client";
import { processSingleton } from "@/lib/process-singleton";

// Prisma Client at run time: one client per process, on SQLite (Prisma's better-sqlite3 adapter
// behind the gate of lib/db/prisma-sqlite.ts) or PostgreSQL (Prisma's pg adapter on a pool), under
// one type. Every query uses it (docs/decisions/0031-prisma-client-at-run-time.md) but the sync's
// two hot writes, a page's commit and the time series' day merge, which the ingest store runs on
// the driver (lib/db/ingest).
//
// How a query module uses it:
// - model work through the model API, on a `Db` it is given (`tx` inside a transaction) or the
//   process's (`prisma()`);
// - work that must be one transaction takes `tx: Db` and is composed by its caller in
//   `prisma().$transaction(async (tx) => …)`; inside it, every query goes through `tx` (a query
//   through `prisma()` there waits for the transaction on SQLite, which waits for it: stuck
//   until the transaction's timeout rolls it back);
// - raw SQL through `$queryRaw`/`$executeRaw` tagged templates (`Prisma.sql`, `Prisma.join` for a
//   page's VALUES), with what SQLite and PostgreSQL write differently chosen beside the query by
//   `dbProvider(db)`; row types derived from the generated models.

/**
 * The one client type of both databases: the SQLite client's. The PostgreSQL client is generated
 * from the same models (prisma/generate-models.ts) and its rows are the same types
 * (lib/db/prisma.test.ts checks every model's); TypeScript cannot relate the two generated classes
 * by themselves (their `$transaction` isolation levels and their aggregate types differ), so
 * `postgresClient` states it once.
 */
export type Db = Prisma.TransactionClient;
/** The process's client: a `Db` that can also begin transactions and disconnect. */
export type ProcessDb = PrismaClient;

/** The database a client runs on, for the queries that differ (the one dialect switch). */
export type DbProvider = "sqlite" | "postgresql";

/**
 * The database `db` (the process's client, or a transaction's) runs on. Prisma keeps it on the
 * client (`_activeProvider`, which a transaction's client passes through); a Prisma that no
 * longer does fails here, loudly, and in lib/db/prisma.test.ts.
 */
export function dbProvider(db: Db): DbProvider {
  const provider: unknown = Reflect.get(db, "_activeProvider");
  if (provider === "sqlite" || provider === "postgresql") return provider;
  throw new Error(`Prisma Client names no known database (${String(provider)}).`);
}

/**
 * How long a transaction may wait to begin and may stay open (ms). On SQLite a transaction holds
 * the process's one connection: it must be short (no network inside), and the wait includes the
 * transactions ahead of it at the gate.
 */
export const TRANSACTION_OPTIONS = { maxWait: BUSY_TIMEOUT_MS, timeout: BUSY_TIMEOUT_MS } as const;

/** A client on a SQLite file, its transactions and outside queries ordered by `gate`. */
export function sqliteClient(file: string, gate: SqliteGate = new SqliteGate(), options: { statementCacheSize?: number } = {}): ProcessDb {
  return clientOn(gatedSqliteAdapter(file, gate, options));
}

/**
 * A client on a PostgreSQL pool (the driver is loaded on first use, so a SQLite server never
 * loads it). Prisma's pg adapter sets its own type parsers on each query, whatever the pool's.
 */
export function postgresClient(pool: () => Promise<pg.Pool>): ProcessDb {
  return clientOn(postgresAdapter(pool));
}

/** Prisma's pg driver adapter on a pool (the driver is loaded on first use). */
export function postgresAdapter(pool: () => Promise<pg.Pool>): SqlDriverAdapterFactory {
  return {
    provider: "postgres",
    adapterName: "@prisma/adapter-pg",
    async connect() {
      const { PrismaPg } = await import("@prisma/adapter-pg");
      return new PrismaPg(await pool()).connect();
    },
  };
}

/**
 * Prisma Client on a driver adapter of either database, by the adapter's provider: what
 * sqliteClient and postgresClient make (tests pass an adapter wrapped to count its statements).
 */
export function clientOn(adapter: SqlDriverAdapterFactory): ProcessDb {
  if (adapter.provider === "sqlite") return new PrismaClient({ adapter, transactionOptions: TRANSACTION_OPTIONS });
  // The one statement of the two clients' sameness (see Db): about a client, never a row.
  return new PostgresPrismaClient({ adapter, transactionOptions: TRANSACTION_OPTIONS }) as unknown as PrismaClient;
}

/** The process's gate on SQLite (lib/db/prisma-sqlite.ts): every writer of the process's file waits at it. */
export function sqliteGate(): SqliteGate {
  return processSingleton("sqliteGate", () => new SqliteGate());
}

/** How long work under `withDatabaseLock` may take (a refused sign-in asks the ring service to revoke its token meanwhile). */
const DATABASE_LOCK_TIMEOUT_MS = 60_000;

/**
 * Runs `fn` holding a lock that every process on the database shares: on PostgreSQL a
 * transaction-scoped advisory lock (`pg_advisory_xact_lock`, in a transaction that stays open
 * while `fn` runs; `fn`'s own queries go through the process's client, on other connections);
 * on SQLite, one process per file serves sign-ins, so `fn` runs as it is (callers serialise
 * within the process).
 */
export async function withDatabaseLock<T>(key: number, fn: () => Promise<T>, db: ProcessDb = prisma()): Promise<T> {
  if (dbProvider(db) !== "postgresql") return fn();
  return db.$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${key})`;
      return fn();
    },
    { maxWait: BUSY_TIMEOUT_MS, timeout: DATABASE_LOCK_TIMEOUT_MS },
  );
}

/** One trivial statement through the process's client: whether the database answers (the outage probe, lib/http/outage.ts). */
export async function pingDatabase(db: ProcessDb = prisma()): Promise<void> {
  await db.$queryRaw`SELECT 1`;
}

/** The database answers (and on SQLite has its PRAGMAs): what GET /api/health checks. */
export async function checkDatabase(): Promise<void> {
  if (/^postgres(ql)?:\/\//.test(env.DATABASE_URL)) await pingDatabase();
  else await verifyPragmas();
}

/** The process's client on DATABASE_URL (made on first use). */
export function prisma(): ProcessDb {
  return processSingleton("prisma", () => {
    if (/^postgres(ql)?:\/\//.test(env.DATABASE_URL)) {
      return postgresClient(postgresPool);
    }
    return sqliteClient(sqliteFile(env.DATABASE_URL), sqliteGate());
  });
}
