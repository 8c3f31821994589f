import "server-only";
import { clock } from "@/lib/clock";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";

/**
 * Household invites: single-use, expiring links. Only the sha256 of the secret is stored
 * (`tokenHash`); the secret itself exists only in the link the owner hands out.
 */

export async function createInvite(options: { createdById: string; tokenHash: string; expiresAt: Date }) {
  return db.invite.create({
    data: { createdById: options.createdById, tokenHash: options.tokenHash, expiresAt: options.expiresAt },
    select: { id: true, expiresAt: true, createdAt: true },
  });
}

/** The invite with this hash when it is still usable (not used, not expired). */
export async function findUsableInviteByHash(tokenHash: string, now = clock.date()) {
  return db.invite.findFirst({
    where: { tokenHash, usedAt: null, expiresAt: { gt: now } },
    select: { id: true, expiresAt: true, createdById: true },
  });
}

/** Marks the invite used by this person; false when it was used or expired meanwhile. */
export async function consumeInvite(
  options: { inviteId: string; userId: string; now?: Date },
  client: Prisma.TransactionClient | typeof db = db,
): Promise<boolean> {
  const now = options.now ?? clock.date();
  const { count } = await client.invite.updateMany({
    where: { id: options.inviteId, usedAt: null, expiresAt: { gt: now } },
    data: { usedAt: now, usedByUserId: options.userId },
  });
  return count === 1;
}

export type PendingInvite = { id: string; createdAt: Date; expiresAt: Date; createdByEmail: string | null };

/** Invites not yet used and not expired, newest first. */
export async function listPendingInvites(now = clock.date()): Promise<PendingInvite[]> {
  const rows = await db.invite.findMany({
    where: { usedAt: null, expiresAt: { gt: now } },
    orderBy: { createdAt: "desc" },
    select: { id: true, createdAt: true, expiresAt: true, createdBy: { select: { email: true } } },
  });
  return rows.map((r) => ({ id: r.id, createdAt: r.createdAt, expiresAt: r.expiresAt, createdByEmail: r.createdBy.email }));
}

/** Revokes (deletes) an invite that has not been used. Returns whether one was removed. */
export async function deletePendingInvite(inviteId: string): Promise<boolean> {
  const { count } = await db.invite.deleteMany({ where: { id: inviteId, usedAt: null } });
  return count === 1;
}
