import "server-only";
import { clock } from "@/lib/clock";
import { RING_PROVIDER } from "@/lib/db/queries/accounts";
import { inviteConsume } from "@/lib/db/queries/invites";
import { prisma } from "@/lib/db/prisma";
import { Prisma } from "@/lib/generated/prisma/client";
import { bumpDataVersion } from "@/lib/db/queries/data-version";
import { bumpSyncGeneration } from "@/lib/db/queries/sync-fence";
import { reportLinksRevoke } from "@/lib/db/queries/report-links";
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

export function findUserById(userId: string): Promise<{ id: string; email: string | null; role: string; ringUserId: string | null; createdAt: Date } | null> {
  return prisma().user.findUnique({ where: { id: userId }, select: { id: true, email: true, role: true, ringUserId: true, createdAt: true } });
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
  await prisma().$transaction(async (tx) => {
    if (await tx.user.findFirst({ where: { email, id: { not: userId } }, select: { id: true } })) return;
    await tx.user.updateMany({ where: { id: userId }, data: { email, updatedAt: clock.date() } });
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
  const rows = await prisma().user.findMany({
    select: {
      id: true,
      email: true,
      role: true,
      ringUserId: true,
      createdAt: true,
      accounts: { where: { provider: RING_PROVIDER }, orderBy: { createdAt: "asc" }, take: 1, select: { status: true } },
    },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return rows
    .map(({ accounts, ...u }) => ({ ...u, connectionStatus: accounts[0]?.status ?? null }))
    .sort((a, b) => (a.role === b.role ? 0 : a.role === "owner" ? -1 : 1));
}

/** Deletes the person's sessions (all, or all but one). */
export async function deleteUserSessions(userId: string, keepSessionToken?: string | null): Promise<number> {
  const keep = keepSessionToken ? { not: keepSessionToken } : undefined;
  return (await prisma().session.deleteMany({ where: { userId, sessionToken: keep } })).count;
}

/** A table name of the resource registry, quoted (a name from the registry, never from a request). */
const registryTable = (name: string) => Prisma.raw(`"${name.replaceAll('"', '""')}"`);

/**
 * How long a delete's transaction may stay open (ms): years of ring data go in it, and on
 * PostgreSQL it first waits for the pages that checked the old sync generation to commit.
 */
const DELETE_TIMEOUT_MS = 60_000;

export type DeleteUserDataOptions = {
  /** "Delete all my data": the person's sync waits for "Download my history again" */
  pauseSync?: boolean;
  /** the person's share links answer 410 from now on (their report would be empty) */
  revokeReportLinks?: boolean;
};

/**
 * Deletes every row carrying the person's userId in the data tables (ring data, rejected
 * documents, sync state and jobs, notes and tags, period entries, alert history) plus webhook events for their ring id.
 * The User and Account rows stay (the person keeps their place in the household); the person's
 * alert rules and channels and cycle settings are settings and stay too. First, in the same
 * transaction, the person's sync generation moves on: whatever a sync had in flight stores
 * nothing after this (lib/db/queries/sync-fence.ts; on PostgreSQL the person's row FOR UPDATE,
 * before any other row). The counts are by table name.
 */
export function deleteUserData(userId: string, ringUserId: string | null, opts: DeleteUserDataOptions = {}): Promise<Record<string, number>> {
  const mine = { where: { userId } };
  return prisma().$transaction(
    async (tx) => {
      await bumpSyncGeneration(tx, userId, { pause: opts.pauseSync });
      if (opts.revokeReportLinks) await reportLinksRevoke(tx, userId, clock.date());
      const counts: Record<string, number> = {};
      // every table of the resource registry (documents, time series, personal_info), by its name
      for (const r of RESOURCES) counts[r.table] = await tx.$executeRaw`DELETE FROM ${registryTable(r.table)} WHERE "userId" = ${userId}`;
      counts.rejected_document = (await tx.rejectedDocument.deleteMany(mine)).count;
      counts.sync_state = (await tx.syncState.deleteMany(mine)).count;
      counts.job = (await tx.job.deleteMany(mine)).count;
      counts.day_tag = (await tx.dayTag.deleteMany(mine)).count;
      counts.tag = (await tx.tag.deleteMany(mine)).count;
      counts.day_note = (await tx.dayNote.deleteMany(mine)).count;
      counts.cycle_entry = (await tx.cycleEntry.deleteMany(mine)).count;
      // (without a ring account id there are none)
      counts.webhook_event = ringUserId ? (await tx.webhookEvent.deleteMany({ where: { ringUserId } })).count : 0;
      // the alert history last: its messages may carry values
      counts.alert_delivery = (await tx.alertDelivery.deleteMany(mine)).count;
      counts.alert_episode = (await tx.alertEpisode.deleteMany(mine)).count;
      // last, and counted nowhere: every answer about the person changes
      await bumpDataVersion(tx, userId);
      return counts;
    },
    { timeout: DELETE_TIMEOUT_MS },
  );
}

/**
 * Deletes the person; their sessions, ring account, tokens, alert settings, report links and
 * cycle settings go with them (cascade), and here the rows that name them without a foreign key:
 * the invite they joined with, the settings keyed by their id or their ring account's (an
 * import's state and lease, a rate-limit pause, a token refresh lease: keys ending ":<id>"),
 * a sign-in token for their e-mail.
 */
export function deleteUser(userId: string): Promise<boolean> {
  return prisma().$transaction(async (tx) => {
    const accounts = await tx.account.findMany({ where: { userId }, select: { id: true } });
    const person = await tx.user.findUnique({ where: { id: userId }, select: { email: true } });
    await tx.invite.deleteMany({ where: { usedByUserId: userId } });
    for (const id of [userId, ...accounts.map((a) => a.id)]) await tx.appSetting.deleteMany({ where: { key: { endsWith: `:${id}` } } });
    if (person?.email) await tx.verificationToken.deleteMany({ where: { identifier: person.email } });
    return (await tx.user.deleteMany({ where: { id: userId } })).count > 0;
  });
}

/** The person a (database) session token belongs to, when the session is still valid. */
export async function findSessionUserId(sessionToken: string, now = clock.date()): Promise<string | null> {
  const s = await prisma().session.findUnique({ where: { sessionToken }, select: { userId: true, expires: true } });
  return s && s.expires > now ? s.userId : null;
}
