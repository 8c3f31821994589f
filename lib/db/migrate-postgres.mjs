// @ts-check
// Applies pending migrations from prisma/postgresql/migrations to a PostgreSQL database, with
// Prisma's `_prisma_migrations` bookkeeping (same table, sha256 checksums), so that
// `prisma migrate status` agrees. Several processes starting at once (two app processes, a
// worker) serialise on one session-level advisory lock, Prisma Migrate's own key, so one of
// them migrates and the others find nothing left to do. Plain JS, like lib/db/migrate.mjs.
import crypto from "node:crypto";
import pg from "pg";
import { checkAppliedMigrations, readMigrations } from "./migrate.mjs";

/** Prisma Migrate's advisory lock key: `prisma migrate deploy` and this wait for each other. */
const MIGRATE_LOCK_KEY = 72707369;

const HISTORY_DDL = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

/**
 * Applies every pending migration, each in its own transaction, under the advisory lock.
 * Returns the names this call applied (none when another process got there first). Refuses
 * (MigrationCheckError, before applying anything) when an applied migration was edited or is
 * not among the files (lib/db/migrate.mjs, checkAppliedMigrations).
 * @param {string} url a postgresql:// URL
 * @param {string} migrationsDir
 * @returns {Promise<string[]>}
 */
export async function applyPendingPostgresMigrations(url, migrationsDir) {
  const all = readMigrations(migrationsDir);
  const client = new pg.Client({ connectionString: url, application_name: "ringside-migrate" });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATE_LOCK_KEY]);
    try {
      await client.query(HISTORY_DDL);
      const { rows } = await client.query(
        `SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name`,
      );
      const done = new Map(rows.map((r) => [String(r.migration_name), String(r.checksum)]));
      // every applied migration still there and unedited, or nothing is applied (MigrationCheckError)
      checkAppliedMigrations(
        [...done].map(([name, checksum]) => ({ name, checksum })),
        all,
        migrationsDir,
      );
      /** @type {string[]} */
      const applied = [];
      for (const m of all) {
        if (done.has(m.name)) continue;
        const started = new Date();
        await client.query("BEGIN");
        try {
          await client.query(m.sql);
          await client.query(
            `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, logs, rolled_back_at, started_at, applied_steps_count)
             VALUES ($1, $2, now(), $3, NULL, NULL, $4, 1)`,
            [crypto.randomUUID(), m.checksum, m.name, started],
          );
          await client.query("COMMIT");
        } catch (err) {
          await client.query("ROLLBACK").catch(() => {});
          throw new Error(`migration ${m.name} failed: ${err instanceof Error ? err.message : String(err)}`);
        }
        applied.push(m.name);
      }
      return applied;
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [MIGRATE_LOCK_KEY]).catch(() => {});
    }
  } finally {
    await client.end();
  }
}
