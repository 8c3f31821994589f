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
