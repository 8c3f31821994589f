import "server-only";
import { clock } from "@/lib/clock";
import { announceDataChange } from "@/lib/db/data-changes";
import { prisma } from "@/lib/db/prisma";
import type { Preferences } from "@/lib/preferences";

// The person's preferences (their values: lib/preferences.ts).

/** The person's preferences, or null when there is no such person. */
export async function findPreferences(userId: string): Promise<Preferences | null> {
  const u = await prisma().user.findUnique({ where: { id: userId }, select: { units: true, theme: true } });
  if (!u) return null;
  return {
    units: u.units === "imperial" ? "imperial" : "metric",
    theme: u.theme === "light" || u.theme === "dark" ? u.theme : "system",
  };
}

export async function updatePreferences(userId: string, patch: Partial<Preferences>): Promise<void> {
  // units change the answers' numbers: the same bump as a data change
  await prisma().user.updateMany({
    where: { id: userId },
    data: { units: patch.units, theme: patch.theme, dataVersion: { increment: 1 }, updatedAt: clock.date() },
  });
  announceDataChange(userId);
}
