import "server-only";
import { clock } from "@/lib/clock";
import { prisma, type Db, type ProcessDb } from "@/lib/db/prisma";
import { RING_PROVIDER } from "@/lib/db/queries/accounts";
import { bumpDataVersion, bumpEveryDataVersion } from "@/lib/db/queries/data-version";
import { fencedTransaction, readSyncGeneration, SyncStoppedError } from "@/lib/db/queries/sync-fence";
import { Prisma } from "@/lib/generated/prisma/client";

// SyncState: one row per person and collection (backfill checkpoint, freshness, sharing). A
// backfill page's checkpoint is written with the page by the ingest store (lib/db/ingest/checkpoint.ts);
// everything else here, through Prisma Client.

const SYNC_STATUSES = ["idle", "backfilling", "syncing", "not_shared", "expired", "error", "paused"] as const;
export type SyncStatus = (typeof SYNC_STATUSES)[number];

const isSyncStatus = (s: string): s is SyncStatus => (SYNC_STATUSES as readonly string[]).includes(s);

export type SyncStateRow = Omit<Prisma.SyncStateModel, "status"> & { status: SyncStatus };

/** A stored row with its status narrowed (a status this version does not know reads as an error). */
function syncStateRow(row: Prisma.SyncStateModel): SyncStateRow {
  return { ...row, status: isSyncStatus(row.status) ? row.status : "error" };
}

export type SyncStatePatch = Partial<{
  status: SyncStatus;
  backfillFrom: string | null;
  backfillTo: string | null;
  cursorStart: string | null;
  cursorNextToken: string | null;
  backfillDoneAt: Date | null;
  documentsTotal: number;
  windowsDone: number;
  windowsTotal: number;
  lastSuccessAt: Date | null;
  lastAttemptAt: Date | null;
  newestDay: string | null;
  recentThrough: string | null;
  lastError: string | null;
}>;

/** The fields a patch may set (the others of a patch object are ignored). */
export const PATCHABLE: ReadonlySet<string> = new Set([
  "status",
  "backfillFrom",
  "backfillTo",
  "cursorStart",
  "cursorNextToken",
  "backfillDoneAt",
  "documentsTotal",
  "windowsDone",
  "windowsTotal",
  "lastSuccessAt",
  "lastAttemptAt",
  "newestDay",
  "recentThrough",
  "lastError",
]);

/** Creates the missing rows (status idle) for a person's collections, as a step of the caller's transaction (a fenced one: lib/db/queries/sync-fence.ts). */
export async function syncStatesEnsure(tx: Db, userId: string, collections: readonly string[]): Promise<void> {
  if (collections.length === 0) return;
  const now = clock.date();
  // one statement (the scheduler makes sure of every collection of every person each round)
  const rows = collections.map((collection) => Prisma.sql`(${userId}, ${collection}, 'idle', ${now})`);
  await tx.$executeRaw`INSERT INTO sync_state ("userId", collection, status, "updatedAt") VALUES ${Prisma.join(rows)} ON CONFLICT DO NOTHING`;
}

/**
 * A person's sync states (as listSyncStates), with the missing rows of `collections` created
 * first (status idle) while their sync generation is still `generation`; SyncStoppedError when it
 * moved on (a delete came in between: nothing created). What the scheduler asks every
 * housekeeping pass for every person, so it reads first: when no row is missing, one read of the
 * rows and one of the generation, no write transaction; otherwise one fenced insert of only the
 * missing rows (which conflict harmlessly with rows another process made meanwhile), then the
 * rows read again.
 */
export async function ensureAndListSyncStates(userId: string, generation: number, collections: readonly string[]): Promise<SyncStateRow[]> {
  const rows = await listSyncStates(userId);
  const have = new Set(rows.map((r) => r.collection));
  const missing = collections.filter((c) => !have.has(c));
  if (missing.length > 0) {
    await fencedTransaction(userId, generation, (tx) => syncStatesEnsure(tx, userId, missing));
    return listSyncStates(userId);
  }
  if ((await readSyncGeneration(userId))?.generation !== generation) throw new SyncStoppedError(userId);
  return rows;
}

/** Creates the missing rows (status idle) for a person's collections. */
export function ensureSyncStates(userId: string, collections: readonly string[], db: ProcessDb = prisma()): Promise<void> {
  return db.$transaction((tx) => syncStatesEnsure(tx, userId, collections));
}

export async function getSyncState(userId: string, collection: string): Promise<SyncStateRow | undefined> {
  const row = await prisma().syncState.findUnique({ where: { userId_collection: { userId, collection } } });
  return row ? syncStateRow(row) : undefined;
}

export async function listSyncStates(userId: string): Promise<SyncStateRow[]> {
  return (await prisma().syncState.findMany({ where: { userId }, orderBy: { collection: "asc" } })).map(syncStateRow);
}

/** The patch's fields (PATCHABLE only), as Prisma Client's update data. */
function patchData(patch: SyncStatePatch, withStatus: boolean): Prisma.SyncStateUpdateManyMutationInput {
  const data: Prisma.SyncStateUpdateManyMutationInput = { updatedAt: clock.date() };
  for (const [k, v] of Object.entries(patch)) if (PATCHABLE.has(k) && (withStatus || k !== "status")) Reflect.set(data, k, v);
  return data;
}

/**
 * Updates some fields of one row, as a step of the caller's transaction; `updateSyncState` runs
 * it on its own. It never creates the row (only ensureSyncStates does): a row a delete removed
 * stays removed. A paused collection (its account disconnected or needing a reconnect) stays
 * paused: a failure of a sync that was already running when it was paused must not mark it idle
 * again; only a resume (the account active again) moves it. Returns whether there was a row.
 */
export async function syncStateUpdate(tx: Db, userId: string, collection: string, patch: SyncStatePatch, opts: { resume?: boolean } = {}): Promise<boolean> {
  // the calendar's "not yet synced" reads newestDay: a new one changes answers. The person's row
  // is written before the sync state's, as a page writes them (on PostgreSQL the other order
  // deadlocks against a page of the same collection).
  if ("newestDay" in patch) {
    const before = await tx.syncState.findUnique({ where: { userId_collection: { userId, collection } }, select: { newestDay: true } });
    if (before && before.newestDay !== (patch.newestDay ?? null)) await bumpDataVersion(tx, userId);
  }
  const where = { userId, collection };
  if (!("status" in patch) || opts.resume === true) return (await tx.syncState.updateMany({ where, data: patchData(patch, true) })).count > 0;
  // one of the two matches the row (each an atomic update of it)
  const moved = await tx.syncState.updateMany({ where: { ...where, status: { not: "paused" } }, data: patchData(patch, true) });
  const held = await tx.syncState.updateMany({ where: { ...where, status: "paused" }, data: patchData(patch, false) });
  return moved.count + held.count > 0;
}

/** Updates some fields of one row (never creates it); false when there is none. */
export function updateSyncState(userId: string, collection: string, patch: SyncStatePatch, opts: { resume?: boolean } = {}): Promise<boolean> {
  return prisma().$transaction((tx) => syncStateUpdate(tx, userId, collection, patch, opts));
}

/** Resets sharing states after a (re)connect: not_shared/expired/paused become idle. */
export async function clearSharingStates(userId: string): Promise<void> {
  await prisma().syncState.updateMany({
    where: { userId, status: { in: ["not_shared", "expired", "paused"] } },
    data: { status: "idle", lastError: null, updatedAt: clock.date() },
  });
}

/** Forgets a person's sync progress, or everyone's (the next run backfills from scratch). */
export function deleteSyncStates(userId?: string): Promise<void> {
  return prisma().$transaction(async (tx) => {
    if (userId === undefined) {
      await tx.syncState.deleteMany({});
      await bumpEveryDataVersion(tx);
    } else {
      await tx.syncState.deleteMany({ where: { userId } });
      await bumpDataVersion(tx, userId);
    }
  });
}

export type ConnectedRingUser = {
  userId: string;
  accountId: string;
  ringUserId: string | null;
  status: string;
  scope: string | null;
  /** the person's sync generation when listed (lib/db/queries/sync-fence.ts) */
  syncGeneration: number;
  /** "Delete all my data" paused their sync */
  syncPaused: boolean;
};

/** Every person with a ring account (a User with Account provider "ring"), oldest account first. */
export async function listRingUsers(): Promise<ConnectedRingUser[]> {
  const accounts = await prisma().account.findMany({
    where: { provider: RING_PROVIDER },
    orderBy: { createdAt: "asc" },
    select: {
      id: true,
      userId: true,
      providerAccountId: true,
      status: true,
      scope: true,
      user: { select: { ringUserId: true, syncGeneration: true, syncPausedAt: true } },
    },
  });
  return accounts.map((a) => ({
    userId: a.userId,
    accountId: a.id,
    ringUserId: a.user.ringUserId ?? a.providerAccountId,
    status: a.status,
    scope: a.scope,
    syncGeneration: a.user.syncGeneration,
    syncPaused: a.user.syncPausedAt !== null,
  }));
}

/** The app user behind a ring user id (webhook `user_id`), if any. */
export async function findUserIdByRingUserId(ringUserId: string): Promise<string | undefined> {
  const user = await prisma().user.findFirst({ where: { ringUserId }, select: { id: true } });
  if (user) return user.id;
  const account = await prisma().account.findFirst({ where: { provider: RING_PROVIDER, providerAccountId: ringUserId }, select: { userId: true } });
  return account?.userId;
}

/** Users with an active ring account and no SyncState yet (connected while the scheduler was off). */
export async function listUsersNeedingBackfill(): Promise<string[]> {
  const accounts = await prisma().account.findMany({ where: { provider: RING_PROVIDER, status: "active" }, select: { userId: true }, distinct: ["userId"] });
  const userIds = accounts.map((a) => a.userId);
  const started = await prisma().syncState.findMany({ where: { userId: { in: userIds } }, select: { userId: true }, distinct: ["userId"] });
  const has = new Set(started.map((s) => s.userId));
  return userIds.filter((id) => !has.has(id));
}
