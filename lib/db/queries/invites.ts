import "server-only";
import { clock } from "@/lib/clock";
import { fromDbTime, toDbTime } from "@/lib/db/dialect";
import { all, get, query, run, type Work } from "@/lib/db/sql";

/**
 * Household invites: single-use, expiring links. Only the sha256 of the secret is stored
 * (`tokenHash`); the secret itself exists only in the link the owner hands out.
 */

export async function createInvite(options: {
  createdById: string;
  tokenHash: string;
  expiresAt: Date;
}): Promise<{ id: string; expiresAt: Date; createdAt: Date }> {
  const id = crypto.randomUUID();
  const createdAt = clock.date();
  await query(
    run(
      `INSERT INTO "Invite" (id, tokenHash, createdById, expiresAt, createdAt) VALUES (?, ?, ?, ?, ?)`,
      id,
      options.tokenHash,
      options.createdById,
      toDbTime(options.expiresAt),
      toDbTime(createdAt),
    ),
  );
  return { id, expiresAt: options.expiresAt, createdAt };
}

/** The invite with this hash when it is still usable (not used, not expired). */
export async function findUsableInviteByHash(tokenHash: string, now = clock.date()): Promise<{ id: string; expiresAt: Date; createdById: string } | null> {
  const row = await query(
    get<{ id: string; expiresAt: string; createdById: string }>(
      `SELECT id, expiresAt, createdById FROM "Invite" WHERE tokenHash = ? AND usedAt IS NULL AND expiresAt > ?`,
      tokenHash,
      toDbTime(now),
    ),
  );
  return row ? { ...row, expiresAt: fromDbTime(row.expiresAt)! } : null;
}

/** Marks the invite used by this person (a step of the caller's transaction); false when it was used or expired meanwhile. */
export function* inviteConsume(options: { inviteId: string; userId: string; now?: Date }): Work<boolean> {
  const now = toDbTime(options.now ?? clock.date());
  const changed = yield* run(
    `UPDATE "Invite" SET usedAt = ?, usedByUserId = ? WHERE id = ? AND usedAt IS NULL AND expiresAt > ?`,
    now,
    options.userId,
    options.inviteId,
    now,
  );
  return changed === 1;
}

export type PendingInvite = { id: string; createdAt: Date; expiresAt: Date; createdByEmail: string | null };

/** Invites not yet used and not expired, newest first. */
export async function listPendingInvites(now = clock.date()): Promise<PendingInvite[]> {
  const rows = await query(
    all<{ id: string; createdAt: string; expiresAt: string; createdByEmail: string | null }>(
      `SELECT i.id, i.createdAt, i.expiresAt, u.email AS createdByEmail
         FROM "Invite" i JOIN "User" u ON u.id = i.createdById
        WHERE i.usedAt IS NULL AND i.expiresAt > ? ORDER BY i.createdAt DESC`,
      toDbTime(now),
    ),
  );
  return rows.map((r) => ({ id: r.id, createdAt: fromDbTime(r.createdAt)!, expiresAt: fromDbTime(r.expiresAt)!, createdByEmail: r.createdByEmail }));
}

/** Revokes (deletes) an invite that has not been used. Returns whether one was removed. */
export async function deletePendingInvite(inviteId: string): Promise<boolean> {
  return (await query(run(`DELETE FROM "Invite" WHERE id = ? AND usedAt IS NULL`, inviteId))) === 1;
}
