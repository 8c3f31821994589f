// Prisma's client on the database the process runs on (DATABASE_URL), for tests and seeding
// scripts that write or inspect rows through Prisma's typed models: the process's client
// (lib/db/prisma.ts: on SQLite behind the gate that keeps its transactions apart, on PostgreSQL on
// the process's pool), and more clients standing for other processes in the stores' contract tests.
import { postgresClient, prisma, sqliteClient, sqliteGate, type ProcessDb } from "@/lib/db/prisma";
import { sqliteFile } from "@/lib/db/sqlite.mjs";

export const db: ProcessDb = prisma();

/**
 * Another client on the test file's SQLite file, as another request's would be: a connection of
 * its own, behind the process's gate (one process cannot hold two SQLite writers apart otherwise).
 */
export const otherSqliteClient = (): ProcessDb => sqliteClient(sqliteFile(process.env.DATABASE_URL!), sqliteGate());

/** A client on a PostgreSQL pool (lib/test/postgres.ts useMigratedPostgres: `pool()`, or `otherProcess()` for another process). */
type PgPool = Awaited<ReturnType<Parameters<typeof postgresClient>[0]>>;

export const pgClient = (pool: () => PgPool): ProcessDb => postgresClient(async () => pool());
