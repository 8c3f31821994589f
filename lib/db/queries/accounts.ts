import "server-only";
import { clock } from "@/lib/clock";
import type Database from "better-sqlite3";
import { db } from "@/lib/db";
import { rawDb } from "@/lib/db";
import { postgresTokenStore } from "@/lib/db/queries/accounts-postgres";
import { dialect, postgresPool } from "@/lib/db/sql";
import { processSingleton } from "@/lib/process-singleton";

/**
 * The ring connection (Auth.js `Account` row, provider "ring"). Token columns hold only
 * AES-256-GCM ciphertext (lib/ring/crypto.ts); these functions never see plain tokens.
 *
 * The refresh path (`TokenStore`) runs its read-decide-write steps in one write transaction, so
 * two processes cannot both claim the same single-use refresh token: on SQLite a
 * `BEGIN IMMEDIATE` transaction on the raw handle (one writer at a time), on PostgreSQL
 * (accounts-postgres.ts) a transaction that locks the account row (`FOR UPDATE`). Both are held
 * to the same tests (lib/db/queries/accounts-tokens.test.ts).
 */

export const RING_PROVIDER = "ring";

export type AccountStatus = "active" | "needs_reconnect" | "disconnected";

/** DateTime in the text form Prisma's SQLite adapter writes (ISO 8601 with +00:00). */
function sqliteNow(ms = clock.now()): string {
  return new Date(ms).toISOString().replace("Z", "+00:00");
}

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

function sqliteTokenRow(raw: Database.Database, accountId: string): TokenRow | null {
  const row = raw
    .prepare(
      `SELECT id, userId, status, access_token, refresh_token, expires_at FROM "Account" WHERE id = ? AND provider = ?`,
    )
    .get(accountId, RING_PROVIDER) as TokenRow | undefined;
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

export async function findRingAccountByUserId(userId: string): Promise<RingAccountSummary | null> {
  const a = await db.account.findFirst({
    where: { userId, provider: RING_PROVIDER },
    orderBy: { createdAt: "asc" },
    select: {
      id: true,
      userId: true,
      providerAccountId: true,
      status: true,
      statusReason: true,
      scope: true,
      expires_at: true,
      tokenUpdatedAt: true,
      access_token: true,
      refresh_token: true,
    },
  });
  if (!a) return null;
  return {
    accountId: a.id,
    userId: a.userId,
    ringUserId: a.providerAccountId,
    status: a.status,
    statusReason: a.statusReason,
    scope: a.scope,
    expiresAt: a.expires_at,
    tokenUpdatedAt: a.tokenUpdatedAt,
    hasTokens: Boolean(a.access_token || a.refresh_token),
  };
}

export async function findRingAccountByRingUserId(ringUserId: string) {
  return db.account.findUnique({
    where: { provider_providerAccountId: { provider: RING_PROVIDER, providerAccountId: ringUserId } },
    select: { id: true, userId: true, status: true },
  });
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
  await db.account.create({
    data: {
      userId: a.userId,
      type: a.type,
      provider: a.provider,
      providerAccountId: a.providerAccountId,
      access_token: a.accessToken,
      refresh_token: a.refreshToken,
      expires_at: a.expiresAt,
      token_type: a.tokenType,
      scope: a.scope,
      status: "active",
      tokenUpdatedAt: clock.date(),
    },
  });
}

export type EncryptedTokenSet = {
  accessToken: string;
  refreshToken: string | null;
  expiresAt: number | null;
  tokenType: string | null;
  scope: string;
};

/** Stores the tokens of a fresh consent on an existing account, re-activates it and resumes its paused sync. */
export async function storeTokensAfterSignIn(accountId: string, userId: string, t: EncryptedTokenSet): Promise<void> {
  await db.$transaction([
    db.account.update({
      where: { id: accountId },
      data: {
        access_token: t.accessToken,
        refresh_token: t.refreshToken,
        expires_at: t.expiresAt,
        token_type: t.tokenType,
        scope: t.scope,
        status: "active",
        statusReason: null,
        tokenUpdatedAt: clock.date(),
      },
    }),
    db.syncState.updateMany({ where: { userId, status: "paused" }, data: { status: "idle", lastError: null } }),
  ]);
}

/** Deletes the tokens and marks the connection disconnected; pauses the person's sync. */
export async function disconnectAccount(accountId: string, userId: string): Promise<void> {
  await db.$transaction([
    db.account.update({
      where: { id: accountId },
      data: {
        access_token: null,
        refresh_token: null,
        expires_at: null,
        status: "disconnected",
        statusReason: "disconnected_by_user",
        tokenUpdatedAt: clock.date(),
      },
    }),
    db.syncState.updateMany({ where: { userId }, data: { status: "paused" } }),
  ]);
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

/** SQLite: the raw handle, each step one IMMEDIATE transaction. */
export function sqliteTokenStore(open: () => Database.Database = rawDb): TokenStore {
  return {
    async readTokenRow(accountId) {
      return sqliteTokenRow(open(), accountId);
    },

    async claimRefresh(options) {
      const raw = open();
      const run = raw.transaction((): RefreshClaim => {
        const row = sqliteTokenRow(raw, options.accountId);
        if (!row) return { kind: "missing" };
        if (row.status !== "active") return { kind: "unavailable", status: row.status };
        if (row.access_token && !options.needsRefresh(row)) return { kind: "fresh", storedAccessToken: row.access_token };
        const now = clock.now();
        const lease = raw.prepare(`SELECT value FROM "AppSetting" WHERE key = ?`).get(leaseKey(options.accountId)) as { value: string } | undefined;
        if (leaseHeldByOther(lease?.value, options.owner, now)) return { kind: "busy" };
        raw
          .prepare(
            `INSERT INTO "AppSetting" (key, value, updatedAt) VALUES (?, ?, ?)
         ON CONFLICT(key) DO UPDATE SET value = excluded.value, updatedAt = excluded.updatedAt`,
          )
          .run(leaseKey(options.accountId), JSON.stringify({ owner: options.owner, until: now + options.leaseMs }), sqliteNow(now));
        return { kind: "claimed", storedRefreshToken: row.refresh_token };
      });
      return run.immediate();
    },

    async storeRefreshed(accountId, t) {
      const raw = open();
      const now = sqliteNow();
      raw
        .transaction(() => {
          raw
            .prepare(
              `UPDATE "Account" SET access_token = ?, refresh_token = COALESCE(?, refresh_token), expires_at = ?,
             token_type = COALESCE(?, token_type), scope = COALESCE(?, scope), tokenUpdatedAt = ?, updatedAt = ?
           WHERE id = ?`,
            )
            .run(t.accessToken, t.refreshToken, t.expiresAt, t.tokenType, t.scope, now, now, accountId);
          raw.prepare(`DELETE FROM "AppSetting" WHERE key = ?`).run(leaseKey(accountId));
        })
        .immediate();
    },

    async releaseLease(accountId, owner) {
      const raw = open();
      raw
        .transaction(() => {
          const lease = raw.prepare(`SELECT value FROM "AppSetting" WHERE key = ?`).get(leaseKey(accountId)) as { value: string } | undefined;
          if (lease && leaseDroppableBy(lease.value, owner)) raw.prepare(`DELETE FROM "AppSetting" WHERE key = ?`).run(leaseKey(accountId));
        })
        .immediate();
    },

    async markNeedsReconnect(accountId, reason) {
      const raw = open();
      const now = sqliteNow();
      raw
        .transaction(() => {
          const row = raw.prepare(`SELECT userId FROM "Account" WHERE id = ?`).get(accountId) as { userId: string } | undefined;
          if (!row) return;
          raw
            .prepare(
              `UPDATE "Account" SET status = 'needs_reconnect', statusReason = ?, access_token = NULL, refresh_token = NULL,
             tokenUpdatedAt = ?, updatedAt = ? WHERE id = ?`,
            )
            .run(reason, now, now, accountId);
          raw.prepare(`UPDATE "sync_state" SET status = 'paused', updatedAt = ? WHERE userId = ?`).run(now, row.userId);
          raw.prepare(`DELETE FROM "AppSetting" WHERE key = ?`).run(leaseKey(accountId));
        })
        .immediate();
    },
  };
}

// The process's token store (on the database the process runs on: SQLite here, PostgreSQL in accounts-postgres.ts).
const tokenStore = (): TokenStore => processSingleton("tokenStore", () => (dialect() === "postgres" ? postgresTokenStore(postgresPool()) : sqliteTokenStore()));

export const readTokenRow = (accountId: string) => tokenStore().readTokenRow(accountId);
export const claimTokenRefresh = (options: ClaimRefreshOptions) => tokenStore().claimRefresh(options);
export const storeRefreshedTokens = (accountId: string, t: RefreshedTokens) => tokenStore().storeRefreshed(accountId, t);
export const releaseRefreshLease = (accountId: string, owner: string) => tokenStore().releaseLease(accountId, owner);
export const markNeedsReconnect = (accountId: string, reason: string) => tokenStore().markNeedsReconnect(accountId, reason);
