import "server-only";
import type { Statement } from "better-sqlite3";
import { rawDb } from "@/lib/db";
import { toDbTime } from "@/lib/db/dialect";
import { bumpDataVersion, bumpEveryDataVersion } from "@/lib/db/queries/data-version";

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

/** Creates the missing rows (status idle) for a person's collections. */
export function ensureSyncStates(userId: string, collections: readonly string[]): void {
  const db = rawDb();
  const now = toDbTime(new Date());
  const insert = db.prepare(`INSERT OR IGNORE INTO sync_state (userId, collection, status, updatedAt) VALUES (?, ?, 'idle', ?)`);
  db.transaction(() => {
    for (const c of collections) insert.run(userId, c, now);
  })();
}

export function getSyncState(userId: string, collection: string): SyncStateRow | undefined {
  return rawDb().prepare(`SELECT * FROM sync_state WHERE userId = ? AND collection = ?`).get(userId, collection) as SyncStateRow | undefined;
}

export function listSyncStates(userId: string): SyncStateRow[] {
  return rawDb().prepare(`SELECT * FROM sync_state WHERE userId = ? ORDER BY collection`).all(userId) as SyncStateRow[];
}

const statementCache = new Map<string, string>();
const preparedUpdates = new WeakMap<object, Map<string, Statement>>();

const NEWEST_SQL = `SELECT newestDay FROM sync_state WHERE userId = ? AND collection = ?`;

/** Updates some fields of one row (created when missing). Runs inside an open transaction too. */
export function updateSyncState(userId: string, collection: string, patch: SyncStatePatch, opts: { resume?: boolean } = {}): void {
  const keys = Object.keys(patch).filter((k) => PATCHABLE.has(k)).sort();
  const resume = opts.resume === true;
  const cacheKey = `${keys.join(",")}|${resume}`;
  let sql = statementCache.get(cacheKey);
  if (!sql) {
    // A paused collection (its account disconnected or needing a reconnect) stays paused: a page
    // or a failure of a sync that was already running when it was paused must not mark it
    // idle or backfilling again. Only a resume (the account active again) moves it.
    const set = (k: string) => (k === "status" && !resume ? `"status" = CASE WHEN sync_state.status = 'paused' THEN 'paused' ELSE @status END` : `"${k}" = @${k}`);
    const sets = keys.map(set).concat(`"updatedAt" = @updatedAt`);
    sql = `INSERT INTO sync_state (userId, collection, status, updatedAt) VALUES (@userId, @collection, 'idle', @updatedAt)
           ON CONFLICT(userId, collection) DO UPDATE SET ${sets.join(", ")}`;
    statementCache.set(cacheKey, sql);
  }
  const params: Record<string, unknown> = { userId, collection, updatedAt: toDbTime(new Date()) };
  for (const k of keys) {
    const v = (patch as Record<string, unknown>)[k];
    params[k] = v instanceof Date ? toDbTime(v) : v;
  }
  // Prepared once per handle and shape: this runs in every backfill page's transaction.
  const db = rawDb();
  let prepared = preparedUpdates.get(db);
  if (!prepared) preparedUpdates.set(db, (prepared = new Map()));
  let stmt = prepared.get(sql);
  if (!stmt) prepared.set(sql, (stmt = db.prepare(sql)));
  // the calendar's "not yet synced" reads newestDay: a new one changes answers
  let readNewest = prepared.get(NEWEST_SQL);
  if (!readNewest) prepared.set(NEWEST_SQL, (readNewest = db.prepare(NEWEST_SQL).pluck()));
  const newestBefore = "newestDay" in patch ? (readNewest.get(userId, collection) as string | null | undefined) : undefined;
  stmt.run(params);
  if ("newestDay" in patch && (newestBefore ?? null) !== (patch.newestDay ?? null)) bumpDataVersion(userId);
}

/** Resets sharing states after a (re)connect: not_shared/expired/paused become idle. */
export function clearSharingStates(userId: string): void {
  rawDb()
    .prepare(`UPDATE sync_state SET status = 'idle', lastError = NULL, updatedAt = ? WHERE userId = ? AND status IN ('not_shared','expired','paused')`)
    .run(toDbTime(new Date()), userId);
}

/** Forgets a person's sync progress (the next run backfills from scratch). */
export function deleteSyncStates(userId?: string): void {
  if (userId === undefined) {
    rawDb().prepare(`DELETE FROM sync_state`).run();
    bumpEveryDataVersion();
  } else {
    rawDb().prepare(`DELETE FROM sync_state WHERE userId = ?`).run(userId);
    bumpDataVersion(userId);
  }
}

export type ConnectedRingUser = {
  userId: string;
  accountId: string;
  ringUserId: string | null;
  status: string;
  scope: string | null;
};

/** Every person with a ring account (a User with Account provider "ring"). */
export function listRingUsers(): ConnectedRingUser[] {
  return rawDb()
    .prepare(
      `SELECT a.userId AS userId, a.id AS accountId, COALESCE(u.ringUserId, a.providerAccountId) AS ringUserId, a.status AS status, a.scope AS scope
       FROM "Account" a JOIN "User" u ON u.id = a.userId
       WHERE a.provider = 'ring'
       ORDER BY a.createdAt`,
    )
    .all() as ConnectedRingUser[];
}

/** The app user behind a ring user id (webhook `user_id`), if any. */
export function findUserIdByRingUserId(ringUserId: string): string | undefined {
  const row = rawDb()
    .prepare(
      `SELECT u.id AS id FROM "User" u WHERE u.ringUserId = ?
       UNION ALL
       SELECT a.userId FROM "Account" a WHERE a.provider = 'ring' AND a.providerAccountId = ?
       LIMIT 1`,
    )
    .get(ringUserId, ringUserId) as { id: string } | undefined;
  return row?.id;
}

/** Users with an active ring account and no SyncState yet (connected while the scheduler was off). */
export function listUsersNeedingBackfill(): string[] {
  return (
    rawDb()
      .prepare(
        `SELECT DISTINCT a.userId AS userId FROM "Account" a
         WHERE a.provider = 'ring' AND a.status = 'active'
           AND NOT EXISTS (SELECT 1 FROM sync_state s WHERE s.userId = a.userId)`,
      )
      .all() as Array<{ userId: string }>
  ).map((r) => r.userId);
}
