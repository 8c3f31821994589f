import fs from "node:fs";
import pg from "pg";
import { beforeAll, describe, expect, it } from "vitest";
import { applyPendingPostgresMigrations } from "@/lib/db/migrate-postgres.mjs";
import { readMigrations } from "@/lib/db/migrate.mjs";
import { POSTGRES_MIGRATIONS_DIR, POSTGRES_SCHEMA_FILE } from "@/prisma/generate-models";
import { scriptFromEmpty } from "@/prisma/schema-engine-wasm.mjs";
import { postgresTestDatabase } from "@/lib/test/postgres";
import { describePostgres, schemaDifferences } from "@/prisma/schema-shape";

// The PostgreSQL schema and its migration history, on a real server (the run's private one):
// the history applies cleanly, ends exactly at the schema generated from prisma/schema.prisma,
// and is applied once however many processes start at the same moment.

async function query<T extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

describe("PostgreSQL schema and migrations (real server)", () => {
  const migrations = readMigrations(POSTGRES_MIGRATIONS_DIR);
  let history: string;

  beforeAll(async () => {
    history = (await postgresTestDatabase("history")).url;
  });

  it("the migration history applies cleanly, once: a second run finds nothing to do", async () => {
    expect(migrations.length).toBeGreaterThan(0);
    expect(await applyPendingPostgresMigrations(history, POSTGRES_MIGRATIONS_DIR)).toEqual(migrations.map((m) => m.name));
    expect(await applyPendingPostgresMigrations(history, POSTGRES_MIGRATIONS_DIR)).toEqual([]);
    const recorded = await query<{ migration_name: string; checksum: string }>(
      history,
      `SELECT migration_name, checksum FROM "_prisma_migrations" ORDER BY migration_name`,
    );
    expect(recorded).toEqual(migrations.map((m) => ({ migration_name: m.name, checksum: m.checksum })));
  });

  it("the history ends exactly at the generated schema: same tables, columns, indexes and constraints as the schema built from nothing", async () => {
    const fresh = (await postgresTestDatabase("fresh")).url;
    await query(fresh, await scriptFromEmpty(fs.readFileSync(POSTGRES_SCHEMA_FILE, "utf8")));
    const [a, b] = await Promise.all([describePostgres(history), describePostgres(fresh)]);
    expect(Object.values(a).flatMap((t) => t.columns).length).toBeGreaterThan(100);
    expect(schemaDifferences(a, b)).toEqual([]);
  });

  it("the check fails on a model changed without a migration (a scratch copy of the schema: a column added, an index dropped)", async () => {
    const scratch = fs
      .readFileSync(POSTGRES_SCHEMA_FILE, "utf8")
      .replace(/^(model User \{\n)/m, "$1  driftProbe String?\n")
      .replace(/^ {2}@@index\(\[userId, createdAt\]\)\n/m, "");
    const changed = (await postgresTestDatabase("scratch")).url;
    await query(changed, await scriptFromEmpty(scratch));
    expect(schemaDifferences(await describePostgres(history), await describePostgres(changed))).toEqual([
      "+ User: driftProbe text",
      expect.stringMatching(/^- \w+: CREATE INDEX "\w+_userId_createdAt_idx" ON public\.\w+ USING btree \("userId", "createdAt"\)$/),
    ]);
  });

  it("four migrators starting at once (each on its own connection, as separate processes are): the advisory lock lets one migrate, the others wait and find nothing left", async () => {
    const shared = (await postgresTestDatabase("race")).url;
    const runs = await Promise.all(Array.from({ length: 4 }, () => applyPendingPostgresMigrations(shared, POSTGRES_MIGRATIONS_DIR)));
    expect(runs.flat().sort()).toEqual(migrations.map((m) => m.name));
    expect(runs.filter((r) => r.length > 0)).toHaveLength(1);
    const counted = await query<{ n: string }>(shared, `SELECT COUNT(*) AS n FROM "_prisma_migrations"`);
    expect(Number(counted[0]?.n)).toBe(migrations.length);
  });

  it("a migration that fails leaves nothing half-applied and is not recorded", async () => {
    const broken = (await postgresTestDatabase("broken")).url;
    const dir = fs.mkdtempSync(`${POSTGRES_MIGRATIONS_DIR}/../.test-broken-`);
    try {
      fs.mkdirSync(`${dir}/001_ok`);
      fs.writeFileSync(`${dir}/001_ok/migration.sql`, `CREATE TABLE a (id INT PRIMARY KEY);`);
      fs.mkdirSync(`${dir}/002_bad`);
      fs.writeFileSync(`${dir}/002_bad/migration.sql`, `CREATE TABLE b (id INT PRIMARY KEY); INSERT INTO nowhere VALUES (1);`);
      await expect(applyPendingPostgresMigrations(broken, dir)).rejects.toThrow(/002_bad failed/);
      const tables = await query<{ table_name: string }>(
        broken,
        `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name`,
      );
      expect(tables.map((t) => t.table_name)).toEqual(["_prisma_migrations", "a"]);
      const recorded = await query<{ migration_name: string }>(broken, `SELECT migration_name FROM "_prisma_migrations"`);
      expect(recorded.map((r) => r.migration_name)).toEqual(["001_ok"]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
