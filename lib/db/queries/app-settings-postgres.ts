import "server-only";
import { clock } from "@/lib/clock";
import type pg from "pg";
import { toDbTime } from "@/lib/db/dialect";
import { inTransaction } from "@/lib/db/postgres";
import { leaseFree, leaseSettingKey, type LeaseStore } from "@/lib/db/queries/app-settings";

// Named leases on PostgreSQL (the contract and SQLite's form are in app-settings.ts): the
// read-decide-write runs in one transaction under a transaction-scoped advisory lock on the
// lease's key, so two processes claiming at once are ordered even when no row exists yet.

export function postgresLeaseStore(pool: pg.Pool): LeaseStore {
  return {
    async claim(name, holder, ttlMs, now = clock.now()) {
      const key = leaseSettingKey(name);
      return inTransaction(pool, async (c) => {
        await c.query("SELECT pg_advisory_xact_lock(hashtext($1))", [key]);
        const row = (await c.query<{ value: string }>(`SELECT value FROM "AppSetting" WHERE key = $1`, [key])).rows[0];
        const free = leaseFree(row?.value, holder, now);
        if (free) {
          await c.query(
            `INSERT INTO "AppSetting" (key, value, "updatedAt") VALUES ($1, $2, $3)
             ON CONFLICT (key) DO UPDATE SET value = excluded.value, "updatedAt" = excluded."updatedAt"`,
            [key, JSON.stringify({ holder, until: now + ttlMs }), toDbTime(clock.date())],
          );
        }
        return free;
      });
    },
  };
}
