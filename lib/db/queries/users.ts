import "server-only";
import { clock } from "@/lib/clock";
import { RING_PROVIDER } from "@/lib/db/queries/accounts";
import { inviteConsume } from "@/lib/db/queries/invites";
import { fromDbTime, ident, toDbTime } from "@/lib/db/dialect";
import { all, get, query, run, transaction } from "@/lib/db/sql";
import { prisma } from "@/lib/db/prisma";
import { bumpDataVersionWork as bumpDataVersion } from "@/lib/db/queries/data-version";
import { RESOURCES } from "@/lib/resources";

/** People of this Ringside: the owner (first to connect) and invited members. */

export type UserRole = "owner" | "member";

/** A person as Auth.js and the household see them. */
export type UserRow = {
  id: string;
  name: string | null;
  email: string | null;
  emailVerified: Date | null;
  image: string | null;
  role: string;
  ringUserId: string | null;
};

/** A person's columns as `UserRow` has them. */
const USER = { id: true, name: true, email: true, emailVerified: true, image: true, role: true, ringUserId: true } as const;

/** A person by id. */
export const findUser = (id: string): Promise<UserRow | null> => prisma().user.findUnique({ where: { id }, select: USER });

export function countOwners(): Promise<number> {
  return prisma().user.count({ where: { role: "owner" } });
}

export async function findUserById(
  userId: string,
): Promise<{ id: string; email: string | null; role: string; ringUserId: string | null; createdAt: Date } | null> {
  const u = await query(
    get<{ id: string; email: string | null; role: string; ringUserId: string | null; createdAt: string }>(
      `SELECT id, email, role, ringUserId, createdAt FROM "User" WHERE id = ?`,
      userId,
    ),
  );
  return u ? { ...u, createdAt: fromDbTime(u.createdAt) ?? new Date(0) } : null;
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
export function createUser(data: NewUser, options: { inviteId?: string } = {}): Promise<UserRow> {
  const now = clock.date();
  return prisma().$transaction(async (tx) => {
    const user = await tx.user.create({ data: { id: crypto.randomUUID(), ...data, createdAt: now, updatedAt: now }, select: USER });
    if (options.inviteId && !(await inviteConsume(tx, { inviteId: options.inviteId, userId: user.id, now }))) throw new InviteUnavailableError();
    return user;
  });
}

export async function updateUserEmail(userId: string, email: string): Promise<void> {
  await transaction(function* () {
    const taken = yield* get(`SELECT id FROM "User" WHERE email = ? AND id <> ?`, email, userId);
    if (taken) return;
    yield* run(`UPDATE "User" SET email = ?, updatedAt = ? WHERE id = ?`, email, toDbTime(clock.date()), userId);
  });
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
  const rows = await query(
    all<Omit<HouseholdMember, "createdAt"> & { createdAt: string }>(
      `SELECT u.id, u.email, u.role, u.ringUserId, u.createdAt,
              (SELECT a.status FROM "Account" a WHERE a.userId = u.id AND a.provider = ? ORDER BY a.createdAt LIMIT 1) AS connectionStatus
         FROM "User" u ORDER BY u.createdAt, u.id`,
      RING_PROVIDER,
    ),
  );
  return rows.map((u) => ({ ...u, createdAt: fromDbTime(u.createdAt) ?? new Date(0) })).sort((a, b) => (a.role === b.role ? 0 : a.role === "owner" ? -1 : 1));
}

/** Deletes the person's sessions (all, or all but one). */
export function deleteUserSessions(userId: string, keepSessionToken?: string | null): Promise<number> {
  return keepSessionToken
    ? query(run(`DELETE FROM "Session" WHERE userId = ? AND sessionToken <> ?`, userId, keepSessionToken))
    : query(run(`DELETE FROM "Session" WHERE userId = ?`, userId));
}

/** The person's tables emptied by "delete my data", after the ring data tables (alert history: messages may carry values). */
const PERSON_TABLES = ["rejected_document", "sync_state", "job", "day_tag", "tag", "day_note", "cycle_entry"] as const;
const HISTORY_TABLES = ["alert_delivery", "alert_episode"] as const;

/**
 * Deletes every row carrying the person's userId in the data tables (ring data, rejected
 * documents, sync state and jobs, notes and tags, period entries, alert history) plus webhook events for their ring id.
 * The User and Account rows stay (the person keeps their place in the household); the person's
 * alert rules and channels and cycle settings are settings and stay too.
 */
export function deleteUserData(userId: string, ringUserId: string | null): Promise<Record<string, number>> {
  // every table of the resource registry (documents, time series, personal_info), by its name
  const ringTables = RESOURCES.map((r) => r.table);
  return transaction(function* () {
    const counts: Record<string, number> = {};
    for (const t of [...ringTables, ...PERSON_TABLES]) counts[t] = yield* run(`DELETE FROM ${ident(t)} WHERE userId = ?`, userId);
    // (without a ring account id there are none)
    counts.webhook_event = ringUserId ? yield* run(`DELETE FROM webhook_event WHERE ringUserId = ?`, ringUserId) : 0;
    for (const t of HISTORY_TABLES) counts[t] = yield* run(`DELETE FROM ${ident(t)} WHERE userId = ?`, userId);
    // last, and counted nowhere: every answer about the person changes
    yield* bumpDataVersion(userId);
    return counts;
  });
}

/** Deletes the person; their sessions, ring account, tokens and alert settings go with them (cascade). */
export async function deleteUser(userId: string): Promise<boolean> {
  return (await query(run(`DELETE FROM "User" WHERE id = ?`, userId))) > 0;
}

/** The person a (database) session token belongs to, when the session is still valid. */
export async function findSessionUserId(sessionToken: string, now = clock.date()): Promise<string | null> {
  const s = await query(get<{ userId: string; expires: string }>(`SELECT userId, expires FROM "Session" WHERE sessionToken = ?`, sessionToken));
  const expires = fromDbTime(s?.expires);
  return s && expires && expires > now ? s.userId : null;
}
