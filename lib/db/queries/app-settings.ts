import "server-only";
import { clock } from "@/lib/clock";
import type Database from "better-sqlite3";
import type { z } from "zod";
import { rawDb } from "@/lib/db";
import { all, dialect, get, postgresPool, query, run, type Work } from "@/lib/db/sql";
import { postgresLeaseStore } from "@/lib/db/queries/app-settings-postgres";
import { toDbTime } from "@/lib/db/dialect";

// Instance-wide key/value settings (AppSetting), values stored as JSON text.

/** Reads a setting and validates it; undefined when missing or not valid. */
export async function getAppSetting<T extends z.ZodType>(key: string, schema: T): Promise<z.infer<T> | undefined> {
  const row = await query(get<{ value: string }>(`SELECT value FROM "AppSetting" WHERE key = ?`, key));
  if (!row) return undefined;
  try {
    const parsed = schema.safeParse(JSON.parse(row.value));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export async function setAppSetting(key: string, value: unknown): Promise<void> {
  await query(writeAppSetting(key, value));
}

/** Sets a setting as a step of the caller's work (a transaction's checkpoint). */
export function* writeAppSetting(key: string, value: unknown): Work<number> {
  return yield* run(
    `INSERT INTO "AppSetting" (key, value, updatedAt) VALUES (?, ?, ?)
       ON CONFLICT(key) DO UPDATE SET value = excluded.value, updatedAt = excluded.updatedAt`,
    key,
    JSON.stringify(value),
    toDbTime(clock.date()),
  );
}

export async function deleteAppSetting(key: string): Promise<void> {
  await query(run(`DELETE FROM "AppSetting" WHERE key = ?`, key));
}

/** Every setting whose key starts with `prefix` (raw JSON values). */
export function listAppSettings(prefix: string): Promise<Array<{ key: string; value: string }>> {
  return query(all<{ key: string; value: string }>(`SELECT key, value FROM "AppSetting" WHERE key >= ? AND key < ? ORDER BY key`, prefix, `${prefix}\uffff`));
}

/** A stored lease's holder and end, or nothing (an unreadable lease is a free one). */
export function parseLease(value: string | undefined): { holder?: unknown; until?: unknown } {
  try {
    return value ? (JSON.parse(value) as { holder?: unknown; until?: unknown }) : {};
  } catch {
    return {};
  }
}

/** Whether `holder` may take (or renew) a lease stored as `value` at `now`. */
export function leaseFree(value: string | undefined, holder: string, now: number): boolean {
  const current = parseLease(value);
  return current.holder === holder || typeof current.until !== "number" || current.until <= now;
}

/**
 * Named leases among the processes that share the database. Work that must run on one process
 * at a time (the daily backup) takes one first. One contract, one implementation per database
 * (PostgreSQL's in app-settings-postgres.ts), held to the same tests (leases.test.ts).
 */
export interface LeaseStore {
  /**
   * True when `holder` has the lease `name` until `now + ttlMs` (it was free, had run out, or
   * was already this holder's); false while another holder's lease runs.
   */
  claim(name: string, holder: string, ttlMs: number, now?: number): Promise<boolean>;
}

export const leaseSettingKey = (name: string) => `lease:${name}`;

/** SQLite: read and write in one IMMEDIATE transaction (one writer at a time). */
export function sqliteLeaseStore(open: () => Database.Database = rawDb): LeaseStore {
  return {
    async claim(name, holder, ttlMs, now = clock.now()) {
      const db = open();
      const key = leaseSettingKey(name);
      const claim = db.transaction(() => {
        const row = db.prepare(`SELECT value FROM "AppSetting" WHERE key = ?`).get(key) as { value: string } | undefined;
        if (!leaseFree(row?.value, holder, now)) return false;
        db.prepare(
          `INSERT INTO "AppSetting" (key, value, updatedAt) VALUES (?, ?, ?)
       ON CONFLICT(key) DO UPDATE SET value = excluded.value, updatedAt = excluded.updatedAt`,
        ).run(key, JSON.stringify({ holder, until: now + ttlMs }), toDbTime(clock.date()));
        return true;
      });
      return claim.immediate();
    },
  };
}

// The process's leases, on the database it runs on.
const globalForLeases = globalThis as unknown as { ringsideLeases?: LeaseStore };

export const claimLease = (name: string, holder: string, ttlMs: number, now = clock.now()) =>
  (globalForLeases.ringsideLeases ??= dialect() === "postgres" ? postgresLeaseStore(postgresPool()) : sqliteLeaseStore()).claim(name, holder, ttlMs, now);
