// A PostgreSQL database of the test file's own, on the run's private server
// (lib/test/postgres-global-setup.ts). Fails with one clear line when there is no server: the
// PostgreSQL suites are never skipped silently.
import type pg from "pg";
import { afterAll, beforeAll, inject } from "vitest";
import { applyPendingPostgresMigrations } from "@/lib/db/migrate-postgres.mjs";
import { createPostgresPool } from "@/lib/db/postgres";
import { createPostgresDatabase } from "@/lib/test/postgres-server.mjs";
import { POSTGRES_MIGRATIONS_DIR } from "@/prisma/generate-models";

export async function postgresTestDatabase(prefix = "t"): Promise<{ name: string; url: string }> {
  const serverUrl = inject("postgresUrl");
  if (!serverUrl) throw new Error("No PostgreSQL server for the tests: install Debian's package (sudo apt-get install -y postgresql) or set PG_BIN_DIR.");
  return createPostgresDatabase(serverUrl, prefix);
}

/**
 * For a test file: a database of its own with the PostgreSQL migration history applied (before
 * all tests), a pool on it (`pool()`), and more pools standing for other processes
 * (`otherProcess()`); every pool is closed after all tests.
 */
export function useMigratedPostgres(prefix: string): { pool: () => pg.Pool; otherProcess: () => pg.Pool } {
  let url = "";
  const pools: pg.Pool[] = [];
  const otherProcess = () => {
    const pool = createPostgresPool(url, { max: 4 });
    pools.push(pool);
    return pool;
  };
  beforeAll(async () => {
    url = (await postgresTestDatabase(prefix)).url;
    await applyPendingPostgresMigrations(url, POSTGRES_MIGRATIONS_DIR);
    otherProcess();
  });
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.end()));
  });
  return { pool: () => pools[0]!, otherProcess };
}
