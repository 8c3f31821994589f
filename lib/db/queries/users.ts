import "server-only";
import { clock } from "@/lib/clock";
import { RING_PROVIDER } from "@/lib/db/queries/accounts";
import { inviteConsume } from "@/lib/db/queries/invites";
import { fromDbTime, ident, toDbTime } from "@/lib/db/dialect";
import { all, get, query, run, transaction, type Work } from "@/lib/db/sql";
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

type StoredUser = Omit<UserRow, "emailVerified"> & { emailVerified: string | number | null };

const USER_COLUMNS = `id, name, email, emailVerified, image, role, ringUserId`;

const toUser = (u: StoredUser): UserRow => ({ ...u, emailVerified: fromDbTime(u.emailVerified) });

/** A person by a condition on the User table (one statement, typed). */
function* userWhere(condition: string, ...params: string[]): Work<UserRow | null> {
  const u = yield* get<StoredUser>(`SELECT ${USER_COLUMNS} FROM "User" WHERE ${condition}`, ...params);
  return u ? toUser(u) : null;
}

/** A person by id, e-mail or ring connection (Auth.js's adapter). */
export const findUser = (id: string) => query(userWhere(`id = ?`, id));
export const findUserByEmail = (email: string) => query(userWhere(`email = ?`, email));
export const findUserByAccount = (provider: string, providerAccountId: string) =>
  query(userWhere(`id = (SELECT userId FROM "Account" WHERE provider = ? AND providerAccountId = ?)`, provider, providerAccountId));

/** Changes what Auth.js may change of a person (name, e-mail, picture, e-mail verification); the person after. */
export function updateUserProfile(id: string, patch: Partial<Pick<UserRow, "name" | "email" | "image" | "emailVerified">>): Promise<UserRow | null> {
  const set = (["name", "email", "image", "emailVerified"] as const).filter((k) => patch[k] !== undefined);
  const values = set.map((k) => {
    const v = patch[k];
    return v instanceof Date ? toDbTime(v) : (v ?? null);
  });
  return transaction(function* () {
    yield* run(`UPDATE "User" SET ${[...set.map((k) => `${k} = ?`), "updatedAt = ?"].join(", ")} WHERE id = ?`, ...values, toDbTime(clock.date()), id);
    return yield* userWhere(`id = ?`, id);
  });
}

export async function countOwners(): Promise<number> {
  const row = await query(get<{ n: number }>(`SELECT COUNT(*) AS n FROM "User" WHERE role = 'owner'`));
  return Number(row?.n ?? 0);
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
  const id = crypto.randomUUID();
  const now = clock.date();
  return transaction(function* () {
    yield* run(
      `INSERT INTO "User" (id, name, email, emailVerified, image, role, ringUserId, units, theme, dataVersion, createdAt, updatedAt)
       VALUES (?, ?, ?, ?, ?, ?, ?, 'metric', 'system', 0, ?, ?)`,
      id,
      data.name,
      data.email,
      data.emailVerified ? toDbTime(data.emailVerified) : null,
      data.image,
      data.role,
      data.ringUserId,
      toDbTime(now),
      toDbTime(now),
    );
    if (options.inviteId && !(yield* inviteConsume({ inviteId: options.inviteId, userId: id, now }))) throw new InviteUnavailableError();
    return { id, name: data.name, email: data.email, emailVerified: data.emailVerified, image: data.image, role: data.role, ringUserId: data.ringUserId };
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
 * nothing after this (lib/db/queries/sync-fence.ts).
 */
export function deleteUserData(userId: string, ringUserId: string | null, opts: DeleteUserDataOptions = {}): Promise<Record<string, number>> {
  // every table of the resource registry (documents, time series, personal_info), by its name
  const ringTables = RESOURCES.map((r) => r.table);
  return transaction(function* () {
    yield* bumpSyncGeneration(userId, { pause: opts.pauseSync });
    if (opts.revokeReportLinks) yield* reportLinksRevoke(userId, clock.date());
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

/**
 * Deletes the person; their sessions, ring account, tokens, alert settings, report links and
 * cycle settings go with them (cascade), and here the rows that name them without a foreign key:
 * the invite they joined with, the settings keyed by their id or their ring account's (an
 * import's state and lease, a rate-limit pause, a token refresh lease: keys ending ":<id>"),
 * a sign-in token for their e-mail.
 */
export async function deleteUser(userId: string): Promise<boolean> {
  return transaction(function* () {
    const accounts = yield* all<{ id: string }>(`SELECT id FROM "Account" WHERE userId = ?`, userId);
    const person = yield* get<{ email: string | null }>(`SELECT email FROM "User" WHERE id = ?`, userId);
    yield* run(`DELETE FROM "Invite" WHERE usedByUserId = ?`, userId);
    for (const id of [userId, ...accounts.map((a) => a.id)]) yield* run(`DELETE FROM "AppSetting" WHERE key LIKE ?`, `%:${id}`);
    if (person?.email) yield* run(`DELETE FROM "VerificationToken" WHERE identifier = ?`, person.email);
    return (yield* run(`DELETE FROM "User" WHERE id = ?`, userId)) > 0;
  });
}

/** The person a (database) session token belongs to, when the session is still valid. */
export async function findSessionUserId(sessionToken: string, now = clock.date()): Promise<string | null> {
  const s = await query(get<{ userId: string; expires: string }>(`SELECT userId, expires FROM "Session" WHERE sessionToken = ?`, sessionToken));
  const expires = fromDbTime(s?.expires);
  return s && expires && expires > now ? s.userId : null;
}
