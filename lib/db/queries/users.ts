import "server-only";
import { clock } from "@/lib/clock";
import { db } from "@/lib/db";
import { RING_PROVIDER } from "@/lib/db/queries/accounts";
import { consumeInvite } from "@/lib/db/queries/invites";
import { ident } from "@/lib/db/dialect";
import { inDialect } from "@/lib/db/sql";
import { dataVersionBump } from "@/lib/db/queries/data-version";
import { RESOURCES } from "@/lib/resources";

/** People of this Ringside: the owner (first to connect) and invited members. */

export type UserRole = "owner" | "member";

export async function countOwners(): Promise<number> {
  return db.user.count({ where: { role: "owner" } });
}

export async function findUserById(userId: string) {
  return db.user.findUnique({
    where: { id: userId },
    select: { id: true, email: true, role: true, ringUserId: true, createdAt: true },
  });
}

export type NewUser = {
  name: string | null;
  email: string | null;
  image: string | null;
  emailVerified: Date | null;
  role: UserRole;
  ringUserId: string;
};

export class InviteUnavailableError extends Error {
  constructor() {
    super("The invite was used or expired.");
    this.name = "InviteUnavailableError";
  }
}

/**
 * Creates a person; with an invite, consumes it in the same transaction (rolled back, and
 * InviteUnavailableError thrown, when the invite was used or expired meanwhile).
 */
export async function createUser(data: NewUser, options: { inviteId?: string } = {}) {
  return db.$transaction(async (tx) => {
    const user = await tx.user.create({ data });
    if (options.inviteId) {
      const ok = await consumeInvite({ inviteId: options.inviteId, userId: user.id }, tx);
      if (!ok) throw new InviteUnavailableError();
    }
    return user;
  });
}

export async function updateUserEmail(userId: string, email: string): Promise<void> {
  const taken = await db.user.findFirst({ where: { email, NOT: { id: userId } }, select: { id: true } });
  if (taken) return;
  await db.user.update({ where: { id: userId }, data: { email } });
}

export type HouseholdMember = {
  id: string;
  email: string | null;
  role: string;
  ringUserId: string | null;
  createdAt: Date;
  connectionStatus: string | null;
};

export async function listHouseholdMembers(): Promise<HouseholdMember[]> {
  const users = await db.user.findMany({
    orderBy: [{ createdAt: "asc" }],
    select: {
      id: true,
      email: true,
      role: true,
      ringUserId: true,
      createdAt: true,
      accounts: { where: { provider: RING_PROVIDER }, select: { status: true }, take: 1 },
    },
  });
  return users
    .map((u) => ({
      id: u.id,
      email: u.email,
      role: u.role,
      ringUserId: u.ringUserId,
      createdAt: u.createdAt,
      connectionStatus: u.accounts[0]?.status ?? null,
    }))
    .sort((a, b) => (a.role === b.role ? 0 : a.role === "owner" ? -1 : 1));
}

/** Deletes the person's sessions (all, or all but one). */
export async function deleteUserSessions(userId: string, keepSessionToken?: string | null): Promise<number> {
  const { count } = await db.session.deleteMany({
    where: keepSessionToken ? { userId, NOT: { sessionToken: keepSessionToken } } : { userId },
  });
  return count;
}

/**
 * Deletes every row carrying the person's userId in the data tables (ring data, rejected
 * documents, sync state and jobs, notes and tags, alert history) plus webhook events for their ring id.
 * The User and Account rows stay (the person keeps their place in the household).
 */
export async function deleteUserData(userId: string, ringUserId: string | null): Promise<Record<string, number>> {
  const where = { where: { userId } };
  // every table of the resource registry (documents, time series, personal_info), by its name
  const ringTables = RESOURCES.map((r) => r.table);
  const results = await db.$transaction([
    ...ringTables.map((t) => db.$executeRawUnsafe(inDialect(`DELETE FROM ${ident(t)} WHERE userId = ?`), userId)),
    db.rejectedDocument.deleteMany(where),
    db.syncState.deleteMany(where),
    db.job.deleteMany(where),
    db.dayTag.deleteMany(where),
    db.tag.deleteMany(where),
    db.dayNote.deleteMany(where),
    // (without a ring account id there are none)
    db.webhookEvent.deleteMany({ where: ringUserId ? { ringUserId } : { id: { in: [] } } }),
    // alert history (messages may carry values); the person's rules and channels are settings and stay
    db.alertDelivery.deleteMany(where),
    db.alertEpisode.deleteMany(where),
    // last, and counted nowhere: every answer about the person changes
    dataVersionBump(db, userId),
  ]);
  const names = [...ringTables, "rejected_document", "sync_state", "job", "day_tag", "tag", "day_note", "webhook_event", "alert_delivery", "alert_episode"];
  return Object.fromEntries(names.map((n, i) => {
    const r = results[i];
    return [n, typeof r === "number" ? r : r && "count" in r ? r.count : 0];
  }));
}

/** Deletes the person; their sessions, ring account, tokens and alert settings go with them (cascade). */
export async function deleteUser(userId: string): Promise<boolean> {
  const { count } = await db.user.deleteMany({ where: { id: userId } });
  return count > 0;
}

/** The person a (database) session token belongs to, when the session is still valid. */
export async function findSessionUserId(sessionToken: string, now = clock.date()): Promise<string | null> {
  const s = await db.session.findUnique({ where: { sessionToken }, select: { userId: true, expires: true } });
  return s && s.expires > now ? s.userId : null;
}
