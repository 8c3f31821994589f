import "server-only";
import type { z } from "zod";
import { rawDb } from "@/lib/db";
import { toDbTime } from "@/lib/db/dialect";

// Instance-wide key/value settings (AppSetting), values stored as JSON text.

/** Reads a setting and validates it; undefined when missing or not valid. */
export function getAppSetting<T extends z.ZodType>(key: string, schema: T): z.infer<T> | undefined {
  const row = rawDb().prepare(`SELECT value FROM "AppSetting" WHERE key = ?`).get(key) as { value: string } | undefined;
  if (!row) return undefined;
  try {
    const parsed = schema.safeParse(JSON.parse(row.value));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export function setAppSetting(key: string, value: unknown): void {
  rawDb()
    .prepare(
      `INSERT INTO "AppSetting" (key, value, updatedAt) VALUES (?, ?, ?)
       ON CONFLICT(key) DO UPDATE SET value = excluded.value, updatedAt = excluded.updatedAt`,
    )
    .run(key, JSON.stringify(value), toDbTime(new Date()));
}

export function deleteAppSetting(key: string): void {
  rawDb().prepare(`DELETE FROM "AppSetting" WHERE key = ?`).run(key);
}

/** Every setting whose key starts with `prefix` (raw JSON values). */
export function listAppSettings(prefix: string): Array<{ key: string; value: string }> {
  return rawDb()
    .prepare(`SELECT key, value FROM "AppSetting" WHERE key >= ? AND key < ? ORDER BY key`)
    .all(prefix, `${prefix}\uffff`) as Array<{ key: string; value: string }>;
}

/**
 * A named lease among the processes that share the database: true when `holder` has it until
 * `now + ttlMs` (it was free, had run out, or was already this holder's). Work that must run on
 * one process at a time (the daily backup) takes one first.
 */
export function claimLease(name: string, holder: string, ttlMs: number, now = Date.now()): boolean {
  const db = rawDb();
  const key = `lease:${name}`;
  const claim = db.transaction(() => {
    const row = db.prepare(`SELECT value FROM "AppSetting" WHERE key = ?`).get(key) as { value: string } | undefined;
    let current: { holder?: unknown; until?: unknown } = {};
    try {
      current = row ? (JSON.parse(row.value) as typeof current) : {};
    } catch {
      /* an unreadable lease is a free one */
    }
    if (current.holder !== holder && typeof current.until === "number" && current.until > now) return false;
    setAppSetting(key, { holder, until: now + ttlMs });
    return true;
  });
  return claim.immediate();
}
