import "server-only";
import { clock } from "@/lib/clock";
import { dbProvider, prisma, type Db, type ProcessDb } from "@/lib/db/prisma";
import type { Prisma } from "@/lib/generated/prisma/client";

// The fence of every delete: one number per person, User.syncGeneration. A sync job and a
// webhook apply read it when they start (readSyncGeneration); every transaction they write in
// checks it first (checkSyncGeneration) and rolls back when it moved. "Delete all my data",
// disconnect and a member's removal move it on in their own transaction (bumpSyncGeneration),
// first thing, so whatever a sync had in flight when the person's data went stores nothing
// after it. A person removed from the household has no row at all: that fails the check too.
//
// On PostgreSQL the check holds the person's row for key share until the writer commits, and a
// bump takes it for update: the delete waits for pages that checked before it and removes what
// they stored; a page that checks after it sees the new generation. Pages of one person do not
// wait for each other (key share is shared, and compatible with the data version's update). On
// SQLite one transaction runs at a time.
// Two forms of the check, the same statement and lock: Prisma Client's (`syncGenerationHolds(tx, …)`,
// `fencedTransaction`: the model's transactions, such as the job queue and the sync's state
// writes) and the ingest store's (lib/db/ingest/fence.ts: a page's commit).
// User.syncPausedAt (set by "Delete all my data"): the person's sync waits for their "Download
// my history again"; every bump made with it stops what was running.

/** The person's sync was stopped (their data deleted, their connection ended, or the person removed): nothing of it is written. */
export class SyncStoppedError extends Error {
  constructor(userId: string) {
    super(`The sync of person ${userId} was stopped: their data was deleted or their connection ended.`);
    this.name = "SyncStoppedError";
  }
}

export type SyncGeneration = {
  generation: number;
  /** "Delete all my data" paused the person's sync (until "Download my history again") */
  paused: boolean;
};

/** The person's sync generation and whether their sync is paused; null when there is no such person (a plain read: no lock). */
export async function readSyncGeneration(userId: string, db: Db = prisma()): Promise<SyncGeneration | null> {
  const row = await db.user.findUnique({ where: { id: userId }, select: { syncGeneration: true, syncPausedAt: true } });
  return row ? { generation: row.syncGeneration, paused: row.syncPausedAt !== null } : null;
}

type GenerationRow = Pick<Prisma.UserModel, "syncGeneration">;

/**
 * Whether the person's sync generation is still `generation` (a step of the caller's write
 * transaction, its first: on PostgreSQL the person's row is then held for key share until it commits).
 */
export async function syncGenerationHolds(tx: Db, userId: string, generation: number): Promise<boolean> {
  const row =
    dbProvider(tx) === "postgresql"
      ? (await tx.$queryRaw<GenerationRow[]>`SELECT "syncGeneration" FROM "User" WHERE id = ${userId} FOR KEY SHARE`)[0]
      : await tx.user.findUnique({ where: { id: userId }, select: { syncGeneration: true } });
  return row !== undefined && row !== null && row.syncGeneration === generation;
}

/**
 * How long a fenced write of the sync may wait to begin and stay open (ms). It holds no network,
 * but it queues: on SQLite behind the pages of every collection at the process's gate, on
 * PostgreSQL behind them for the person's row; on a loaded machine that took more than Prisma's
 * default 5 s (seen in the PostgreSQL five-year backfill), where the driver's transactions never
 * had a limit.
 */
const FENCED_WAIT_MS = 60_000;

/**
 * `fn` in one Prisma Client transaction that commits only while the person's sync generation is
 * `generation` (else SyncStoppedError, rolled back). A page's own commit is the ingest store's
 * (lib/db/ingest/fence.ts fencedIngest: the same check and lock).
 */
export function fencedTransaction<T>(userId: string, generation: number, fn: (tx: Db) => Promise<T>, db: ProcessDb = prisma()): Promise<T> {
  return db.$transaction(
    async (tx) => {
      if (!(await syncGenerationHolds(tx, userId, generation))) throw new SyncStoppedError(userId);
      return fn(tx);
    },
    { maxWait: FENCED_WAIT_MS, timeout: FENCED_WAIT_MS },
  );
}

/**
 * Moves the person's sync generation on, and with `pause` holds their sync until they ask for
 * their history again (a step of a delete's transaction, its first: on PostgreSQL it takes the
 * person's row FOR UPDATE, so it waits for the pages that checked the old generation to commit).
 */
export async function bumpSyncGeneration(tx: Db, userId: string, opts: { pause?: boolean } = {}): Promise<void> {
  if (dbProvider(tx) === "postgresql") await tx.$queryRaw<Array<Pick<Prisma.UserModel, "id">>>`SELECT id FROM "User" WHERE id = ${userId} FOR UPDATE`;
  const now = clock.date();
  // (Prisma Client writes updatedAt with every update: the clock's)
  await tx.user.updateMany({ where: { id: userId }, data: { syncGeneration: { increment: 1 }, syncPausedAt: opts.pause ? now : undefined, updatedAt: now } });
}

/** Moves every person's sync generation on (everyone's synced data cleared: the data family switched; a step of the caller's transaction). */
export async function bumpEverySyncGeneration(tx: Db): Promise<void> {
  if (dbProvider(tx) === "postgresql") await tx.$queryRaw<Array<Pick<Prisma.UserModel, "id">>>`SELECT id FROM "User" ORDER BY id FOR UPDATE`;
  await tx.user.updateMany({ data: { syncGeneration: { increment: 1 } } });
}

/** "Download my history again": the person's sync runs again; false when it was not paused. */
export async function resumeSync(userId: string): Promise<boolean> {
  return (
    (await prisma().user.updateMany({ where: { id: userId, syncPausedAt: { not: null } }, data: { syncPausedAt: null, updatedAt: clock.date() } })).count === 1
  );
}
