import "server-only";
import { clock } from "@/lib/clock";
import { fromDbTime, toDbTime } from "@/lib/db/dialect";
import { get, processDatabase, query, run, sqlDialect, transaction, type Database, type Work } from "@/lib/db/sql";
import { processSingleton } from "@/lib/process-singleton";
import { bumpSyncGeneration } from "@/lib/db/queries/sync-fence";

/**
 * The ring connection (Auth.js `Account` row, provider "ring"). Token columns hold only
 * AES-256-GCM ciphertext (lib/ring/crypto.ts); these functions never see plain tokens.
 *
 * The refresh path (`TokenStore`) runs its read-decide-write steps in one write transaction, so
 * two processes cannot both claim the same single-use refresh token: on SQLite an IMMEDIATE
 * transaction (one writer at a time), on PostgreSQL a transaction that first locks the account
 * row (`FOR UPDATE`), so of several processes refreshing one account one reads, decides and
 * writes while the others wait for its commit, then see its lease or its new tokens. Held to the
 * same tests on both databases (lib/db/queries/accounts-tokens.test.ts).
 */

export const RING_PROVIDER = "ring";

export type AccountStatus = "active" | "needs_reconnect" | "disconnected";

// ---------------------------------------------------------------------------
// Reads
// ---------------------------------------------------------------------------

export type TokenRow = {
  id: string;
  userId: string;
  status: string;
  access_token: string | null;
  refresh_token: string | null;
  expires_at: number | null;
};

/** The token columns of one account (locked for the transaction on PostgreSQL when `lock`). */
function* tokenRow(accountId: string, lock = false): Work<TokenRow | null> {
  const forUpdate = lock && (yield* sqlDialect()) === "postgres" ? " FOR UPDATE" : "";
  const row = yield* get<TokenRow>(
    `SELECT id, userId, status, access_token, refresh_token, expires_at FROM "Account" WHERE id = ? AND provider = ?${forUpdate}`,
    accountId,
    RING_PROVIDER,
  );
  if (!row) return null;
  return { ...row, expires_at: row.expires_at === null ? null : Number(row.expires_at) };
}

export type RingAccountSummary = {
  accountId: string;
  userId: string;
  ringUserId: string;
  status: string;
  statusReason: string | null;
  scope: string | null;
  expiresAt: number | null;
  tokenUpdatedAt: Date | null;
  hasTokens: boolean;
};

type SummaryRow = {
  id: string;
  userId: string;
  providerAccountId: string;
  status: string;
  statusReason: string | null;
  scope: string | null;
  expires_at: number | null;
  tokenUpdatedAt: string | null;
  hasTokens: number;
};

export async function findRingAccountByUserId(userId: string): Promise<RingAccountSummary | null> {
  const a = await query(
    get<SummaryRow>(
      `SELECT id, userId, providerAccountId, status, statusReason, scope, expires_at, tokenUpdatedAt,
              CASE WHEN access_token IS NOT NULL OR refresh_token IS NOT NULL THEN 1 ELSE 0 END AS hasTokens
         FROM "Account" WHERE userId = ? AND provider = ? ORDER BY createdAt LIMIT 1`,
      userId,
      RING_PROVIDER,
    ),
  );
  if (!a) return null;
  return {
    accountId: a.id,
    userId: a.userId,
    ringUserId: a.providerAccountId,
    status: a.status,
    statusReason: a.statusReason,
    scope: a.scope,
    expiresAt: a.expires_at === null ? null : Number(a.expires_at),
    tokenUpdatedAt: fromDbTime(a.tokenUpdatedAt),
    hasTokens: Number(a.hasTokens) === 1,
  };
}

export async function findRingAccountByRingUserId(ringUserId: string): Promise<{ id: string; userId: string; status: string } | null> {
  return (
    (await query(
      get<{ id: string; userId: string; status: string }>(
        `SELECT id, userId, status FROM "Account" WHERE provider = ? AND providerAccountId = ?`,
        RING_PROVIDER,
        ringUserId,
      ),
    )) ?? null
  );
}

// ---------------------------------------------------------------------------
// Writes after a sign-in (new tokens from the authorization-code grant)
// ---------------------------------------------------------------------------

export type NewAccount = {
  userId: string;
  type: string;
  provider: string;
  providerAccountId: string;
  /** already encrypted (lib/ring/crypto.ts) */
  accessToken: string | null;
  refreshToken: string | null;
  expiresAt: number | null;
  tokenType: string | null;
  /** canonical scope names, space-separated */
  scope: string;
};

/** Stores a new connection (the sign-in's account), active, tokens as given (encrypted). */
export async function createAccount(a: NewAccount): Promise<void> {
  const now = toDbTime(clock.date());
  await query(
    run(
      `INSERT INTO "Account" (id, userId, type, provider, providerAccountId, access_token, refresh_token, expires_at, token_type, scope,
         status, tokenUpdatedAt, createdAt, updatedAt)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'active', ?, ?, ?)`,
      crypto.randomUUID(),
      a.userId,
      a.type,
      a.provider,
      a.providerAccountId,
      a.accessToken,
      a.refreshToken,
      a.expiresAt,
      a.tokenType,
      a.scope,
      now,
      now,
      now,
    ),
  );
}

export type EncryptedTokenSet = {
  accessToken: string;
  refreshToken: string | null;
  expiresAt: number | null;
  tokenType: string | null;
  scope: string;
};

/** A token set's columns, in the order access_token, refresh_token, expires_at, token_type, scope. */
const tokenValues = (t: RefreshedTokens) => [t.accessToken, t.refreshToken, t.expiresAt, t.tokenType, t.scope] as const;

/** Stores the tokens of a fresh consent on an existing account, re-activates it and resumes its paused sync. */
export function storeTokensAfterSignIn(accountId: string, userId: string, t: EncryptedTokenSet): Promise<void> {
  const now = toDbTime(clock.date());
  return transaction(function* () {
    yield* run(
      `UPDATE "Account" SET access_token = ?, refresh_token = ?, expires_at = ?, token_type = ?, scope = ?,
         status = 'active', statusReason = NULL, tokenUpdatedAt = ?, updatedAt = ?
       WHERE id = ?`,
      ...tokenValues(t),
      now,
      now,
      accountId,
    );
    yield* run(`UPDATE sync_state SET status = 'idle', lastError = NULL, updatedAt = ? WHERE userId = ? AND status = 'paused'`, now, userId);
  });
}

/** Deletes the tokens and marks the connection disconnected; pauses the person's sync. */
export function disconnectAccount(accountId: string, userId: string): Promise<void> {
  const now = toDbTime(clock.date());
  return transaction(function* () {
    // every sync of the person in flight stores nothing after this (lib/db/queries/sync-fence.ts)
    yield* bumpSyncGeneration(userId);
    yield* run(
      `UPDATE "Account" SET access_token = NULL, refresh_token = NULL, expires_at = NULL,
         status = 'disconnected', statusReason = 'disconnected_by_user', tokenUpdatedAt = ?, updatedAt = ?
       WHERE id = ?`,
      now,
      now,
      accountId,
    );
    yield* run(`UPDATE sync_state SET status = 'paused', updatedAt = ? WHERE userId = ?`, now, userId);
  });
}

// ---------------------------------------------------------------------------
// The refresh path: one contract, one implementation per database
// ---------------------------------------------------------------------------

export const leaseKey = (accountId: string) => `ring-token-refresh-lease:${accountId}`;

export type RefreshClaim =
  | { kind: "missing" }
  | { kind: "unavailable"; status: string }
  | { kind: "fresh"; storedAccessToken: string }
  | { kind: "busy" }
  | { kind: "claimed"; storedRefreshToken: string | null };

export type ClaimRefreshOptions = {
  accountId: string;
  owner: string;
  leaseMs: number;
  needsRefresh: (row: TokenRow) => boolean;
};

export type RefreshedTokens = Omit<EncryptedTokenSet, "scope"> & { scope: string | null };

/** Whether a stored lease (AppSetting value) stops `owner` from refreshing at `now`. */
export function leaseHeldByOther(value: string | undefined, owner: string, now: number): boolean {
  if (value === undefined) return false;
  try {
    const held = JSON.parse(value) as { owner?: string; until?: number };
    return held.owner !== owner && typeof held.until === "number" && held.until > now;
  } catch {
    return false; // unreadable lease: take it over
  }
}

/** Whether `owner` may drop a stored lease (its own, or one nobody can be said to hold). */
export function leaseDroppableBy(value: string, owner: string): boolean {
  try {
    const held = JSON.parse(value) as { owner?: string };
    return !held.owner || held.owner === owner;
  } catch {
    return true; // unreadable: drop it
  }
}

export interface TokenStore {
  /** The token columns of one account (ciphertext), or null. */
  readTokenRow(accountId: string): Promise<TokenRow | null>;
  /**
   * In one write transaction: re-reads the account; when it no longer needs a refresh (another
   * caller or process refreshed it), returns its access token; when another process holds a
   * live refresh lease, answers "busy"; otherwise takes the lease and returns the refresh token
   * to use. `needsRefresh` runs inside the transaction on the freshly read row.
   */
  claimRefresh(options: ClaimRefreshOptions): Promise<RefreshClaim>;
  /** Persists a refresh's result (ciphertext) and drops the lease, in one transaction. */
  storeRefreshed(accountId: string, t: RefreshedTokens): Promise<void>;
  releaseLease(accountId: string, owner: string): Promise<void>;
  /**
   * The connection needs the person to reconnect (the service answered invalid_grant, or the
   * stored tokens are unusable): drops the tokens so no refresh is ever retried, records why,
   * pauses the person's sync (SyncState rows → "paused") and drops any refresh lease.
   * Stored health data is not touched.
   */
  markNeedsReconnect(accountId: string, reason: string): Promise<void>;
}

const readLease = (accountId: string) => get<{ value: string }>(`SELECT value FROM "AppSetting" WHERE key = ?`, leaseKey(accountId));
const dropLease = (accountId: string) => run(`DELETE FROM "AppSetting" WHERE key = ?`, leaseKey(accountId));

/** The refresh path on a database (by default the process's), each step one write transaction. */
export function tokenStore(db: Database = processDatabase()): TokenStore {
  return {
    readTokenRow(accountId) {
      return db.query(tokenRow(accountId));
    },

    claimRefresh(options) {
      return db.transaction(function* (): Work<RefreshClaim> {
        const row = yield* tokenRow(options.accountId, true);
        if (!row) return { kind: "missing" };
        if (row.status !== "active") return { kind: "unavailable", status: row.status };
        if (row.access_token && !options.needsRefresh(row)) return { kind: "fresh", storedAccessToken: row.access_token };
        const now = clock.now();
        if (leaseHeldByOther((yield* readLease(options.accountId))?.value, options.owner, now)) return { kind: "busy" };
        yield* run(
          `INSERT INTO "AppSetting" (key, value, updatedAt) VALUES (?, ?, ?)
           ON CONFLICT(key) DO UPDATE SET value = excluded.value, updatedAt = excluded.updatedAt`,
          leaseKey(options.accountId),
          JSON.stringify({ owner: options.owner, until: now + options.leaseMs }),
          toDbTime(now),
        );
        return { kind: "claimed", storedRefreshToken: row.refresh_token };
      });
    },

    storeRefreshed(accountId, t) {
      const now = toDbTime(clock.date());
      return db.transaction(function* () {
        yield* run(
          `UPDATE "Account" SET access_token = ?, refresh_token = COALESCE(?, refresh_token), expires_at = ?,
             token_type = COALESCE(?, token_type), scope = COALESCE(?, scope), tokenUpdatedAt = ?, updatedAt = ?
           WHERE id = ?`,
          ...tokenValues(t),
          now,
          now,
          accountId,
        );
        yield* dropLease(accountId);
      });
    },

    releaseLease(accountId, owner) {
      return db.transaction(function* () {
        yield* tokenRow(accountId, true);
        const lease = yield* readLease(accountId);
        if (lease && leaseDroppableBy(lease.value, owner)) yield* dropLease(accountId);
      });
    },

    markNeedsReconnect(accountId, reason) {
      const now = toDbTime(clock.date());
      return db.transaction(function* () {
        const forUpdate = (yield* sqlDialect()) === "postgres" ? " FOR UPDATE" : "";
        const row = yield* get<{ userId: string }>(`SELECT userId FROM "Account" WHERE id = ?${forUpdate}`, accountId);
        if (!row) return;
        yield* run(
          `UPDATE "Account" SET status = 'needs_reconnect', statusReason = ?, access_token = NULL, refresh_token = NULL,
             tokenUpdatedAt = ?, updatedAt = ? WHERE id = ?`,
          reason,
          now,
          now,
          accountId,
        );
        yield* run(`UPDATE sync_state SET status = 'paused', updatedAt = ? WHERE userId = ?`, now, row.userId);
        yield* dropLease(accountId);
      });
    },
  };
}

// The process's token store.
const tokens = (): TokenStore => processSingleton("tokenStore", () => tokenStore());

export const readTokenRow = (accountId: string) => tokens().readTokenRow(accountId);
export const claimTokenRefresh = (options: ClaimRefreshOptions) => tokens().claimRefresh(options);
export const storeRefreshedTokens = (accountId: string, t: RefreshedTokens) => tokens().storeRefreshed(accountId, t);
export const releaseRefreshLease = (accountId: string, owner: string) => tokens().releaseLease(accountId, owner);
export const markNeedsReconnect = (accountId: string, reason: string) => tokens().markNeedsReconnect(accountId, reason);
