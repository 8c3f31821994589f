"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { formAction, formDataArg, runAction, settingsRowAction, type ActionError } from "@/lib/api/action";
import { signInWithRing, signOut } from "@/lib/services/auth";
import { currentSessionToken, requireOwner, requireUser } from "@/lib/services/auth/session";
import { inviteLink, issueInvite } from "@/lib/auth/invites";
import { publicOrigin } from "@/lib/auth/origin";
import { logger } from "@/lib/log";
import { deletePendingInvite } from "@/lib/db/queries/invites";
import { deleteUserSessions } from "@/lib/db/queries/users";
import { disconnectRingAccount, removeMember } from "@/lib/services/household";
import type { CreateInviteState } from "@/lib/api/contract";
import { forgetImportsOf } from "@/lib/import/status";
import { settingsHref } from "@/lib/settings-sections";

/**
 * Server actions of Settings → Connection and Household. Each one gets the person from
 * requireUser()/requireOwner(); none takes a user id from the form. Bad arguments and
 * refusals come back as the error envelope (lib/api/action.ts), never as a 500.
 */

/** Goes through the ring's consent again (re-consent to more scopes, or after "needs reconnect"); keeps all data. */
export const reconnectRing = formAction(async (): Promise<void | ActionError> =>
  runAction(
    async () => {
      await requireUser();
      await signInWithRing(settingsHref("account"));
    },
    { signInWhenSignedOut: true },
  ),
);

const disconnectSchema = z.object({ data: z.enum(["keep", "delete"]) });

/**
 * Disconnects the ring: revokes both tokens at the service, deletes the stored tokens, keeps or
 * deletes the person's stored data as they chose, ends all their sessions and signs out.
 */
export const disconnectRing = formAction(async (form: FormData): Promise<void | ActionError> =>
  runAction(() => disconnect(form), { signInWhenSignedOut: true }),
);

async function disconnect(form: unknown): Promise<void> {
  const user = await requireUser();
  const formData = formDataArg(form);
  // The form always sends its choice: a request without one is not a disconnect.
  const { data } = disconnectSchema.parse({ data: formData.get("data") });
  const rowsDeleted = await disconnectRingAccount(user.id, data);
  await deleteUserSessions(user.id, await currentSessionToken());
  logger.info({ userId: user.id, data, rowsDeleted }, "ring disconnected");
  await signOut({ redirectTo: "/sign-in?disconnected=1" });
}

/** Owner only: a single-use invite link that expires in 7 days. The link is shown once. */
export async function createInviteLink(_prev: CreateInviteState, _formData: FormData): Promise<CreateInviteState> {
  return runAction(async () => {
    const owner = await requireOwner();
    const invite = await issueInvite(owner.id);
    const origin = await publicOrigin();
    logger.info({ userId: owner.id, inviteId: invite.id }, "invite created");
    revalidatePath("/settings", "layout");
    return { link: inviteLink(origin, invite.secret), expiresAt: invite.expiresAt.toISOString() };
  });
}

/** Owner only: revokes a pending invite. */
export const revokeInvite = settingsRowAction(requireOwner, "inviteId", async (owner, inviteId) => {
  const removed = await deletePendingInvite(inviteId);
  logger.info({ userId: owner.id, inviteId, removed }, "invite revoked");
});

/** Owner only: removes a member with their data, tokens, alert channels and sessions. */
export const removeMemberAction = settingsRowAction(requireOwner, "memberId", (owner, memberId) =>
  removeMember(owner.id, memberId, { beforeDelete: forgetImportsOf }),
);
