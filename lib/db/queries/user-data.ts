import "server-only";
import { db } from "@/lib/db";
import { AppError } from "@/lib/api/errors";
import { deleteUserData, findUserById } from "@/lib/db/queries/users";
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

export type DeletedCounts = Record<string, number>;

/**
 * "Delete all my data": every ring document, the personal info, notes, tags, sync checkpoints
 * and queued jobs of the person, in one transaction (lib/db/queries/users.ts deleteUserData,
 * shared with the household's removal of a member). The sign-in and the ring connection stay,
 * so the next sync downloads the history again unless the person disconnects first.
 */
export async function deleteAllMyData(userId: string): Promise<DeletedCounts> {
  const user = await findUserById(userId);
  if (!user) throw new AppError("not_found", "No such person.");
  return deleteUserData(userId, user.ringUserId ?? null);
}
