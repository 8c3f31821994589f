// Named leases (one process at a time for the daily backup), held to both databases.
import type pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { rawDb } from "@/lib/db";
import { applyPendingPostgresMigrations } from "@/lib/db/migrate-postgres.mjs";
import { createPostgresPool } from "@/lib/db/postgres";
import { sqliteLeaseStore, type LeaseStore } from "@/lib/db/queries/app-settings";
import { postgresLeaseStore } from "@/lib/db/queries/app-settings-postgres";
import { POSTGRES_MIGRATIONS_DIR } from "@/prisma/generate-models";
import { postgresTestDatabase } from "@/lib/test/postgres";

const pools: pg.Pool[] = [];
let pgUrl = "";

beforeAll(async () => {
  pgUrl = (await postgresTestDatabase("leases")).url;
  await applyPendingPostgresMigrations(pgUrl, POSTGRES_MIGRATIONS_DIR);
  pools.push(createPostgresPool(pgUrl, { max: 2 }));
});

afterAll(async () => {
  await Promise.all(pools.map((p) => p.end()));
});

const backends: Array<{ name: string; store: () => LeaseStore; clear: () => Promise<void> }> = [
  { name: "sqlite", store: () => sqliteLeaseStore(), clear: async () => void rawDb().prepare(`DELETE FROM "AppSetting"`).run() },
  {
    name: "postgresql",
    store: () => {
      const pool = createPostgresPool(pgUrl, { max: 2 });
      pools.push(pool);
      return postgresLeaseStore(pool);
    },
    clear: async () => void (await pools[0]!.query(`DELETE FROM "AppSetting"`)),
  },
];

describe.each(backends)("leases on $name", (b) => {
  beforeEach(() => b.clear());

  it("one holder at a time until the lease runs out; the holder may renew its own; leases are by name", async () => {
    const leases = b.store();
    const t = 1_800_000_000_000;
    expect(await leases.claim("test-lease", "a", 1_000, t)).toBe(true);
    expect(await leases.claim("test-lease", "b", 1_000, t + 500)).toBe(false);
    expect(await leases.claim("test-lease", "a", 1_000, t + 600)).toBe(true); // renewed until t + 1600
    expect(await leases.claim("test-lease", "b", 1_000, t + 1_500)).toBe(false);
    expect(await leases.claim("test-lease", "b", 1_000, t + 1_601)).toBe(true);
    expect(await leases.claim("test-lease", "a", 1_000, t + 1_700)).toBe(false);
    expect(await leases.claim("other-lease", "a", 1_000, t + 1_700)).toBe(true);
  });

  it("five processes claiming a lease nobody holds yet at the same moment: one gets it, every time", async () => {
    const processes = Array.from({ length: 5 }, () => b.store());
    for (let round = 0; round < 10; round++) {
      await b.clear();
      const got = await Promise.all(processes.map((p, i) => p.claim("daily-backup", `proc-${i}`, 60_000)));
      expect({ round, holders: got.filter(Boolean).length }).toEqual({ round, holders: 1 });
    }
  });
});
