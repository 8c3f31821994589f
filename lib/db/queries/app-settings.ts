import "server-only";
import { clock } from "@/lib/clock";
import type { z } from "zod";
import { dbProvider, prisma, type Db, type ProcessDb } from "@/lib/db/prisma";
import { processSingleton } from "@/lib/process-singleton";

// Instance-wide key/value settings (AppSetting), values stored as JSON text.

/** Reads a setting and validates it; undefined when missing or not valid. */
export async function getAppSetting<T extends z.ZodType>(key: string, schema: T): Promise<z.infer<T> | undefined> {
  const row = await prisma().appSetting.findUnique({ where: { key }, select: { value: true } });
  if (!row) return undefined;
  try {
    const parsed = schema.safeParse(JSON.parse(row.value));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export async function setAppSetting(key: string, value: unknown): Promise<void> {
  await settingWrite(prisma(), key, JSON.stringify(value));
}

export async function deleteAppSetting(key: string): Promise<void> {
  await prisma().appSetting.deleteMany({ where: { key } });
}

/** Every setting whose key starts with `prefix` (raw JSON values). */
export function listAppSettings(prefix: string): Promise<Array<{ key: string; value: string }>> {
  return prisma().appSetting.findMany({ where: { key: { gte: prefix, lt: `${prefix}\uffff` } }, select: { key: true, value: true }, orderBy: { key: "asc" } });
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
 * on SQLite an IMMEDIATE one (one writer at a time: lib/db/prisma-sqlite.ts); on PostgreSQL
 * under a transaction-scoped advisory lock on the lease's key, so two processes claiming at once
 * are ordered even when no row exists yet. Held to the same tests on both databases (leases.test.ts).
 */
export interface LeaseStore {
  /**
   * True when `holder` has the lease `name` until `now + ttlMs` (it was free, had run out, or
   * was already this holder's); false while another holder's lease runs.
   */
  claim(name: string, holder: string, ttlMs: number, now?: number): Promise<boolean>;
}

export const leaseSettingKey = (name: string) => `lease:${name}`;

/** Writes a setting (on the process's client, or as a step of the caller's transaction). */
export async function settingWrite(db: Db, key: string, value: string): Promise<void> {
  const updatedAt = clock.date();
  await db.appSetting.upsert({ where: { key }, create: { key, value, updatedAt }, update: { value, updatedAt } });
}

/** The leases on a database (by default the process's). */
export function leaseStore(db: ProcessDb = prisma()): LeaseStore {
  return {
    claim(name, holder, ttlMs, now = clock.now()) {
      const key = leaseSettingKey(name);
      return db.$transaction(async (tx) => {
        // PostgreSQL: processes claiming at once wait here, one after the other (SQLite: the IMMEDIATE transaction is the lock)
        if (dbProvider(tx) === "postgresql") await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${key}))`;
        const row = await tx.appSetting.findUnique({ where: { key }, select: { value: true } });
        if (!leaseFree(row?.value, holder, now)) return false;
        await settingWrite(tx, key, JSON.stringify({ holder, until: now + ttlMs }));
        return true;
      });
    },
  };
}

export const claimLease = (name: string, holder: string, ttlMs: number, now = clock.now()) =>
  processSingleton("leaseStore", () => leaseStore()).claim(name, holder, ttlMs, now);
