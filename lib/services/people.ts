import "server-only";
import { AppError } from "@/lib/http/errors";
import type { Preferences } from "@/lib/schemas/requests";
import { findPreferences, updatePreferences as writePreferences } from "@/lib/db/queries/preferences";
import { deleteUserData, findUserById } from "@/lib/db/queries/users";
import { endHomeAssistant } from "@/lib/services/home-assistant";

// A signed-in person's own things: preferences and "delete all my data".

export async function getPreferences(userId: string): Promise<Preferences> {
  const prefs = await findPreferences(userId);
  if (!prefs) throw new AppError("not_found", "No such person.");
  return prefs;
}

export async function updatePreferences(userId: string, patch: Partial<Preferences>): Promise<Preferences> {
  await writePreferences(userId, patch);
  return getPreferences(userId);
}

export type DeletedCounts = Record<string, number>;

/**
 * "Delete all my data": every ring document, the personal info, notes, tags, sync checkpoints
 * and queued jobs of the person, in one transaction (lib/db/queries/users.ts deleteUserData,
 * shared with the household's removal of a member). The sign-in and the ring connection stay,
 * so the next sync downloads the history again unless the person disconnects first. Publishing to
 * Home Assistant ends first: their device disappears from it.
 */
export async function deleteAllMyData(userId: string): Promise<DeletedCounts> {
  const user = await findUserById(userId);
  if (!user) throw new AppError("not_found", "No such person.");
  await endHomeAssistant(userId);
  return deleteUserData(userId, user.ringUserId ?? null);
}
