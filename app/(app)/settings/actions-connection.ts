"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { signIn, signOut } from "@/lib/auth";
import { currentSessionToken, requireOwner, requireUser } from "@/lib/auth/session";
import { inviteLink, issueInvite } from "@/lib/auth/invites";
import { publicOrigin } from "@/lib/auth/origin";
import { logger } from "@/lib/log";
import { disconnectAccount, findRingAccountByUserId, readTokenRow } from "@/lib/db/queries/accounts";
import { deletePendingInvite } from "@/lib/db/queries/invites";
import { deleteUserData, deleteUserSessions, findUserById } from "@/lib/db/queries/users";
import { decryptToken } from "@/lib/ring/crypto";
import { revokeAccessToken } from "@/lib/ring/oauth";

/**
 * Server actions of Settings → Connection and Household. Each one gets the person from
 * requireUser()/requireOwner(); none takes a user id from the form.
 */

/** Goes through the ring's consent again (re-consent to more scopes, or after "needs reconnect"); keeps all data. */
export async function reconnectRing(): Promise<void> {
  await requireUser();
  await signIn("ring", { redirectTo: "/settings" });
}

const disconnectSchema = z.object({ data: z.enum(["keep", "delete"]) });

/**
 * Disconnects the ring: revokes the token at the service, deletes the stored tokens, keeps or
 * deletes the person's stored data as they chose, ends all their sessions and signs out.
 */
export async function disconnectRing(formData: FormData): Promise<void> {
  const user = await requireUser();
  const { data } = disconnectSchema.parse({ data: formData.get("data") ?? "keep" });
  const account = await findRingAccountByUserId(user.id);
  if (account) {
    const row = readTokenRow(account.accountId);
    const stored = row?.access_token ?? row?.refresh_token ?? null;
    if (stored) {
      let token: string | null = null;
      try {
        token = decryptToken(stored);
      } catch {
        token = null; // unreadable: nothing to revoke with
      }
      if (token) await revokeAccessToken(token, "disconnect");
    }
    await disconnectAccount(account.accountId, user.id);
  }
  let deleted: Record<string, number> | null = null;
  if (data === "delete") {
    const person = await findUserById(user.id);
    deleted = await deleteUserData(user.id, person?.ringUserId ?? null);
  }
  await deleteUserSessions(user.id, await currentSessionToken());
  logger.info(
    { userId: user.id, data, rowsDeleted: deleted ? Object.values(deleted).reduce((a, b) => a + b, 0) : 0 },
    "ring disconnected",
  );
  await signOut({ redirectTo: "/sign-in?disconnected=1" });
}

export type CreateInviteState = { link?: string; expiresAt?: string; error?: string };

/** Owner only: a single-use invite link that expires in 7 days. The link is shown once. */
export async function createInviteLink(_prev: CreateInviteState, _formData: FormData): Promise<CreateInviteState> {
  let owner;
  try {
    owner = await requireOwner();
  } catch {
    return { error: "Only the owner can invite people." };
  }
  const invite = await issueInvite(owner.id);
  const origin = await publicOrigin();
  logger.info({ userId: owner.id, inviteId: invite.id }, "invite created");
  revalidatePath("/settings");
  return { link: inviteLink(origin, invite.secret), expiresAt: invite.expiresAt.toISOString() };
}

const inviteIdSchema = z.object({ inviteId: z.string().min(1).max(64) });

/** Owner only: revokes a pending invite. */
export async function revokeInvite(formData: FormData): Promise<void> {
  const owner = await requireOwner();
  const { inviteId } = inviteIdSchema.parse({ inviteId: formData.get("inviteId") });
  const removed = await deletePendingInvite(inviteId);
  logger.info({ userId: owner.id, inviteId, removed }, "invite revoked");
  revalidatePath("/settings");
}
