import "server-only";
import { db } from "@/lib/db";
import { rawDb } from "@/lib/db/raw";
import { AppError } from "@/lib/api/errors";
import { COLLECTIONS } from "@/lib/metrics/catalog";
import type { Preferences } from "@/lib/api/schemas";

// The person's preferences and the "delete all my data" action.

export async function getPreferences(userId: string): Promise<Preferences> {
  const u = await db.user.findUnique({ where: { id: userId }, select: { units: true, theme: true } });
  if (!u) throw new AppError("not_found", "No such person.");
  return {
    units: u.units === "imperial" ? "imperial" : "metric",
    theme: u.theme === "light" || u.theme === "dark" ? u.theme : "system",
  };
}

export async function updatePreferences(userId: string, patch: Partial<Preferences>): Promise<Preferences> {
  await db.user.update({ where: { id: userId }, data: patch });
  return getPreferences(userId);
}

/** Tables holding the person's health data and their own notes (all keyed by userId). */
const DATA_TABLES = [
  ...Object.values(COLLECTIONS).map((c) => c.table),
  "personal_info",
  "rejected_document",
  "day_tag",
  "day_note",
  "tag",
  "sync_state",
] as const;

export type DeletedCounts = Record<string, number>;

/**
 * Deletes every ring document, the personal info, notes, tags and the sync checkpoints of the
 * person, in one transaction. The account (sign-in and ring connection) stays, so the next
 * sync downloads the history again from scratch unless the person disconnects.
 */
export function deleteAllUserData(userId: string): DeletedCounts {
  const raw = rawDb();
  const counts: DeletedCounts = {};
  raw.transaction(() => {
    for (const t of DATA_TABLES) {
      counts[t] = raw.prepare(`DELETE FROM "${t}" WHERE userId = ?`).run(userId).changes;
    }
  })();
  return counts;
}
