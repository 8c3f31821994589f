import "server-only";
import { db } from "@/lib/db";
import type { Preferences } from "@/lib/api/schemas";

// The person's preferences.

/** The person's preferences, or null when there is no such person. */
export async function findPreferences(userId: string): Promise<Preferences | null> {
  const u = await db.user.findUnique({ where: { id: userId }, select: { units: true, theme: true } });
  if (!u) return null;
  return {
    units: u.units === "imperial" ? "imperial" : "metric",
    theme: u.theme === "light" || u.theme === "dark" ? u.theme : "system",
  };
}

export async function updatePreferences(userId: string, patch: Partial<Preferences>): Promise<void> {
  // units change the answers' numbers: the same bump as a data change
  await db.user.update({ where: { id: userId }, data: { ...patch, dataVersion: { increment: 1 } } });
}
