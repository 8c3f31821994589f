import "server-only";
import { clock } from "@/lib/clock";
import type { z } from "zod";
import { all, get, processDatabase, query, run, sqlDialect, type Database, type Work } from "@/lib/db/sql";
import { toDbTime } from "@/lib/db/dialect";
import { processSingleton } from "@/lib/process-singleton";

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
  await query(settingWrite(key, JSON.stringify(value)));
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
 * at a time (the daily backup) takes one first. The read-decide-write runs in one transaction:
 * on SQLite an IMMEDIATE one (one writer at a time); on PostgreSQL under a transaction-scoped
 * advisory lock on the lease's key, so two processes claiming at once are ordered even when no
 * row exists yet. Held to the same tests on both databases (leases.test.ts).
 */
export interface LeaseStore {
  /**
   * True when `holder` has the lease `name` until `now + ttlMs` (it was free, had run out, or
   * was already this holder's); false while another holder's lease runs.
   */
  claim(name: string, holder: string, ttlMs: number, now?: number): Promise<boolean>;
}

export const leaseSettingKey = (name: string) => `lease:${name}`;

/** Writes a setting (a step of the caller's work). */
export function* settingWrite(key: string, value: string): Work<void> {
  yield* run(
    `INSERT INTO "AppSetting" (key, value, updatedAt) VALUES (?, ?, ?)
     ON CONFLICT(key) DO UPDATE SET value = excluded.value, updatedAt = excluded.updatedAt`,
    key,
    value,
    toDbTime(clock.date()),
  );
}

/** The leases on a database (by default the process's). */
export function leaseStore(db: Database = processDatabase()): LeaseStore {
  return {
    claim(name, holder, ttlMs, now = clock.now()) {
      const key = leaseSettingKey(name);
      return db.transaction(function* () {
        if ((yield* sqlDialect()) === "postgres") yield* get(`SELECT pg_advisory_xact_lock(hashtext(?))`, key);
        const row = yield* get<{ value: string }>(`SELECT value FROM "AppSetting" WHERE key = ?`, key);
        if (!leaseFree(row?.value, holder, now)) return false;
        yield* settingWrite(key, JSON.stringify({ holder, until: now + ttlMs }));
        return true;
      });
    },
  };
}

export const claimLease = (name: string, holder: string, ttlMs: number, now = clock.now()) =>
  processSingleton("leaseStore", () => leaseStore()).claim(name, holder, ttlMs, now);
