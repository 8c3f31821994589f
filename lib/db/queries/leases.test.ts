// Named leases (one process at a time for the daily backup), held to both databases.
import { beforeEach, describe, expect, it } from "vitest";
import { leaseStore, type LeaseStore } from "@/lib/db/queries/app-settings";
import { useMigratedPostgres } from "@/lib/test/postgres";
import { db, otherSqliteClient, pgClient } from "@/lib/test/prisma";

const pg = useMigratedPostgres("leases");

const backends: Array<{ name: string; store: () => LeaseStore; clear: () => Promise<void> }> = [
  { name: "sqlite", store: () => leaseStore(otherSqliteClient()), clear: async () => void (await db.appSetting.deleteMany()) },
  {
    name: "postgresql",
    store: () => leaseStore(pgClient(pg.otherProcess)),
    clear: async () => void (await pg.pool().query(`DELETE FROM "AppSetting"`)),
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
