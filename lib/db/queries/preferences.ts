import "server-only";
import { clock } from "@/lib/clock";
import { announceDataChange } from "@/lib/db/data-changes";
import { toDbTime } from "@/lib/db/dialect";
import { get, query, run } from "@/lib/db/sql";
import type { Preferences } from "@/lib/preferences";

// The person's preferences (their values: lib/preferences.ts).

/** The person's preferences, or null when there is no such person. */
export async function findPreferences(userId: string): Promise<Preferences | null> {
  const u = await query(get<{ units: string; theme: string }>(`SELECT units, theme FROM "User" WHERE id = ?`, userId));
  if (!u) return null;
  return {
    units: u.units === "imperial" ? "imperial" : "metric",
    theme: u.theme === "light" || u.theme === "dark" ? u.theme : "system",
  };
}

export async function updatePreferences(userId: string, patch: Partial<Preferences>): Promise<void> {
  // units change the answers' numbers: the same bump as a data change
  await query(
    run(
      `UPDATE "User" SET units = COALESCE(?, units), theme = COALESCE(?, theme), dataVersion = dataVersion + 1, updatedAt = ? WHERE id = ?`,
      patch.units ?? null,
      patch.theme ?? null,
      toDbTime(clock.date()),
      userId,
    ),
  );
  announceDataChange(userId);
}
