// Prisma's client on the database the process runs on (DATABASE_URL), for tests and seeding
// scripts that write or inspect rows through Prisma's typed models. The app itself never uses
// it: every table is read and written through lib/db/sql.ts (docs/decisions/0003-one-sql-layer.md);
// Prisma keeps the schema and the migrations.
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { PrismaClient as PostgresPrismaClient } from "@/lib/generated/prisma-postgresql/client";
import { env } from "@/lib/env.mjs";
import { BUSY_TIMEOUT_MS, ensureDatabaseDir, pragmaScript, sqliteFile } from "@/lib/db/sqlite.mjs";
import { dialectOf } from "@/lib/db/sql";
import { processSingleton } from "@/lib/process-singleton";

/** Prisma's driver adapter, with the same PRAGMAs as every other connection. */
class SqliteAdapter extends PrismaBetterSqlite3 {
  override async connect() {
    const adapter = await super.connect();
    await adapter.executeScript(pragmaScript());
    return adapter;
  }
}

function createClient(): PrismaClient {
  if (dialectOf(env.DATABASE_URL) === "postgres") {
    // The same models generated for PostgreSQL (prisma/postgresql/schema.prisma, derived from
    // prisma/schema.prisma): the two clients differ in no model, field or method, but TypeScript
    // sees two unrelated generated types, so the tests hold one.
    return new PostgresPrismaClient({ adapter: new PrismaPg({ connectionString: env.DATABASE_URL, options: "-c TimeZone=UTC" }) }) as unknown as PrismaClient;
  }
  const file = sqliteFile(env.DATABASE_URL);
  ensureDatabaseDir(file);
  return new PrismaClient({ adapter: new SqliteAdapter({ url: `file:${file}`, timeout: BUSY_TIMEOUT_MS }) });
}

export const db: PrismaClient = processSingleton("testPrisma", createClient);
