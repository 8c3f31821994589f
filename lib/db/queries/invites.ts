import "server-only";
import { clock } from "@/lib/clock";
import { prisma, type Db } from "@/lib/db/prisma";

/**
 * Household invites: single-use, expiring links. Only the sha256 of the secret is stored
 * (`tokenHash`); the secret itself exists only in the link the owner hands out.
 */

export async function createInvite(options: {
  createdById: string;
  tokenHash: string;
  expiresAt: Date;
}): Promise<{ id: string; expiresAt: Date; createdAt: Date }> {
  return prisma().invite.create({
    data: { id: crypto.randomUUID(), tokenHash: options.tokenHash, createdById: options.createdById, expiresAt: options.expiresAt, createdAt: clock.date() },
    select: { id: true, expiresAt: true, createdAt: true },
  });
}

/** The invite with this hash when it is still usable (not used, not expired). */
export function findUsableInviteByHash(tokenHash: string, now = clock.date()): Promise<{ id: string; expiresAt: Date; createdById: string } | null> {
  return prisma().invite.findFirst({
    where: { tokenHash, usedAt: null, expiresAt: { gt: now } },
    select: { id: true, expiresAt: true, createdById: true },
  });
}

/** Marks the invite used by this person (a step of the caller's transaction); false when it was used or expired meanwhile. */
export async function inviteConsume(tx: Db, options: { inviteId: string; userId: string; now?: Date }): Promise<boolean> {
  const now = options.now ?? clock.date();
  const { count } = await tx.invite.updateMany({
    where: { id: options.inviteId, usedAt: null, expiresAt: { gt: now } },
    data: { usedAt: now, usedByUserId: options.userId },
  });
  return count === 1;
}

export type PendingInvite = { id: string; createdAt: Date; expiresAt: Date; createdByEmail: string | null };

/** Invites not yet used and not expired, newest first. */
export async function listPendingInvites(now = clock.date()): Promise<PendingInvite[]> {
  const rows = await prisma().invite.findMany({
    where: { usedAt: null, expiresAt: { gt: now } },
    select: { id: true, createdAt: true, expiresAt: true, createdBy: { select: { email: true } } },
    orderBy: { createdAt: "desc" },
  });
  return rows.map((r) => ({ id: r.id, createdAt: r.createdAt, expiresAt: r.expiresAt, createdByEmail: r.createdBy.email }));
}

/** Revokes (deletes) an invite that has not been used. Returns whether one was removed. */
export async function deletePendingInvite(inviteId: string): Promise<boolean> {
  return (await prisma().invite.deleteMany({ where: { id: inviteId, usedAt: null } })).count === 1;
}
