import "server-only";
import { clock } from "@/lib/clock";
import { all, get, query, run, transaction, type Work } from "@/lib/db/sql";
import { toDbTime } from "@/lib/db/dialect";
import { bumpDataVersionWork as bumpDataVersion, bumpEveryDataVersionWork as bumpEveryDataVersion } from "@/lib/db/queries/data-version";

// SyncState: one row per person and collection (backfill checkpoint, freshness, sharing).

export type SyncStatus = "idle" | "backfilling" | "syncing" | "not_shared" | "expired" | "error" | "paused";

export type SyncStateRow = {
  id: number;
  userId: string;
  collection: string;
  status: SyncStatus;
  backfillFrom: string | null;
  backfillTo: string | null;
  cursorStart: string | null;
  cursorNextToken: string | null;
  backfillDoneAt: string | null;
  documentsTotal: number;
  windowsDone: number;
  windowsTotal: number;
  lastSuccessAt: string | null;
  lastAttemptAt: string | null;
  newestDay: string | null;
  lastError: string | null;
  updatedAt: string;
};

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
  lastError: string | null;
}>;

const PATCHABLE = new Set([
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
  "lastError",
]);

/** Creates the missing rows (status idle) for a person's collections, as a step of the caller's transaction (a fenced one: lib/db/queries/sync-fence.ts). */
export function* syncStatesEnsure(userId: string, collections: readonly string[]): Work<void> {
  const now = toDbTime(clock.date());
  for (const c of collections) yield* run(`INSERT OR IGNORE INTO sync_state (userId, collection, status, updatedAt) VALUES (?, ?, 'idle', ?)`, userId, c, now);
}

/** Creates the missing rows (status idle) for a person's collections. */
export function ensureSyncStates(userId: string, collections: readonly string[]): Promise<void> {
  return transaction(() => syncStatesEnsure(userId, collections));
}

export function getSyncState(userId: string, collection: string): Promise<SyncStateRow | undefined> {
  return query(get<SyncStateRow>(`SELECT * FROM sync_state WHERE userId = ? AND collection = ?`, userId, collection));
}

export function listSyncStates(userId: string): Promise<SyncStateRow[]> {
  return query(all<SyncStateRow>(`SELECT * FROM sync_state WHERE userId = ? ORDER BY collection`, userId));
}

const statementCache = new Map<string, string>();

/**
 * Updates some fields of one row, as a step of the caller's transaction (a backfill page's
 * checkpoint); `updateSyncState` runs it on its own. It never creates the row (only
 * ensureSyncStates does): a row a delete removed stays removed. Returns whether there was one.
 */
export function* syncStateUpdate(userId: string, collection: string, patch: SyncStatePatch, opts: { resume?: boolean } = {}): Work<boolean> {
  const keys = Object.keys(patch)
    .filter((k) => PATCHABLE.has(k))
    .sort();
  const resume = opts.resume === true;
  const cacheKey = `${keys.join(",")}|${resume}`;
  let sql = statementCache.get(cacheKey);
  if (!sql) {
    // A paused collection (its account disconnected or needing a reconnect) stays paused: a page
    // or a failure of a sync that was already running when it was paused must not mark it
    // idle or backfilling again. Only a resume (the account active again) moves it.
    const set = (k: string) => (k === "status" && !resume ? `"status" = CASE WHEN sync_state.status = 'paused' THEN 'paused' ELSE ? END` : `"${k}" = ?`);
    const sets = keys.map(set).concat(`"updatedAt" = ?`);
    sql = `UPDATE sync_state SET ${sets.join(", ")} WHERE userId = ? AND collection = ?`;
    statementCache.set(cacheKey, sql);
  }
  const now = toDbTime(clock.date());
  const values = keys.map((k) => {
    const v = (patch as Record<string, unknown>)[k];
    return (v instanceof Date ? toDbTime(v) : v) as string | number | null;
  });
  // the calendar's "not yet synced" reads newestDay: a new one changes answers. The person's row
  // is written before the sync state's, as a page writes them (on PostgreSQL the other order
  // deadlocks against a page of the same collection).
  const before =
    "newestDay" in patch
      ? yield* get<{ newestDay: string | null }>(`SELECT newestDay FROM sync_state WHERE userId = ? AND collection = ?`, userId, collection)
      : undefined;
  if (before && (before.newestDay ?? null) !== (patch.newestDay ?? null)) yield* bumpDataVersion(userId);
  return (yield* run(sql, ...values, now, userId, collection)) > 0;
}

/** Updates some fields of one row (never creates it); false when there is none. */
export function updateSyncState(userId: string, collection: string, patch: SyncStatePatch, opts: { resume?: boolean } = {}): Promise<boolean> {
  return transaction(() => syncStateUpdate(userId, collection, patch, opts));
}

/** Resets sharing states after a (re)connect: not_shared/expired/paused become idle. */
export async function clearSharingStates(userId: string): Promise<void> {
  await query(
    run(
      `UPDATE sync_state SET status = 'idle', lastError = NULL, updatedAt = ? WHERE userId = ? AND status IN ('not_shared','expired','paused')`,
      toDbTime(clock.date()),
      userId,
    ),
  );
}

/** Forgets a person's sync progress (the next run backfills from scratch). */
export function deleteSyncStates(userId?: string): Promise<void> {
  return transaction(function* () {
    if (userId === undefined) {
      yield* run(`DELETE FROM sync_state`);
      yield* bumpEveryDataVersion();
    } else {
      yield* run(`DELETE FROM sync_state WHERE userId = ?`, userId);
      yield* bumpDataVersion(userId);
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

/** Every person with a ring account (a User with Account provider "ring"). */
export async function listRingUsers(): Promise<ConnectedRingUser[]> {
  const rows = await query(
    all<Omit<ConnectedRingUser, "syncGeneration" | "syncPaused"> & { syncGeneration: number | string; syncPausedAt: string | null }>(
      `SELECT a.userId AS userId, a.id AS accountId, COALESCE(u.ringUserId, a.providerAccountId) AS ringUserId, a.status AS status, a.scope AS scope,
              u.syncGeneration AS syncGeneration, u.syncPausedAt AS syncPausedAt
       FROM "Account" a JOIN "User" u ON u.id = a.userId
       WHERE a.provider = 'ring'
       ORDER BY a.createdAt`,
    ),
  );
  return rows.map(({ syncPausedAt, ...r }) => ({ ...r, syncGeneration: Number(r.syncGeneration), syncPaused: syncPausedAt !== null }));
}

/** The app user behind a ring user id (webhook `user_id`), if any. */
export async function findUserIdByRingUserId(ringUserId: string): Promise<string | undefined> {
  const row = await query(
    get<{ id: string }>(
      `SELECT u.id AS id FROM "User" u WHERE u.ringUserId = ?
       UNION ALL
       SELECT a.userId FROM "Account" a WHERE a.provider = 'ring' AND a.providerAccountId = ?
       LIMIT 1`,
      ringUserId,
      ringUserId,
    ),
  );
  return row?.id;
}

/** Users with an active ring account and no SyncState yet (connected while the scheduler was off). */
export async function listUsersNeedingBackfill(): Promise<string[]> {
  return (
    await query(
      all<{ userId: string }>(
        `SELECT DISTINCT a.userId AS userId FROM "Account" a
         WHERE a.provider = 'ring' AND a.status = 'active'
           AND NOT EXISTS (SELECT 1 FROM sync_state s WHERE s.userId = a.userId)`,
      ),
    )
  ).map((r) => r.userId);
}
