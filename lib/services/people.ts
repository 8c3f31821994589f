import "server-only";
import { AppError } from "@/lib/http/errors";
import type { Preferences } from "@/lib/schemas/requests";
import { findPreferences, updatePreferences as writePreferences } from "@/lib/db/queries/preferences";
import { deleteUserData, findUserById } from "@/lib/db/queries/users";
import { forgetImportsOf } from "@/lib/import/status";
import { stopSyncOf } from "@/lib/sync";
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
 * "Delete all my data": the person's import is stopped and forgotten with its spool (an
 * interrupted one can no longer be resumed); then, in one transaction (lib/db/queries/users.ts
 * deleteUserData, shared with disconnect and the household's removal of a member), their sync
 * generation moves on and their sync is paused, their share links are revoked, and every ring
 * document, the personal info, notes, tags, sync checkpoints and queued jobs go; then the syncs
 * of theirs running in this process are stopped where they are. The sign-in and the ring
 * connection stay; nothing syncs again until the person presses "Download my history again". Publishing to
 * Home Assistant ends first: their device disappears from it.
 */
export async function deleteAllMyData(userId: string): Promise<DeletedCounts> {
  const user = await findUserById(userId);
  if (!user) throw new AppError("not_found", "No such person.");
  await endHomeAssistant(userId);
  await forgetImportsOf(userId);
  const deleted = await deleteUserData(userId, user.ringUserId ?? null, { pauseSync: true, revokeReportLinks: true });
  stopSyncOf(userId);
  return deleted;
}
