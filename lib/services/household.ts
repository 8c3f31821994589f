import "server-only";
import { AppError } from "@/lib/http/errors";
import { apiRateLimiter } from "@/lib/limits/api-limiter";
import { logger } from "@/lib/log";
import { disconnectAccount, findRingAccountByUserId, readTokenRow } from "@/lib/db/queries/accounts";
import { deleteApiTokensOf } from "@/lib/db/queries/api-tokens";
import { deleteUser, deleteUserData, findUserById } from "@/lib/db/queries/users";
import { decryptToken } from "@/lib/ring/crypto";
import { revokeToken } from "@/lib/ring/oauth";
import { stopSyncOf } from "@/lib/sync";
import { forgetImportsOf } from "@/lib/import/status";
import { endHomeAssistant } from "@/lib/services/home-assistant";

// The household as the owner manages it, and a person's ring access as both "Disconnect" and
// the owner's removal of a member end it.

/**
 * Stops all use of the person's ring connection and hands the access back to the ring service
 * (both tokens: a service need not end the refresh token with its access token, RFC 7009
 * §2.1). An unreadable token has nothing to revoke with; a revocation that fails is the
 * service's to forget. No-op without a connection.
 */
export async function endRingAccess(userId: string, reason: string): Promise<void> {
  const account = await findRingAccountByUserId(userId);
  if (!account) return;
  const row = await readTokenRow(account.accountId);
  const readable = (stored: string | null | undefined): string | null => {
    try {
      return stored ? decryptToken(stored) : null;
    } catch {
      return null;
    }
  };
  const accessToken = readable(row?.access_token);
  const refreshToken = readable(row?.refresh_token);
  // first stop all use of the connection: its sync generation moves on (nothing in flight is
  // stored after this) and its syncs running here are stopped where they are
  await disconnectAccount(account.accountId, userId);
  stopSyncOf(userId);
  await Promise.all([
    accessToken ? revokeToken(accessToken, "access_token", reason) : null,
    refreshToken ? revokeToken(refreshToken, "refresh_token", reason) : null,
  ]);
}

/**
 * "Disconnect" (Settings → Connection): ends the ring access, then keeps or deletes the person's
 * stored data as they chose (deleted: their import and its spool go first, their share links
 * are revoked with the data). Nothing a sync had in flight is stored after it (the fence,
 * lib/db/queries/sync-fence.ts). Returns how many rows were deleted.
 */
export async function disconnectRingAccount(userId: string, data: "keep" | "delete"): Promise<number> {
  await endRingAccess(userId, "disconnect");
  if (data === "keep") return 0;
  const person = await findUserById(userId);
  await forgetImportsOf(userId);
  return Object.values(await deleteUserData(userId, person?.ringUserId ?? null, { revokeReportLinks: true })).reduce((a, b) => a + b, 0);
}

/**
 * The owner removes a member: the ring access is handed back, then the member's data, API
 * tokens, alert rules and channels, sessions and the person themselves are deleted. A removed
 * member can come back only with a new invite. The owner cannot remove themselves.
 */
export async function removeMember(
  ownerId: string,
  memberId: string,
  opts: {
    /** runs once the removal is allowed, before anything is deleted: the member's import is stopped and forgotten (lib/import/run.ts) */
    beforeDelete?: (memberId: string) => Promise<void>;
  } = {},
): Promise<{ rowsDeleted: number; apiTokens: number }> {
  const owner = await findUserById(ownerId);
  if (owner?.role !== "owner") throw new AppError("forbidden", "Only the owner of this Ringside can do that.");
  if (memberId === ownerId) throw new AppError("unprocessable_entity", "The owner cannot remove themselves.");
  const member = await findUserById(memberId);
  if (!member || member.role !== "member") throw new AppError("not_found", "No such member.");
  await opts.beforeDelete?.(memberId);
  await endRingAccess(memberId, "member removed");
  // their device disappears from Home Assistant
  await endHomeAssistant(memberId);
  const deleted = await deleteUserData(memberId, member.ringUserId ?? null);
  const tokens = await deleteApiTokensOf(memberId);
  for (const id of tokens) apiRateLimiter().drop(id);
  // sessions, the ring account, alert rules, channels and settings, invites they made, and every
  // row naming them without a foreign key: with the person (a sync of theirs finds no generation)
  await deleteUser(memberId);
  stopSyncOf(memberId);
  const rowsDeleted = Object.values(deleted).reduce((a, b) => a + b, 0);
  logger.info({ userId: ownerId, memberId, rowsDeleted, apiTokens: tokens.length }, "member removed");
  return { rowsDeleted, apiTokens: tokens.length };
}
